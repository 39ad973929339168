import { rowOutcomes } from '../../../../../src/platform/lists/subscribers';

import type { SubscriberRow } from '../../../../../src/platform/lists/schema';

/**
 * Issue 40: an error naming its row by a bare number whose base (0 or 1) the batch leaves open
 * puts in doubt only the rows it may be about, when the platform's counts prove the others stored.
 */
const batch = (
	count: number,
	row: (n: number) => SubscriberRow = (n) => ({ email: `u${n}@x.io` }),
) => Array.from({ length: count }, (_, n) => row(n));
const statuses = (result: ReturnType<typeof rowOutcomes>) => result.outcomes.map((o) => o.status);
/** The positions holding each status, e.g. { added: [2, 3], unknown: [0, 1] }. */
const byStatus = (result: ReturnType<typeof rowOutcomes>) => {
	const found: Record<string, number[]> = {};
	statuses(result).forEach((status, position) => (found[status] ??= []).push(position));
	return found;
};
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, n) => from + n);

describe('rowOutcomes: a row number of unknown base', () => {
	it('{ row: 1 } in 100 rows, 99 added: rows 0 and 1 unknown, the 98 others added', () => {
		const result = rowOutcomes(batch(100), {
			subscriberAdded: 99,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1, message: 'duplicate' }],
		});
		expect(byStatus(result)).toEqual({ unknown: [0, 1], added: range(2, 100) });
		// Still listed once as an error the node could not tie to one row.
		expect(result.unmatchedErrors.map((error) => error.message)).toEqual(['duplicate']);
		expect(result.outcomes[0].warning).toBe(
			'The platform does not say where it counts rows from: its error "duplicate" names row 1, which is position 1 counted from 0 or position 0 (this one) counted from 1. Its counts prove that the rows no error names were stored, not which of these were: check this subscriber in the list.',
		);
		expect(result.outcomes[1].warning).toContain(
			'position 1 (this one) counted from 0 or position 0 counted from 1',
		);
		expect(result.outcomes[2].warning).toBeUndefined();
	});

	it('the rows are named as the caller names them', () => {
		const result = rowOutcomes(
			batch(10),
			{ subscriberAdded: 9, subscriberUpdated: 0, subscribersError: [{ rowNumber: 4 }] },
			'id',
			(position) => `item ${position + 20}`,
		);
		// 4 is 0-based, 1-based or CSV-style (a header line): rows 4, 3 and 2.
		expect(byStatus(result)).toEqual({ added: [0, 1, 5, 6, 7, 8, 9], unknown: [2, 3, 4] });
		expect(result.outcomes[3].warning).toContain(
			'names rownumber 4, which is item 24 counted from 0 or item 23 (this one) counted from 1 or item 22 counted from 1 after a header line',
		);
	});

	it('several ambiguous errors: the union of their rows is unknown when the counts cover the rest', () => {
		const apart = rowOutcomes(batch(100), {
			subscriberAdded: 98,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1 }, { row: 5 }],
		});
		expect(byStatus(apart).unknown).toEqual([0, 1, 4, 5]);
		expect(byStatus(apart).added).toHaveLength(96);
		// Rows 1 and 2 (0-based) or 0 and 1 (1-based): one numbering, so two rows either way.
		const adjacent = rowOutcomes(batch(100), {
			subscriberAdded: 98,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1 }, { row: 2 }],
		});
		expect(byStatus(adjacent)).toEqual({ unknown: [0, 1, 2], added: range(3, 100) });
		expect(adjacent.outcomes[1].warning).toContain('row 1, which is');
		expect(adjacent.outcomes[1].warning).toContain('row 2, which is');
	});

	it('counts that do not cover the other rows keep every row unknown, with the general warning', () => {
		const result = rowOutcomes(batch(100), {
			subscriberAdded: 98,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1, message: 'duplicate' }],
		});
		expect(new Set(statuses(result))).toEqual(new Set(['unknown']));
		expect(result.outcomes.some((outcome) => outcome.warning)).toBe(false);
		// Two errors under different keys may be about the same row: they prove one row only.
		const keys = rowOutcomes(batch(100), {
			subscriberAdded: 98,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1 }, { line: 50 }],
		});
		expect(new Set(statuses(keys))).toEqual(new Set(['unknown']));
	});

	it('an error with no position at all leaves the rows the counts cannot account for unknown', () => {
		const result = rowOutcomes(batch(100), {
			subscriberAdded: 98,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1 }, { message: 'mystery' }],
		});
		expect(new Set(statuses(result))).toEqual(new Set(['unknown']));
	});

	it('readings beyond the batch are ignored: row 100 of 100 rows is row 99 or 98', () => {
		const result = rowOutcomes(batch(100), {
			subscriberAdded: 99,
			subscriberUpdated: 0,
			subscribersError: [{ row: 100 }],
		});
		expect(byStatus(result)).toEqual({ added: range(0, 98), unknown: [98, 99] });
		expect(result.outcomes[99].warning).toContain(
			'row 100, which is position 99 (this one) counted from 1 or position 98 counted from 1 after a header line',
		);
		expect(result.outcomes[99].warning).not.toContain('counted from 0');
		// A number beyond every reading names no row of the batch: the other error still narrows.
		const far = rowOutcomes(batch(100), {
			subscriberAdded: 99,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1 }, { row: 500, message: 'far' }],
		});
		expect(byStatus(far)).toEqual({ unknown: [0, 1], added: range(2, 100) });
		expect(far.outcomes[0].warning).not.toContain('far');
		expect(far.unmatchedErrors.map((error) => error.message)).toContain('far');
	});

	it('an error whose values agree with none of its readings is not narrowed', () => {
		const result = rowOutcomes(batch(100), {
			subscriberAdded: 99,
			subscriberUpdated: 0,
			subscribersError: [{ row: 1, email: 'nobody@x.io' }],
		});
		expect(new Set(statuses(result))).toEqual(new Set(['unknown']));
	});

	it('a reading on a row failed by another error costs nothing: the counts must cover the rest', () => {
		const rows = batch(10);
		const errors = [{ email: 'u0@x.io', message: 'duplicate' }, { row: 1 }];
		// Row 0 failed; { row: 1 } may be a second error about it, so it proves no other row failed.
		const short = rowOutcomes(rows, {
			subscriberAdded: 8,
			subscriberUpdated: 0,
			subscribersError: errors,
		});
		expect(byStatus(short)).toEqual({ failed: [0], unknown: range(1, 10) });
		const enough = rowOutcomes(rows, {
			subscriberAdded: 9,
			subscriberUpdated: 0,
			subscribersError: errors,
		});
		expect(byStatus(enough)).toEqual({ failed: [0], added: range(1, 10) });
	});

	it('the rows proven stored are told added or updated by the existing rules', () => {
		// Rows 5 to 9 carry the Key Column: 5 updates, and no row in doubt carries it.
		const rows = batch(
			10,
			(n): SubscriberRow =>
				n >= 5 ? { id: `s${n}`, email: `u${n}@x.io` } : { email: `u${n}@x.io` },
		);
		const counts = { subscriberAdded: 4, subscriberUpdated: 5, subscribersError: [{ row: 1 }] };
		expect(statuses(rowOutcomes(rows, counts))).toEqual([
			...['unknown', 'unknown', 'added', 'added', 'added'],
			...['updated', 'updated', 'updated', 'updated', 'updated'],
		]);
		// A row in doubt carrying the key: which stored rows were updates is not told.
		rows[0].id = 's0';
		expect(byStatus(rowOutcomes(rows, counts))).toEqual({
			unknown: [0, 1],
			addedOrUpdated: range(2, 10),
		});
		const updatedOnly = { ...counts, subscriberAdded: 0, subscriberUpdated: 9 };
		expect(byStatus(rowOutcomes(rows, updatedOnly))).toEqual({
			unknown: [0, 1],
			updated: range(2, 10),
		});
	});
});
