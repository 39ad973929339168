import { platformMessage } from '../error-message';
import type { SubscriberRow } from './schema';
import { BatchRows } from './batch-rows';
import { errorRows } from './row-matching';

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
}

/** What a 2xx bulk answer says; counts missing from the answer are undefined, not 0. */
interface BulkCounts {
	subscriberAdded?: number;
	subscriberUpdated?: number;
	subscribersError: unknown[];
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
 * Several errors about one row: their messages joined, column and code of the first giving them,
 * all their details.
 */
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
 * Per-row outcome of one bulk request, linear in rows + errors. Failures come from
 * `subscribersError`, each matched to its row as errorRows tells (several errors about one row
 * make one failure); the platform gives only counts for the rest, so a row is called added or
 * updated only when the counts prove it:
 * - the counts account for every row not failed: added/updated as far as the counts tell
 *   (exact when one count is 0 or when the rows carrying the key column match the update
 *   count), `addedOrUpdated` otherwise;
 * - both counts are 0: the remaining rows failed too (nothing was stored);
 * - fewer rows counted than remain (an error the node could not match to its row), or a count
 *   missing from the answer: the remaining rows are `unknown`, never `added`.
 */
export function rowOutcomes(
	rows: SubscriberRow[],
	result: BulkCounts,
	keyColumn = 'id',
): { outcomes: RowOutcome[]; unmatchedErrors: RowError[] } {
	const outcomes: Array<RowOutcome | undefined> = new Array(rows.length);
	const unmatchedErrors: RowError[] = [];
	const errors = result.subscribersError;
	const positions = errors.length ? errorRows(errors, new BatchRows(rows, keyColumn)) : [];
	const rowErrors: RowError[][] = [];
	errors.forEach((error, at) => {
		const position = positions[at];
		if (position === undefined) unmatchedErrors.push(rowError(error));
		else (rowErrors[position] ??= []).push(rowError(error));
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
	const { subscriberAdded: added, subscriberUpdated: updated } = result;
	let statusOf: (position: number) => RowOutcome;
	if (added === undefined || updated === undefined) statusOf = () => ({ status: 'unknown' });
	else if (added + updated === 0 && remaining.length > 0) {
		const error: RowError = unmatchedErrors[0] ?? {
			message: 'the platform added and updated no subscriber of this batch',
			details: null,
		};
		statusOf = () => ({ status: 'failed', error });
	} else if (added + updated < remaining.length) statusOf = () => ({ status: 'unknown' });
	else if (updated === 0) statusOf = () => ({ status: 'added' });
	else if (added === 0) statusOf = () => ({ status: 'updated' });
	else {
		const keyed = new Set(
			remaining.filter(
				(position) => rows[position][keyColumn] !== undefined && rows[position][keyColumn] !== '',
			),
		);
		statusOf =
			keyed.size === updated
				? (position) => ({ status: keyed.has(position) ? 'updated' : 'added' })
				: () => ({ status: 'addedOrUpdated' });
	}
	for (const position of remaining) outcomes[position] = statusOf(position);
	return { outcomes: outcomes as RowOutcome[], unmatchedErrors };
}
