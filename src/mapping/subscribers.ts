import { platformMessage } from '../errors';
import type { BulkSubscribersResult, SubscriberRow } from '../schemas/lists';

export type RowStatus = 'added' | 'updated' | 'failed' | 'addedOrUpdated';

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

const INDEX_KEYS = ['index', 'rowIndex', 'row', 'position'];

/** The spec does not show a subscribersError element: find the row it is about by index, line, id or content. */
function errorRowIndex(error: unknown, rows: SubscriberRow[], keyColumn: string): number | undefined {
	if (!error || typeof error !== 'object') return undefined;
	const record = error as Record<string, unknown>;
	for (const key of INDEX_KEYS) {
		const value = record[key];
		if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
			const index = Number(value);
			if (index >= 0 && index < rows.length) return index;
		}
	}
	const line = record.line;
	if (typeof line === 'number' && line >= 1 && line <= rows.length) return line - 1;
	const id = record.id ?? record.subscriberId;
	if (id !== undefined && id !== null) {
		const match = rows.findIndex((row) => row[keyColumn] !== undefined && String(row[keyColumn]) === String(id));
		if (match >= 0) return match;
	}
	const sent = record.subscriber ?? record.data ?? record.row;
	if (sent && typeof sent === 'object') {
		const text = JSON.stringify(sent);
		const match = rows.findIndex((row) => JSON.stringify(row) === text);
		if (match >= 0) return match;
	}
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
 * Per-row outcome of one bulk request. Failures come from `subscribersError`; the platform
 * gives only counts for the rest, so added/updated is exact when one count is zero or when
 * the rows carrying a key account for the update count, and `addedOrUpdated` otherwise.
 */
export function rowOutcomes(
	rows: SubscriberRow[],
	result: BulkSubscribersResult,
	keyColumn = 'id',
): { outcomes: RowOutcome[]; unmatchedErrors: RowError[] } {
	const outcomes: Array<RowOutcome | undefined> = rows.map(() => undefined);
	const unmatchedErrors: RowError[] = [];
	for (const error of result.subscribersError) {
		const index = errorRowIndex(error, rows, keyColumn);
		if (index === undefined || outcomes[index]) unmatchedErrors.push(rowError(error));
		else outcomes[index] = { status: 'failed', error: rowError(error) };
	}
	const succeeded = rows.map((_, index) => index).filter((index) => !outcomes[index]);
	const keyed = succeeded.filter((index) => rows[index][keyColumn] !== undefined && rows[index][keyColumn] !== '');
	let statusOf: (index: number) => RowStatus;
	if (result.subscriberUpdated === 0) statusOf = () => 'added';
	else if (result.subscriberAdded === 0) statusOf = () => 'updated';
	else if (keyed.length === result.subscriberUpdated) statusOf = (index) => (keyed.includes(index) ? 'updated' : 'added');
	else statusOf = () => 'addedOrUpdated';
	for (const index of succeeded) outcomes[index] = { status: statusOf(index) };
	return { outcomes: outcomes as RowOutcome[], unmatchedErrors };
}
