import { rowOutcomes } from '../../../../../src/platform/lists/subscribers';
import { parseSubscriberRow, subscriberRowSchema } from '../../../../../src/platform/lists/schema';

import type { SubscriberRow } from '../../../../../src/platform/lists/schema';

const rows: SubscriberRow[] = [
	{ email: 'a@x.io' },
	{ id: 's2', email: 'b@x.io' },
	{ email: 'c@x.io' },
	{ id: 's4', email: 'd@x.io' },
];

describe('rowOutcomes', () => {
	// Seen in a real n8n against the sandbox: a batch repeating a row; its e-mail and content name
	// rows 0 and 2 alike, so the index's numbering ties between 0-based and CSV-style; an "index"
	// counts from 0.
	it("a repeated row refused by index: the tie between numberings goes to the name's base, the repeat fails", () => {
		const rows: SubscriberRow[] = [
			{ email: 'ada@example.com' },
			{ email: 'alan@example.com' },
			{ email: 'ada@example.com' },
		];
		const error = {
			index: 2,
			column: 'email',
			code: 'UNIQUE_VALUE_DUPLICATED',
			message: 'Row 3: duplicate',
			row: { email: 'ada@example.com' },
		};
		const { outcomes, unmatchedErrors } = rowOutcomes(rows, {
			subscriberAdded: 2,
			subscriberUpdated: 0,
			subscribersError: [error],
		});
		expect(outcomes.map((outcome) => outcome.status)).toEqual(['added', 'added', 'failed']);
		expect(unmatchedErrors).toEqual([]);
		// A rowNumber names a 1-based count: the same tie goes the other way.
		const numbered = rowOutcomes(rows, {
			subscriberAdded: 2,
			subscriberUpdated: 0,
			subscribersError: [{ ...error, index: undefined, rowNumber: 3 }],
		});
		expect(numbered.outcomes.map((outcome) => outcome.status)).toEqual([
			'added',
			'added',
			'failed',
		]);
	});

	it('marks failures by index and the rest added when nothing was updated', () => {
		const { outcomes, unmatchedErrors } = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 0,
			subscribersError: [
				{
					index: 2,
					column: 'email',
					value: 'c@x.io',
					code: 'UNIQUE_VALUE_DUPLICATED',
					message: 'email already exists',
				},
			],
		});
		expect(outcomes.map((o) => o.status)).toEqual(['added', 'added', 'failed', 'added']);
		expect(outcomes[2].error).toMatchObject({
			message: 'email already exists',
			column: 'email',
			code: 'UNIQUE_VALUE_DUPLICATED',
		});
		expect(unmatchedErrors).toEqual([]);
	});

	it('tells updated from added when the keyed rows account for the update count', () => {
		const { outcomes } = rowOutcomes(rows, {
			subscriberAdded: 2,
			subscriberUpdated: 2,
			subscribersError: [],
		});
		expect(outcomes.map((o) => o.status)).toEqual(['added', 'updated', 'added', 'updated']);
	});

	it('says addedOrUpdated when the counts do not allow telling', () => {
		const { outcomes } = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 1,
			subscribersError: [],
		});
		expect(new Set(outcomes.map((o) => o.status))).toEqual(new Set(['addedOrUpdated']));
	});

	it('matches errors by line, id or content when they carry no index, and keeps unmatched ones', () => {
		const { outcomes, unmatchedErrors } = rowOutcomes(rows, {
			subscriberAdded: 0,
			subscriberUpdated: 1,
			subscribersError: [
				{ line: 1, email: 'a@x.io', message: 'first' },
				{ subscriberId: 's4', message: 'by id' },
				{ row: { email: 'c@x.io' }, message: 'by content' },
				{ message: 'mystery' },
			],
		});
		expect(outcomes.map((o) => o.status)).toEqual(['failed', 'updated', 'failed', 'failed']);
		expect(outcomes.map((o) => o.error?.message)).toEqual([
			'first',
			undefined,
			'by content',
			'by id',
		]);
		expect(unmatchedErrors.map((e) => e.message)).toEqual(['mystery']);
	});
});

describe('rowOutcomes: subscribersError elements of any shape matched to their rows', () => {
	const statuses = (result: ReturnType<typeof rowOutcomes>) => result.outcomes.map((o) => o.status);
	const messages = (result: ReturnType<typeof rowOutcomes>) =>
		result.outcomes.map((o) => o.error?.message);

	it('a 1-based rowNumber: the e-mail it carries tells the numbering', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 0,
			subscribersError: [{ rowNumber: 2, email: 'b@x.io', message: 'email already exists' }],
		});
		expect(statuses(result)).toEqual(['added', 'failed', 'added', 'added']);
		expect(result.outcomes[1].error).toMatchObject({
			message: 'email already exists',
			details: { rowNumber: 2 },
		});
		expect(result.unmatchedErrors).toEqual([]);
	});

	it('a row 0 makes the batch 0-based: errors carrying only a number are matched', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 2,
			subscriberUpdated: 0,
			subscribersError: [
				{ row: 3, message: 'last row' },
				{ row: 0, message: 'first row' },
			],
		});
		expect(statuses(result)).toEqual(['failed', 'added', 'added', 'failed']);
		expect(messages(result)).toEqual(['first row', undefined, undefined, 'last row']);
	});

	it('a CSV-style line counting the header line, told by the e-mail of one error and applied to the batch', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 2,
			subscriberUpdated: 0,
			subscribersError: [
				{ line: 3, email: 'b@x.io', message: 'duplicate' },
				{ line: 5, message: 'mobile is not a phone number' },
			],
		});
		expect(statuses(result)).toEqual(['added', 'failed', 'added', 'failed']);
		expect(messages(result)).toEqual([
			undefined,
			'duplicate',
			undefined,
			'mobile is not a phone number',
		]);
		expect(result.unmatchedErrors).toEqual([]);
	});

	it('an error with no position, named by its e-mail as the platform echoes it', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 0,
			subscribersError: [{ email: ' C@X.io', message: 'duplicate' }],
		});
		expect(statuses(result)).toEqual(['added', 'added', 'failed', 'added']);
		expect(result.outcomes[2].error?.message).toBe('duplicate');
	});

	it('positions given as text: "4" in a batch of 4 rows, with a "1", is 1-based', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 2,
			subscriberUpdated: 0,
			subscribersError: [
				{ index: '4', message: 'fourth' },
				{ index: '1', message: 'first' },
			],
		});
		expect(statuses(result)).toEqual(['failed', 'added', 'added', 'failed']);
		expect(messages(result)).toEqual(['first', undefined, undefined, 'fourth']);
	});

	it('the whole row echoed under subscriber, its columns in another order', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 0,
			subscribersError: [{ subscriber: { email: 'd@x.io', id: 's4' }, message: 'refused' }],
		});
		expect(statuses(result)).toEqual(['added', 'added', 'added', 'failed']);
	});

	it('a position nested in an object, under a snake_case key', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 2,
			subscriberUpdated: 0,
			subscribersError: [
				{ location: { row_number: 4 }, message: 'last' },
				{ location: { row_number: 1 }, message: 'first' },
			],
		});
		expect(messages(result)).toEqual(['first', undefined, undefined, 'last']);
	});

	it('a batch of 100 rows with one duplicate: 1 failed and 99 added', () => {
		const hundred: SubscriberRow[] = Array.from({ length: 100 }, (_, n) => ({
			email: `u${n}@x.io`,
			plan: 'pro',
		}));
		const result = rowOutcomes(hundred, {
			subscriberAdded: 99,
			subscriberUpdated: 0,
			subscribersError: [
				{
					rowNumber: 43,
					email: 'u42@x.io',
					code: 'UNIQUE_VALUE_DUPLICATED',
					message: 'u42@x.io already exists',
				},
			],
		});
		expect(result.outcomes[42]).toMatchObject({
			status: 'failed',
			error: { code: 'UNIQUE_VALUE_DUPLICATED' },
		});
		expect(statuses(result).filter((status) => status === 'added')).toHaveLength(99);
		expect(result.unmatchedErrors).toEqual([]);
	});

	it.each([
		['a line', { line: 2, message: 'bad mobile' }],
		[
			'an index',
			{ index: 2, column: 'email', code: 'UNIQUE_VALUE_DUPLICATED', message: 'bad mobile' },
		],
	])(
		"an ambiguous number with nothing identifying (%s) matches no row; the batch's other errors still do",
		(_, ambiguous) => {
			const result = rowOutcomes(rows, {
				subscriberAdded: 2,
				subscriberUpdated: 0,
				subscribersError: [ambiguous, { email: 'd@x.io', message: 'duplicate' }],
			});
			expect(statuses(result)).toEqual(['unknown', 'unknown', 'unknown', 'failed']);
			expect(result.outcomes[3].error?.message).toBe('duplicate');
			expect(result.unmatchedErrors.map((e) => e.message)).toEqual(['bad mobile']);
		},
	);

	it('numbers out of range match no row and do not upset the numbering of the others', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 1,
			subscriberUpdated: 0,
			subscribersError: [
				{ row: 9, message: 'far' },
				{ row: 0, message: 'first' },
				{ row: -1, message: 'negative' },
				{ row: 2.5, message: 'fraction' },
			],
		});
		expect(result.outcomes[0]).toMatchObject({ status: 'failed', error: { message: 'first' } });
		expect(statuses(result).slice(1)).toEqual(['unknown', 'unknown', 'unknown']);
		expect(result.unmatchedErrors.map((e) => e.message)).toEqual(['far', 'negative', 'fraction']);
	});

	it('two errors about the same row make one failure carrying both', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 0,
			subscribersError: [
				{ rowNumber: 2, email: 'b@x.io', column: 'email', message: 'email already exists' },
				{
					email: 'b@x.io',
					column: 'mobile',
					code: 'INVALID_VALUE',
					message: 'mobile is not a phone number',
				},
			],
		});
		expect(statuses(result)).toEqual(['added', 'failed', 'added', 'added']);
		expect(result.outcomes[1].error).toMatchObject({
			message: 'email already exists; mobile is not a phone number',
			column: 'email',
			code: 'INVALID_VALUE',
		});
		expect(result.outcomes[1].error?.details).toHaveLength(2);
		expect(result.unmatchedErrors).toEqual([]);
	});

	it('a number and an e-mail naming different rows match neither', () => {
		const result = rowOutcomes(rows, {
			subscriberAdded: 3,
			subscriberUpdated: 0,
			subscribersError: [{ row: 0, email: 'c@x.io', message: 'which one?' }],
		});
		expect(new Set(statuses(result))).toEqual(new Set(['unknown']));
		expect(result.unmatchedErrors.map((e) => e.message)).toEqual(['which one?']);
	});

	it('any column of the rows identifies a row: a phone under another name and spelling, a column and its value, the Key Column', () => {
		const people: SubscriberRow[] = [
			{ email: 'a@x.io', mobile: '+33612345678', plan: 'free' },
			{ email: 'b@x.io', mobile: '+33700000000', plan: 'gold' },
			{ email: 'c@x.io', mobile: '+33711111111', plan: 'free' },
			{ email: 'd@x.io', mobile: '+33722222222', plan: 'free' },
		];
		const result = rowOutcomes(
			people,
			{
				subscriberAdded: 0,
				subscriberUpdated: 0,
				subscribersError: [
					{ phone: '+33 6 12 34 56 78', message: 'by phone' },
					{ plan: 'gold', message: 'by plan' },
					{ field: 'email', value: 'c@x.io', message: 'by column and value' },
					{ subscriberId: 'd@x.io', message: 'by key' },
				],
			},
			'email',
		);
		expect(messages(result)).toEqual(['by phone', 'by plan', 'by column and value', 'by key']);
		expect(result.unmatchedErrors).toEqual([]);
	});

	it('a value several rows share identifies none alone, and narrows down with another one', () => {
		const shared: SubscriberRow[] = [
			{ email: 'dup@x.io', plan: 'free' },
			{ email: 'dup@x.io', plan: 'pro' },
			{ email: 'z@x.io', plan: 'pro' },
		];
		const result = rowOutcomes(shared, {
			subscriberAdded: 1,
			subscriberUpdated: 0,
			subscribersError: [
				{ email: 'dup@x.io', message: 'alone' },
				{ email: 'dup@x.io', plan: 'pro', message: 'narrowed' },
			],
		});
		expect(messages(result)).toEqual([undefined, 'narrowed', undefined]);
		expect(result.unmatchedErrors.map((e) => e.message)).toEqual(['alone']);
	});

	it('stays linear: the rows are read a bounded number of times per row and per error', () => {
		let reads = 0;
		const count = <T extends object>(target: T): T =>
			new Proxy(target, {
				get: (object, key, receiver) => (reads++, Reflect.get(object, key, receiver)),
				ownKeys: (object) => (reads++, Reflect.ownKeys(object)),
			});
		const size = 3000;
		const many = Array.from({ length: size }, (_, n) =>
			count<SubscriberRow>({ email: `u${n}@x.io`, plan: 'pro' }),
		);
		const errors = Array.from({ length: size / 2 }, (_, n) => ({
			rowNumber: 2 * n + 1,
			email: `u${2 * n}@x.io`,
			message: 'duplicate',
		}));
		const result = rowOutcomes(many, {
			subscriberAdded: size / 2,
			subscriberUpdated: 0,
			subscribersError: errors,
		});
		expect(statuses(result).filter((status) => status === 'failed')).toHaveLength(size / 2);
		expect(result.outcomes[2].status).toBe('failed');
		expect(reads).toBeLessThan(20 * (size + errors.length));
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
