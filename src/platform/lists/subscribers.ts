/** rowOutcomes: each row's outcome in a Subscriber › Add Many bulk answer. */
import { platformMessage } from '../error-message';
import type { BulkSubscribersResult, SubscriberRow } from './schema';
import { BatchRows } from './batch-rows';
import { errorRows } from './row-matching';
import { ambiguityWarning, candidateRows, fewestFailing } from './ambiguous-rows';
import type { AmbiguousError } from './ambiguous-rows';

type RowStatus = 'added' | 'updated' | 'failed' | 'addedOrUpdated' | 'unknown';

interface RowError {
	message: string;
	column?: string;
	code?: string;
	details: unknown;
}

interface RowOutcome {
	status: RowStatus;
	error?: RowError;
	/** Why an `unknown` row is in doubt, when more is known than that an error is unmatched. */
	warning?: string;
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

/** Several errors about one row: messages joined, the first column and code given, all details. */
function mergedError(errors: RowError[]): RowError {
	const column = errors.find((error) => error.column !== undefined)?.column;
	const code = errors.find((error) => error.code !== undefined)?.code;
	return {
		message: [...new Set(errors.map((error) => error.message))].join('; '),
		...(column !== undefined ? { column } : {}),
		...(code !== undefined ? { code } : {}),
		details: errors.map((error) => error.details),
	};
}

/**
 * The status of rows the counts prove stored: added or updated when one count is 0, or when the
 * keyed rows match the update count and no doubtful row is keyed; `addedOrUpdated` otherwise.
 */
function storedStatus(
	rows: SubscriberRow[],
	stored: number[],
	doubtful: number[],
	counts: { added: number; updated: number },
	keyColumn: string,
): (position: number) => RowOutcome {
	if (counts.updated === 0) return () => ({ status: 'added' });
	if (counts.added === 0) return () => ({ status: 'updated' });
	const keyed = (position: number) =>
		rows[position][keyColumn] !== undefined && rows[position][keyColumn] !== '';
	const updated = new Set(stored.filter(keyed));
	return updated.size === counts.updated && !doubtful.some(keyed)
		? (position) => ({ status: updated.has(position) ? 'updated' : 'added' })
		: () => ({ status: 'addedOrUpdated' });
}

/**
 * Per-row outcomes of one bulk request, linear in rows + errors. `subscribersError` entries fail
 * their rows (errorRows); for the rest the platform gives only counts, so a row is added or
 * updated only when the counts prove it:
 * - the counts cover every row not failed: storedStatus;
 * - both counts are 0: the remaining rows failed too;
 * - errors of a bare row number must be about at least k of their rows, and counts + k cover the
 *   rest: every other row is proved stored, those rows are `unknown` with a warning (nameRow);
 * - otherwise (an error tied to no row, a count missing): the remaining rows are `unknown`.
 */
export function rowOutcomes(
	rows: SubscriberRow[],
	result: BulkSubscribersResult,
	keyColumn = 'id',
	nameRow = (position: number) => `position ${position}`,
): { outcomes: RowOutcome[]; unmatchedErrors: RowError[] } {
	const outcomes: Array<RowOutcome | undefined> = new Array(rows.length);
	const unmatchedErrors: RowError[] = [];
	const ambiguous: AmbiguousError[] = [];
	const errors = result.subscribersError;
	const matches = errors.length ? errorRows(errors, new BatchRows(rows, keyColumn)) : [];
	const rowErrors: RowError[][] = [];
	errors.forEach((error, at) => {
		const { row, readings } = matches[at];
		const found = rowError(error);
		if (row !== undefined) (rowErrors[row] ??= []).push(found);
		else {
			unmatchedErrors.push(found);
			if (readings) ambiguous.push({ message: found.message, readings });
		}
	});
	rowErrors.forEach((found, position) => {
		outcomes[position] = {
			status: 'failed',
			error: found.length === 1 ? found[0] : mergedError(found),
		};
	});
	const remaining: number[] = [];
	for (let position = 0; position < rows.length; position++)
		if (!outcomes[position]) remaining.push(position);
	const failed = (position: number) => outcomes[position] !== undefined;
	const { subscriberAdded: added, subscriberUpdated: updated } = result;
	let statusOf: (position: number) => RowOutcome;
	if (added === undefined || updated === undefined) statusOf = () => ({ status: 'unknown' });
	else if (added + updated === 0 && remaining.length > 0) {
		const error: RowError = unmatchedErrors[0] ?? {
			message: 'the platform added and updated no subscriber of this batch',
			details: null,
		};
		statusOf = () => ({ status: 'failed', error });
	} else if (added + updated >= remaining.length)
		statusOf = storedStatus(rows, remaining, [], { added, updated }, keyColumn);
	else if (
		ambiguous.length &&
		added + updated + fewestFailing(ambiguous, failed) >= remaining.length
	) {
		const candidates = candidateRows(ambiguous, failed);
		const doubtful = [...candidates.keys()];
		const stored = remaining.filter((position) => !candidates.has(position));
		const storedOf = storedStatus(rows, stored, doubtful, { added, updated }, keyColumn);
		statusOf = (position) => {
			const about = candidates.get(position);
			return about
				? { status: 'unknown', warning: ambiguityWarning(position, about, nameRow) }
				: storedOf(position);
		};
	} else statusOf = () => ({ status: 'unknown' });
	for (const position of remaining) outcomes[position] = statusOf(position);
	return { outcomes: outcomes as RowOutcome[], unmatchedErrors };
}
