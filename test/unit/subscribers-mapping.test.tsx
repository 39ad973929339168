import { rowOutcomes } from '../../src/mapping/subscribers';
import { parseSubscriberRow, subscriberRowSchema } from '../../src/schemas/lists';

import type { SubscriberRow } from '../../src/schemas/lists';

const rows: SubscriberRow[] = [{ email: 'a@x.io' }, { id: 's2', email: 'b@x.io' }, { email: 'c@x.io' }, { id: 's4', email: 'd@x.io' }];

describe('rowOutcomes', () => {
	it('marks failures by index and the rest added when nothing was updated', () => {
		const { outcomes, unmatchedErrors } = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 0,
			subscribersError: [{ index: 2, column: 'email', code: 'UNIQUE_VALUE_DUPLICATED', message: 'email already exists' }],
		});
		expect(outcomes.map((o) => o.status)).toEqual(['added', 'added', 'failed', 'added']);
		expect(outcomes[2].error).toMatchObject({ message: 'email already exists', column: 'email', code: 'UNIQUE_VALUE_DUPLICATED' });
		expect(unmatchedErrors).toEqual([]);
	});

	it('tells updated from added when the keyed rows account for the update count', () => {
		const { outcomes } = rowOutcomes(rows, { subscriberAdded: 2, subscriberUpdated: 2, subscribersError: [] });
		expect(outcomes.map((o) => o.status)).toEqual(['added', 'updated', 'added', 'updated']);
	});

	it('says addedOrUpdated when the counts do not allow telling', () => {
		const { outcomes } = rowOutcomes(rows, { subscriberAdded: 3, subscriberUpdated: 1, subscribersError: [] });
		expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(['addedOrUpdated']));
	});

	it('matches errors by line, id or content when they carry no index, and keeps unmatched ones', () => {
		const { outcomes, unmatchedErrors } = rowOutcomes(rows, {
			subscriberAdded: 0,
			subscriberUpdated: 1,
			subscribersError: [{ line: 1, message: 'first' }, { subscriberId: 's4', message: 'by id' }, { row: { email: 'c@x.io' }, message: 'by content' }, { message: 'mystery' }],
		});
		expect(outcomes.map((o) => o.status)).toEqual(['failed', 'updated', 'failed', 'failed']);
		expect(outcomes.map((o) => o.error?.message)).toEqual(['first', undefined, 'by content', 'by id']);
		expect(unmatchedErrors.map((e) => e.message)).toEqual(['mystery']);
	});
});

describe('parseSubscriberRow (the fast check of Add Many rows)', () => {
	const outcome = (run: () => unknown) => {
		try {
			return { value: run() };
		} catch (error) {
			return { error: (error as Error).message };
		}
	};
	const cases: Array<[string, unknown]> = [
		['text, number, true/false and null', { email: 'a@x.io', age: 3, vip: true, note: null }],
		['an empty row', {}],
		['an empty column name', { '': 'x' }],
		['NaN', { score: NaN }],
		['an infinite number', { score: Infinity }],
		['an object value', { address: { city: 'Paris' } }],
		['a list value', { tags: ['a'] }],
		['undefined', { email: undefined }],
		['a bigint', { big: BigInt(1) }],
		['a list instead of a row', [{ email: 'a@x.io' }]],
		['null instead of a row', null],
		['text instead of a row', 'a@x.io'],
	];
	it.each(cases)('accepts and refuses what the zod schema does: %s', (_, row) => {
		const fast = outcome(() => parseSubscriberRow(row));
		const schema = outcome(() => subscriberRowSchema.parse(row));
		expect(fast).toEqual(schema);
	});
	it('refuses with the zod message naming the problem', () => {
		expect(() => parseSubscriberRow({ '': 'x' })).toThrow('a column name cannot be empty');
		expect(() => parseSubscriberRow({ score: NaN })).toThrow('a column value must be text');
	});
});
