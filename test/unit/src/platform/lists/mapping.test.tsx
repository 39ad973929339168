import { InputError } from '../../../../../src/base/input-errors';
import {
	createListBody,
	csvImportQuery,
	subscriberFromItem,
	typedDefaultValue,
} from '../../../../../src/platform/lists/mapping';
import {
	bulkSubscribersRequestSchema,
	createListRequestSchema,
	csvImportQuerySchema,
	listIdSchema,
	parseSubscriberRow,
} from '../../../../../src/platform/lists/schema';

describe('createListBody', () => {
	it('maps the editor parameters to the JSON body of POST /lists', () => {
		const body = createListBody({
			name: 'Newsletter',
			columns: {
				column: [
					{ name: ' email ', type: 'STRING', unique: true, required: true, defaultValue: '' },
					{ name: 'age', type: 'NUMBER', unique: false, required: false, defaultValue: '18' },
					{ name: 'optIn', type: 'BOOLEAN', defaultValue: 'TRUE' },
				],
			},
			rows: '[{"email":"ada@example.com","age":36}]',
		});
		expect(body).toEqual({
			name: 'Newsletter',
			columns: [
				{ name: 'email', type: 'STRING', unique: true, required: true },
				{ name: 'age', type: 'NUMBER', unique: false, required: false, defaultValue: 18 },
				{ name: 'optIn', type: 'BOOLEAN', defaultValue: true },
			],
			rows: [{ email: 'ada@example.com', age: 36 }],
		});
		expect(createListRequestSchema.parse(body)).toEqual(body);
	});

	it('sends rows: [] when no rows are given, since the spec requires the field', () => {
		expect(createListBody({ name: 'Empty', rows: '' })).toEqual({
			name: 'Empty',
			columns: [],
			rows: [],
		});
	});

	it('refuses rows that are not JSON, naming the field', () => {
		expect(() => createListBody({ name: 'x', rows: '[{' })).toThrow(InputError);
		try {
			createListBody({ name: 'x', rows: '[{' });
		} catch (error) {
			expect((error as InputError).field).toBe('rows');
		}
	});

	it("gives a column whose Type is not set at all the editor's default, STRING", () => {
		expect(createListBody({ name: 'L', columns: { column: [{ name: 'plan' }] } }).columns).toEqual([
			{ name: 'plan', type: 'STRING' },
		]);
	});

	it.each([
		['empty text (an expression that gave "")', ''],
		['blanks', '  '],
		['null', null],
	])('refuses a Type set to %s, naming the column and its position', (_, type) => {
		const columns = {
			column: [
				{ name: 'email', type: 'STRING' },
				{ name: 'plan', type },
			],
		};
		let thrown: unknown;
		try {
			createListBody({ name: 'L', columns });
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(InputError);
		expect((thrown as InputError).field).toBe('columns.1.type');
		expect((thrown as InputError).message).toBe(
			'the type of the column "plan" is empty: pick String, Number, Boolean or Date, or have the expression give a type such as STRING',
		);
	});

	it("trims the whitespace around the e-mail of a row (a spreadsheet cell's line break), and only around the e-mail", () => {
		const body = createListBody({
			name: 'L',
			rows: '[{"email":"ada@example.com\\n","note":" kept \\n"},{"email":"\\u00a0bob@example.com\\t"}]',
		});
		expect(createListRequestSchema.parse(body).rows).toEqual([
			{ email: 'ada@example.com', note: ' kept \n' },
			{ email: 'bob@example.com' },
		]);
	});

	it('the schema refuses a missing name, a nameless column, a duplicate column and a non-object row', () => {
		const issues = (value: unknown) => {
			const result = createListRequestSchema.safeParse(value);
			return result.success
				? []
				: result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
		};
		expect(issues({ name: ' ', columns: [], rows: [] })).toEqual(['name: the list needs a name']);
		expect(issues({ name: 'a', columns: [{ name: '', type: 'STRING' }], rows: [] })).toEqual([
			'columns.0.name: every column needs a name',
		]);
		expect(
			issues({
				name: 'a',
				columns: [
					{ name: 'x', type: 'STRING' },
					{ name: 'x', type: 'STRING' },
				],
				rows: [],
			}),
		).toEqual(['columns.1.name: the column "x" is defined twice']);
		expect(issues({ name: 'a', columns: [], rows: [42] })).toEqual([
			'rows.0: each subscriber must be an object keyed by column name',
		]);
		expect(issues({ name: 'a', columns: [], rows: [{ tags: ['a'] }] })[0]).toMatch(
			/^rows\.0\.tags: a column value must be text/,
		);
	});
});

describe('typedDefaultValue', () => {
	it('types defaults of NUMBER and BOOLEAN columns and leaves the rest as text', () => {
		expect(typedDefaultValue('NUMBER', '3.5')).toBe(3.5);
		expect(typedDefaultValue('NUMBER', 'abc')).toBe('abc');
		expect(typedDefaultValue('BOOLEAN', 'false')).toBe(false);
		expect(typedDefaultValue('STRING', '007')).toBe('007');
		expect(typedDefaultValue('STRING', '')).toBeUndefined();
	});
});

describe('csvImportQuery', () => {
	it('sends only the options the user set', () => {
		expect(csvImportQuery('Customers', {})).toEqual({ name: 'Customers' });
		expect(
			csvImportQuery('Customers', {
				key: ' email ',
				caseSensitive: false,
				trackLastActivity: true,
			}),
		).toEqual({
			name: 'Customers',
			key: 'email',
			caseSensitive: false,
			trackLastActivity: true,
		});
		expect(csvImportQuery('Customers', { key: '' })).toEqual({ name: 'Customers' });
		expect(csvImportQuerySchema.safeParse({ name: '' }).success).toBe(false);
	});
});

describe('subscriberFromItem', () => {
	it('takes every field, or only the chosen columns', () => {
		const json = { email: 'a@b.c', age: 3, vip: true, note: null, skipped: undefined };
		expect(subscriberFromItem(json)).toEqual({ email: 'a@b.c', age: 3, vip: true, note: null });
		expect(subscriberFromItem(json, ['email', 'missing'])).toEqual({ email: 'a@b.c' });
	});

	it('trims the whitespace around the e-mail, as every row the node sends', () => {
		expect(subscriberFromItem({ email: 'ada@example.com\r\n', name: ' Ada ' })).toEqual({
			email: 'ada@example.com',
			name: ' Ada ',
		});
		expect(parseSubscriberRow({ email: '\tada@example.com\n', age: 3 })).toEqual({
			email: 'ada@example.com',
			age: 3,
		});
		expect(
			bulkSubscribersRequestSchema.parse([{ email: 'ada@example.com\n' }, { email: null }]),
		).toEqual([{ email: 'ada@example.com' }, { email: null }]);
		const clean = { email: 'ada@example.com' };
		expect(parseSubscriberRow(clean)).toBe(clean);
	});

	it('refuses nested objects, naming the field', () => {
		expect(() => subscriberFromItem({ address: { city: 'Paris' } })).toThrow(/address|object/);
		try {
			subscriberFromItem({ address: { city: 'Paris' } });
		} catch (error) {
			expect((error as InputError).field).toBe('address');
		}
	});
});

describe('listIdSchema', () => {
	it('accepts whole numbers as text or number and refuses the rest', () => {
		expect(listIdSchema.parse(42)).toBe('42');
		expect(listIdSchema.parse(' 7 ')).toBe('7');
		expect(listIdSchema.safeParse('abc').success).toBe(false);
		expect(listIdSchema.safeParse('').success).toBe(false);
	});
});
