import {
	passFieldSources,
	passFromItem,
	passFromParameters,
	passOutcomes,
	templateSelect,
	templateSort,
} from '../../../../../src/platform/wallet/mapping';
import {
	parsePass,
	passSchema,
	readPassBatchResult,
} from '../../../../../src/platform/wallet/schema';

describe('templateSort / templateSelect', () => {
	it('writes the + / - syntax in rule order and skips empty rules', () => {
		expect(
			templateSort([
				{ field: 'creationDate', direction: 'descending' },
				{ field: ' name ', direction: 'ascending' },
				{ field: '' },
			]),
		).toBe('-creationDate,+name');
		expect(templateSort([])).toBeUndefined();
		expect(templateSelect(['serial', 'name'])).toBe('serial,name');
		expect(templateSelect([])).toBeUndefined();
	});
});

describe('passFromParameters', () => {
	it('keeps an HTML value exactly and marks fields per pass', () => {
		const value = '<a href="https://x.io/?a=1&amp;b=2">  Link </a>';
		const pass = passSchema.parse(
			passFromParameters(42, [
				{ place: 'BACK', label: 'Link', value },
				{ place: 'custom', customPlace: 'AUXILIARY', value: 7 },
			]),
		);
		expect(pass).toEqual({
			recipientId: '42',
			uniqueValues: {
				fields: [
					{ place: 'BACK', label: 'Link', fixed: false, value },
					{ place: 'AUXILIARY', fixed: false, value: '7' },
				],
			},
		});
	});
});

describe('passOutcomes', () => {
	const passes = ['a', 'b', 'c', 'd'].map((recipientId) => ({
		recipientId,
		uniqueValues: { fields: [] },
	}));

	it('matches by recipientId whatever the order, and explains the missing ones', () => {
		const outcomes = passOutcomes(passes, {
			items: [
				{ recipientId: 'c', url: 'u-c' },
				{ recipientId: 'a', url: 'u-a' },
				{ recipientId: 'd', error: { message: 'bad place' } },
			],
			errors: [
				{ recipientId: 'b', code: 'RECIPIENT_ALREADY_HAS_PASS', message: 'b already has a pass' },
			],
		});
		expect(outcomes.get('a')).toEqual({ url: 'u-a' });
		expect(outcomes.get('c')).toEqual({ url: 'u-c' });
		expect(outcomes.get('b')?.error).toBe('b already has a pass');
		expect(outcomes.get('d')?.error).toBe('bad place');
	});

	it('says so when the platform returns nothing for a recipient', () => {
		expect(passOutcomes(passes.slice(0, 1), { items: [], errors: [] }).get('a')).toEqual({
			error: 'the platform returned no pass for this recipient',
		});
	});
});

describe('passFieldSources / passFromItem: passes read from input item fields', () => {
	const sources = passFieldSources([
		{ place: 'BACK', label: 'Link', inputField: 'link' },
		{ place: 'custom', customPlace: ' AUXILIARY ', label: '', inputField: ' points ' },
	]);

	it('checks the mapping once, then reads each item by field name: text exactly, numbers and true/false as text', () => {
		expect(sources).toEqual([
			{ place: 'BACK', label: 'Link', inputField: 'link' },
			{ place: 'AUXILIARY', inputField: 'points' },
		]);
		const link = ' <a href="https://x.io/">Link</a> ';
		const pass = passFromItem({ email: ' ada@x.io ', link, points: 0 }, 'email', sources);
		expect(pass).toEqual({
			recipientId: 'ada@x.io',
			uniqueValues: {
				fields: [
					{ place: 'BACK', label: 'Link', fixed: false, value: link },
					{ place: 'AUXILIARY', fixed: false, value: '0' },
				],
			},
		});
		// What it builds is what the pass schema would have passed.
		expect(passSchema.parse(pass)).toEqual(pass);
		expect(
			passFromItem({ id: true, link: 'x', points: false }, 'id', sources).uniqueValues.fields[1]
				.value,
		).toBe('false');
	});

	it('names the field: a missing, empty, object or non-finite value is refused', () => {
		const cases: Array<[Record<string, unknown>, string, string]> = [
			[{ link: 'x', points: 1 }, 'recipientIdField', 'the input item has no field "email"'],
			[
				{ email: null, link: 'x', points: 1 },
				'recipientIdField',
				'the input item has no field "email"',
			],
			[
				{ email: ' ', link: 'x', points: 1 },
				'recipientIdField',
				'the input item\'s field "email" is empty',
			],
			[
				{ email: 'a', link: ['x'], points: 1 },
				'uniqueValues.fields.0.inputField',
				'the input item\'s field "link" holds a list; text, a number or true/false was expected',
			],
			[
				{ email: 'a', link: 'x', points: { n: 1 } },
				'uniqueValues.fields.1.inputField',
				'the input item\'s field "points" holds an object; text, a number or true/false was expected',
			],
			[
				{ email: 'a', link: 'x', points: Number.NaN },
				'uniqueValues.fields.1.inputField',
				'the input item\'s field "points" holds NaN; text, a number or true/false was expected',
			],
		];
		for (const [json, field, message] of cases)
			expect(() => passFromItem(json, 'email', sources)).toThrow(
				expect.objectContaining({ field, message }),
			);
		expect(() => passFieldSources([{ place: 'BACK', inputField: ' ' }])).toThrow(
			expect.objectContaining({ field: 'uniqueValues.fields.0.inputField' }),
		);
		expect(() => passFieldSources([{ place: 'custom', customPlace: '', inputField: 'x' }])).toThrow(
			expect.objectContaining({ field: 'uniqueValues.fields.0.place' }),
		);
	});
});

describe('readPassBatchResult: the batch answer in one plain pass', () => {
	it('takes items whose recipientId is text or a number, as they are, and a missing or odd errors as none', () => {
		const items = [
			{ recipientId: 'a', url: 'https://x/a', extra: 1 },
			{ recipientId: 7, error: 'no' },
		];
		const read = readPassBatchResult({ items, errors: null });
		expect(read).toEqual({ success: true, data: { items, errors: [] } });
		expect(read.success && read.data.items[0]).toBe(items[0]);
		expect(readPassBatchResult({ items: [], errors: [{ recipientId: 'b' }] })).toEqual({
			success: true,
			data: { items: [], errors: [{ recipientId: 'b' }] },
		});
	});

	it('refuses what is not an answer, in the words of the schema', () => {
		for (const body of [
			null,
			'ok',
			[],
			{ created: true },
			{ items: {} },
			{ items: [null] },
			{ items: [{ url: 'x' }] },
			{ items: [{ recipientId: true }] },
		]) {
			const read = readPassBatchResult(body);
			expect(read.success).toBe(false);
			expect(!read.success && read.message.length).toBeGreaterThan(3);
		}
	});
});

describe('parsePass', () => {
	const field = (extra: Record<string, unknown> = {}) => ({
		place: ' BACK ',
		label: 'Plan',
		fixed: false,
		value: ' <b>gold</b> ',
		...extra,
	});
	const pass = (extra: Record<string, unknown> = {}, fields: unknown = [field()]) => ({
		recipientId: ' ada@example.com ',
		uniqueValues: { fields },
		...extra,
	});
	const cases: Array<[string, unknown]> = [
		['a pass that fits', pass()],
		['no fields', pass({}, [])],
		[
			'several fields, no label, an explicit undefined label, extra keys',
			pass({ extra: 1 }, [
				field({ label: undefined }),
				{ place: 'X', fixed: true, value: 'v', other: 2 },
				field(),
			]),
		],
		['a number as recipient', pass({ recipientId: 42 })],
		['an empty recipient', pass({ recipientId: '  ' })],
		['no recipient', { uniqueValues: { fields: [] } }],
		['fields not a list', pass({}, { 0: field() })],
		['no uniqueValues', { recipientId: 'a' }],
		['uniqueValues a list', { recipientId: 'a', uniqueValues: [] }],
		['an empty value', pass({}, [field({ value: ' ' })])],
		['a number as value', pass({}, [field({ value: 7 })])],
		['no value', pass({}, [{ place: 'BACK', fixed: false }])],
		['an empty place', pass({}, [field({ place: '' })])],
		['a label that is not text', pass({}, [field({ label: 3 })])],
		['fixed not a boolean', pass({}, [field({ fixed: 'no' })])],
		['a field that is not an object', pass({}, ['x'])],
		['null', null],
		['a list', []],
	];

	it.each(cases)('%s: the same as passSchema.parse (value, key order, or error)', (_, value) => {
		const expected = passSchema.safeParse(value);
		if (expected.success) {
			const result = parsePass(value);
			expect(result).toStrictEqual(expected.data);
			expect(JSON.stringify(result)).toBe(JSON.stringify(expected.data));
		} else {
			expect(() => parsePass(value)).toThrow(expected.error.message);
		}
	});
});
