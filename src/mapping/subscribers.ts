import { platformMessage } from '../errors';
import type { SubscriberRow } from '../schemas/lists';

export type RowStatus = 'added' | 'updated' | 'failed' | 'addedOrUpdated' | 'unknown';

export interface RowError {
	message: string;
	column?: string;
	code?: string;
	details: unknown;
}

export interface RowOutcome {
	status: RowStatus;
	error?: RowError;
}

/** What a 2xx bulk answer says; counts missing from the answer are undefined, not 0. */
export interface BulkCounts {
	subscriberAdded?: number;
	subscriberUpdated?: number;
	subscribersError: unknown[];
}

const INDEX_KEYS = ['index', 'rowIndex', 'row', 'position'];

/** Lookups built once per batch, and only when an error needs them: matching stays linear in rows + errors. */
class RowIndex {
	private byKey?: Map<string, number>;
	private byContent?: Map<string, number>;

	constructor(
		private readonly rows: SubscriberRow[],
		private readonly keyColumn: string,
	) {}

	key(value: unknown): number | undefined {
		if (!this.byKey) {
			this.byKey = new Map();
			this.rows.forEach((row, index) => {
				const key = row[this.keyColumn];
				if (key !== undefined && key !== null && !this.byKey!.has(String(key))) this.byKey!.set(String(key), index);
			});
		}
		return this.byKey.get(String(value));
	}

	content(value: object): number | undefined {
		if (!this.byContent) {
			this.byContent = new Map();
			this.rows.forEach((row, index) => {
				const text = JSON.stringify(row);
				if (!this.byContent!.has(text)) this.byContent!.set(text, index);
			});
		}
		return this.byContent.get(JSON.stringify(value));
	}
}

/** The spec does not show a subscribersError element: find the row it is about by index, line, id or content. */
function errorRowIndex(error: unknown, rowCount: number, index: RowIndex): number | undefined {
	if (!error || typeof error !== 'object') return undefined;
	const record = error as Record<string, unknown>;
	for (const key of INDEX_KEYS) {
		const value = record[key];
		if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
			const position = Number(value);
			if (Number.isInteger(position) && position >= 0 && position < rowCount) return position;
		}
	}
	const line = record.line;
	if (typeof line === 'number' && Number.isInteger(line) && line >= 1 && line <= rowCount) return line - 1;
	const id = record.id ?? record.subscriberId;
	if (id !== undefined && id !== null) {
		const match = index.key(id);
		if (match !== undefined) return match;
	}
	const sent = record.subscriber ?? record.data ?? record.row;
	if (sent && typeof sent === 'object') return index.content(sent);
	return undefined;
}

function rowError(error: unknown): RowError {
	const record = (error && typeof error === 'object' ? error : {}) as Record<string, unknown>;
	const column = record.column ?? record.field ?? record.columnName;
	const code = record.code ?? record.errorCode;
	return {
		message: platformMessage(error) ?? 'the platform rejected this subscriber',
		...(typeof column === 'string' ? { column } : {}),
		...(typeof code === 'string' ? { code } : {}),
		details: error,
	};
}

/**
 * Per-row outcome of one bulk request, linear in rows + errors. Failures come from
 * `subscribersError`; the platform gives only counts for the rest, so a row is called added or
 * updated only when the counts prove it:
 * - the counts account for every row not failed: added/updated as far as the counts tell
 *   (exact when one count is 0 or when the rows carrying the key column match the update
 *   count), `addedOrUpdated` otherwise;
 * - both counts are 0: the remaining rows failed too (nothing was stored);
 * - fewer rows counted than remain (an error the node could not match to its row), or a count
 *   missing from the answer: the remaining rows are `unknown`, never `added`.
 */
export function rowOutcomes(rows: SubscriberRow[], result: BulkCounts, keyColumn = 'id'): { outcomes: RowOutcome[]; unmatchedErrors: RowError[] } {
	const outcomes: Array<RowOutcome | undefined> = new Array(rows.length);
	const unmatchedErrors: RowError[] = [];
	const index = new RowIndex(rows, keyColumn);
	for (const error of result.subscribersError) {
		const position = errorRowIndex(error, rows.length, index);
		if (position === undefined || outcomes[position]) unmatchedErrors.push(rowError(error));
		else outcomes[position] = { status: 'failed', error: rowError(error) };
	}
	const remaining: number[] = [];
	for (let position = 0; position < rows.length; position++) if (!outcomes[position]) remaining.push(position);
	const { subscriberAdded: added, subscriberUpdated: updated } = result;
	let statusOf: (position: number) => RowOutcome;
	if (added === undefined || updated === undefined) statusOf = () => ({ status: 'unknown' });
	else if (added + updated === 0 && remaining.length > 0) {
		const error: RowError = unmatchedErrors[0] ?? { message: 'the platform added and updated no subscriber of this batch', details: null };
		statusOf = () => ({ status: 'failed', error });
	} else if (added + updated < remaining.length) statusOf = () => ({ status: 'unknown' });
	else if (updated === 0) statusOf = () => ({ status: 'added' });
	else if (added === 0) statusOf = () => ({ status: 'updated' });
	else {
		const keyed = new Set(remaining.filter((position) => rows[position][keyColumn] !== undefined && rows[position][keyColumn] !== ''));
		statusOf = keyed.size === updated ? (position) => ({ status: keyed.has(position) ? 'updated' : 'added' }) : () => ({ status: 'addedOrUpdated' });
	}
	for (const position of remaining) outcomes[position] = statusOf(position);
	return { outcomes: outcomes as RowOutcome[], unmatchedErrors };
}
