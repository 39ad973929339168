import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { binaryItem } from '../helpers/n8n';
import { byId, outputOf, run, useSandbox } from './context';

/**
 * The bad-input table: for every operation and field, values an expression can yield that the
 * operation must refuse. Each case runs three items; only the last carries the bad value, so a
 * node that sends items one by one would send items 0 and 1 before failing. Every case must end
 * in a NodeOperationError naming item 2 and the field, with no request sent at all, and never in
 * a JavaScript error.
 */
const ctx = useSandbox();

const BAD = '={{ $json.bad }}';
const OBJECT = { nested: true };
const LIST = ['a', 'b'];

interface Case {
	operation: string;
	field: string;
	/** The parameters, with BAD where the bad value goes. */
	parameters: INodeParameters;
	value: unknown;
	/** The field's label as the error names it. */
	label: string;
	/** The good value the first two items carry (defaults to a value the field accepts). */
	good: unknown;
	binary?: boolean;
}

const cases: Case[] = [];
function add(
	operation: string,
	field: string,
	label: string,
	parameters: INodeParameters,
	good: unknown,
	values: unknown[],
) {
	for (const value of values) cases.push({ operation, field, label, parameters, value, good });
}

const TEXT_TYPES = [OBJECT, LIST, true];
const REQUIRED_TEXT = [...TEXT_TYPES, '', '   ', null];
const LIST_IDS = ['abc', '..', '', ' ', '-1', '1.5', '4 2', OBJECT, LIST, true, null, 1.5, -3];
const WHOLE_AT_LEAST_1 = [0, -1, 2.5, 'x', '', OBJECT, LIST, true];
// Phone numbers: 7 to 15 digits with the country code (src/base/addresses.ts); "+1234" and
// "+3361" were sent before.
const PHONES = [
	'abc',
	'06 12 34 56 78',
	'+0 612 345 678',
	'+1234567890123456',
	'+1234',
	'+3361',
	'+683 400',
	'＋１２３４',
	'1234',
	'',
	OBJECT,
	LIST,
	true,
];
const URLS = [
	'ftp://example.com/a.png',
	'javascript:alert(1)',
	'file:///etc/passwd',
	'data:image/png;base64,AAAA',
	'not a url',
	'',
	OBJECT,
	LIST,
];

// List
const listCreate = (extra: INodeParameters): INodeParameters => ({
	resource: 'list',
	operation: 'create',
	name: 'L',
	rows: '[]',
	...extra,
});
add('List › Create', 'name', 'Name', listCreate({ name: BAD }), 'Newsletter', REQUIRED_TEXT);
add(
	'List › Create',
	'column name',
	'Columns › Name',
	listCreate({ columns: { column: [{ name: BAD, type: 'STRING' }] } }),
	'email',
	REQUIRED_TEXT,
);
// An empty Type (an expression that gave "") was sent as STRING.
add(
	'List › Create',
	'column type',
	'Columns › Type',
	listCreate({ columns: { column: [{ name: 'email', type: BAD }] } }),
	'STRING',
	[...TEXT_TYPES, '', '  ', null],
);
add(
	'List › Create',
	'column unique',
	'Columns › Unique',
	listCreate({ columns: { column: [{ name: 'email', type: 'STRING', unique: BAD }] } }),
	true,
	['maybe', OBJECT, 3],
);
add(
	'List › Create',
	'column default',
	'Columns › Default Value',
	listCreate({ columns: { column: [{ name: 'email', type: 'STRING', defaultValue: BAD }] } }),
	'x',
	[OBJECT, LIST],
);
add('List › Create', 'rows', 'Rows (JSON)', listCreate({ rows: BAD }), '[]', [
	'not json',
	'[1]',
	'["x"]',
	'[{"a": {"b": 1}}]',
	5,
	'[{"": 1}]',
]);
for (const operation of ['get', 'delete'])
	add(
		`List › ${operation}`,
		'listId',
		'List',
		{ resource: 'list', operation, listId: { __rl: true, mode: 'id', value: BAD } },
		'1',
		LIST_IDS,
	);
add(
	'List › Create From CSV',
	'name',
	'Name',
	{ resource: 'list', operation: 'createFromCsv', name: BAD, binaryPropertyName: 'data' },
	'Imported',
	REQUIRED_TEXT,
);
add(
	'List › Create From CSV',
	'binary field',
	'Input Binary Field',
	{ resource: 'list', operation: 'createFromCsv', name: 'I', binaryPropertyName: BAD },
	'data',
	['missing', '', OBJECT, LIST],
);
add(
	'List › Create From CSV',
	'key',
	'Options › Key',
	{
		resource: 'list',
		operation: 'createFromCsv',
		name: 'I',
		binaryPropertyName: 'data',
		options: { key: BAD },
	},
	'email',
	TEXT_TYPES,
);
add(
	'List › Create From CSV',
	'case sensitive',
	'Options › Case Sensitive Columns',
	{
		resource: 'list',
		operation: 'createFromCsv',
		name: 'I',
		binaryPropertyName: 'data',
		options: { caseSensitive: BAD },
	},
	false,
	['maybe', OBJECT, 1],
);

// Subscriber
const addMany = (extra: INodeParameters): INodeParameters => ({
	resource: 'subscriber',
	operation: 'addMany',
	listId: byId(1),
	source: 'items',
	...extra,
});
add(
	'Subscriber › Add Many',
	'listId',
	'List',
	addMany({ listId: { __rl: true, mode: 'id', value: BAD } }),
	'1',
	LIST_IDS,
);
add(
	'Subscriber › Add Many',
	'columns to send',
	'Columns to Send',
	addMany({ columnsToSend: BAD }),
	'email',
	[OBJECT, [OBJECT], true],
);
add(
	'Subscriber › Add Many',
	'JSON subscribers',
	'Subscribers (JSON)',
	addMany({ source: 'json', subscribers: BAD }),
	'[{"email":"a@x.io"}]',
	['not json', '[]', '[1]', '[{"a": [1]}]', 5, 'null'],
);
add(
	'Subscriber › Add Many',
	'CSV binary field',
	'Input Binary Field',
	addMany({ source: 'csv', binaryPropertyName: BAD }),
	'data',
	['missing', '', OBJECT],
);
add(
	'Subscriber › Get Many',
	'listId',
	'List',
	{
		resource: 'subscriber',
		operation: 'getMany',
		listId: { __rl: true, mode: 'id', value: BAD },
		returnAll: true,
	},
	'1',
	LIST_IDS,
);
add(
	'Subscriber › Get Many',
	'limit',
	'Limit',
	{ resource: 'subscriber', operation: 'getMany', listId: byId(1), returnAll: false, limit: BAD },
	5,
	WHOLE_AT_LEAST_1,
);
add(
	'Subscriber › Get Many',
	'return all',
	'Return All',
	{ resource: 'subscriber', operation: 'getMany', listId: byId(1), returnAll: BAD },
	true,
	['maybe', OBJECT, 1],
);
add(
	'Subscriber › Delete',
	'subscriberId',
	'Subscriber ID',
	{ resource: 'subscriber', operation: 'delete', listId: byId(1), subscriberId: BAD },
	'sub-1',
	['..', '.', '', ' ', OBJECT, LIST, true, null],
);
add(
	'Subscriber › Delete',
	'listId',
	'List',
	{
		resource: 'subscriber',
		operation: 'delete',
		listId: { __rl: true, mode: 'id', value: BAD },
		subscriberId: 's',
	},
	'1',
	LIST_IDS,
);

// Wallet
const templates = (extra: INodeParameters): INodeParameters => ({
	resource: 'walletTemplate',
	operation: 'getMany',
	returnAll: false,
	limit: 5,
	...extra,
});
add('Wallet Template › Get Many', 'limit', 'Limit', templates({ limit: BAD }), 5, WHOLE_AT_LEAST_1);
add(
	'Wallet Template › Get Many',
	'sort field',
	'Sort › Field',
	templates({ sort: { rule: [{ field: BAD, direction: 'ascending' }] } }),
	'name',
	[OBJECT, LIST, true, 'name,serial', '-name', 'a b'],
);
add(
	'Wallet Template › Get Many',
	'sort direction',
	'Sort › Direction',
	templates({ sort: { rule: [{ field: 'name', direction: BAD }] } }),
	'ascending',
	['sideways', OBJECT, ''],
);
add(
	'Wallet Template › Get Many',
	'fields to return',
	'Fields to Return',
	templates({ select: BAD }),
	['name'],
	[OBJECT, [OBJECT], true],
);
const passes = (extra: INodeParameters): INodeParameters => ({
	resource: 'walletPass',
	operation: 'create',
	templateSerial: byId('tpl-gold-member'),
	recipientId: '={{ $json.id }}',
	fields: { field: [{ place: 'BACK', label: 'Link', value: 'v' }] },
	...extra,
});
add(
	'Wallet Pass › Create',
	'template',
	'Template',
	passes({ templateSerial: { __rl: true, mode: 'id', value: BAD } }),
	'tpl-gold-member',
	['..', '.', '', OBJECT, LIST, true],
);
add(
	'Wallet Pass › Create',
	'recipientId',
	'Recipient ID',
	passes({ recipientId: BAD }),
	'r',
	REQUIRED_TEXT,
);
add(
	'Wallet Pass › Create',
	'field value',
	'Fields › Value',
	passes({ fields: { field: [{ place: 'BACK', value: BAD }] } }),
	'v',
	[OBJECT, LIST, '', '  '],
);
add(
	'Wallet Pass › Create',
	'field place',
	'Fields › Place',
	passes({ fields: { field: [{ place: 'custom', customPlace: BAD, value: 'v' }] } }),
	'BACK',
	[OBJECT, LIST, ''],
);
add(
	'Wallet Pass › Create',
	'field label',
	'Fields › Label',
	passes({ fields: { field: [{ place: 'BACK', label: BAD, value: 'v' }] } }),
	'L',
	[OBJECT, LIST],
);

// Sender and templates
const senderCreate = (extra: INodeParameters): INodeParameters => ({
	resource: 'sender',
	operation: 'create',
	providerId: 'p',
	name: 'ACME',
	address: '+15550100100',
	accountTier: 1,
	...extra,
});
add(
	'Sender › Create',
	'providerId',
	'Provider ID',
	senderCreate({ providerId: BAD }),
	'p',
	REQUIRED_TEXT,
);
add('Sender › Create', 'name', 'Name', senderCreate({ name: BAD }), 'ACME', REQUIRED_TEXT);
add(
	'Sender › Create',
	'address',
	'Phone Number',
	senderCreate({ address: BAD }),
	'+15550100100',
	PHONES,
);
add(
	'Sender › Create',
	'accountTier',
	'Account Tier',
	senderCreate({ accountTier: BAD }),
	1,
	WHOLE_AT_LEAST_1,
);
add(
	'Sender › Create',
	'dailyQuota',
	'Additional Fields › Daily Quota',
	senderCreate({ additionalFields: { dailyQuota: BAD } }),
	100,
	WHOLE_AT_LEAST_1,
);
add(
	'Sender › Get',
	'senderId',
	'Sender ID',
	{ resource: 'sender', operation: 'get', senderId: BAD },
	'snd_1',
	['..', '.', '', OBJECT, LIST, true],
);
add(
	'Message Template › Get Many',
	'senderId',
	'Sender ID',
	{ resource: 'messageTemplate', operation: 'getMany', senderId: BAD },
	'snd_1',
	[OBJECT, LIST, true],
);
add(
	'Message Template › Get Many',
	'no scope',
	'Sender ID or Business Account ID',
	{ resource: 'messageTemplate', operation: 'getMany', senderId: BAD },
	'snd_1',
	['', '  ', null],
);
add(
	'Message Template › Get Many',
	'bizAccountId',
	'Business Account ID',
	{ resource: 'messageTemplate', operation: 'getMany', bizAccountId: BAD },
	'biz_1',
	[OBJECT, LIST],
);
add(
	'List › Get',
	'simplify',
	'Simplify',
	{ resource: 'list', operation: 'get', listId: byId(1), simplify: BAD },
	true,
	['yes', 1, OBJECT, LIST],
);
add(
	'Message Template › Get Many',
	'limit',
	'Limit',
	{ resource: 'messageTemplate', operation: 'getMany', senderId: 'snd_1', limit: BAD },
	5,
	WHOLE_AT_LEAST_1,
);

// Message
const send = (extra: INodeParameters): INodeParameters => ({
	resource: 'message',
	operation: 'send',
	messageType: 'text',
	from: '+1 555 010 0100',
	to: '+33 6 12 34 56 78',
	text: 'Hi',
	...extra,
});
add('Message › Send', 'from', 'Sender Phone Number', send({ from: BAD }), '+15550100100', [
	'ACME',
	'0',
	'+0 555',
	'1234567890123456',
	'+1234',
	'123456',
	'',
	OBJECT,
	LIST,
	true,
]);
add('Message › Send', 'to', 'Recipient', send({ to: BAD }), '+33612345678', PHONES);
add('Message › Send', 'text', 'Text', send({ text: BAD }), 'Hi', [
	OBJECT,
	LIST,
	'',
	'   ',
	'x'.repeat(4097),
	'😀'.repeat(2049),
]);
add(
	'Message › Send',
	'media URL',
	'Media URL',
	send({ messageType: 'image', mediaUrl: BAD }),
	'https://example.com/a.png',
	URLS,
);
add(
	'Message › Send',
	'external ID',
	'Options › External ID',
	send({ options: { externalId: BAD } }),
	'ref1',
	['a-b', 'has space', OBJECT, LIST],
);
add(
	'Message › Send',
	'callbacks',
	'Options › Callback URLs',
	send({ options: { callbacks: BAD } }),
	'https://example.com/hook',
	['ftp://example.com/hook', 'javascript:alert(1)', 'https://ok.example, nope', OBJECT, LIST],
);
add(
	'Message › Send',
	'check media',
	'Options › Check Media Before Sending',
	send({ options: { checkMedia: BAD } }),
	false,
	['maybe', OBJECT],
);
const location = (extra: INodeParameters) =>
	send({ messageType: 'location', latitude: 48.85, longitude: 2.35, ...extra });
add('Message › Send', 'latitude', 'Latitude', location({ latitude: BAD }), 48.85, [
	91,
	-91,
	'north',
	OBJECT,
	LIST,
]);
add('Message › Send', 'longitude', 'Longitude', location({ longitude: BAD }), 2.35, [
	181,
	-181,
	'east',
	OBJECT,
]);
add('Message › Send', 'location name', 'Location Name', location({ locationName: BAD }), 'Shop', [
	OBJECT,
	LIST,
]);
const buttons = (button: INodeParameters, extra: INodeParameters = {}) =>
	send({ messageType: 'interactive', bodyText: 'Pick', buttons: { button: [button] }, ...extra });
add(
	'Message › Send',
	'button title',
	'Buttons › Title',
	buttons({ id: 'yes', title: BAD }),
	'Yes',
	[OBJECT, LIST, '', 'x'.repeat(21)],
);
add('Message › Send', 'button id', 'Buttons › ID', buttons({ id: BAD, title: 'Yes' }), 'yes', [
	OBJECT,
	LIST,
	'',
]);
add(
	'Message › Send',
	'body text',
	'Body Text',
	buttons({ id: 'yes', title: 'Yes' }, { bodyText: BAD }),
	'Pick',
	[OBJECT, LIST, ''],
);
const contacts = (contact: INodeParameters) =>
	send({
		messageType: 'contacts',
		contacts: { contact: [{ formattedName: 'Ada Lovelace', firstName: 'Ada', ...contact }] },
	});
add(
	'Message › Send',
	'formatted name',
	'Contacts › Formatted Name',
	contacts({ formattedName: BAD }),
	'Ada L',
	[OBJECT, LIST, ''],
);
add(
	'Message › Send',
	'birthday',
	'Contacts › Birthday',
	contacts({ birthday: BAD }),
	'1815-12-10',
	['2020-13-45', '10/12/1815', OBJECT],
);
add(
	'Message › Send',
	'contact email',
	'Contacts › Emails › Email',
	contacts({ emails: { email: [{ email: BAD, type: 'HOME' }] } }),
	'ada@example.com',
	['not-an-email', OBJECT, LIST],
);

// Blacklist
const blacklist = (operation: string, extra: INodeParameters): INodeParameters => ({
	resource: 'blacklist',
	operation,
	channel: 'SMS',
	from: 'ACME',
	to: '+33612345678',
	...extra,
});
for (const operation of ['add', 'check']) {
	add(
		`Blacklist › ${operation}`,
		'channel',
		'Channel',
		blacklist(operation, { channel: BAD }),
		'SMS',
		['FAX', OBJECT, ''],
	);
	add(
		`Blacklist › ${operation}`,
		'from',
		'Sender',
		blacklist(operation, { from: BAD }),
		'ACME',
		REQUIRED_TEXT,
	);
	// Chat App: the sender's number, digits only as Message › Send sends it (issue 39).
	add(
		`Blacklist › ${operation}`,
		'chat-app from',
		'Sender',
		blacklist(operation, { channel: 'CHATAPP', from: BAD }),
		'+33 6 12 34 56 78',
		['ACME', 'abc', '0', '+0 555', '1234', '1234567890123456'],
	);
	add(
		`Blacklist › ${operation}`,
		'to',
		'Recipient',
		blacklist(operation, { to: BAD }),
		'+33612345678',
		PHONES,
	);
	add(
		`Blacklist › ${operation}`,
		'e-mail to',
		'Recipient',
		blacklist(operation, { channel: 'EMAIL', to: BAD }),
		'ada@example.com',
		['not-an-email', '+33612345678', OBJECT, LIST],
	);
}
add(
	'Blacklist › add',
	'custom reason',
	'Other Reason',
	blacklist('add', { reason: 'custom', customReason: BAD }),
	'COMPLAINT',
	[OBJECT, LIST],
);
add(
	'Blacklist › add',
	'reason',
	'Reason',
	blacklist('add', { reason: 'custom', customReason: BAD }),
	'COMPLAINT',
	['', '  '],
);

const CSV = 'email,plan\na@x.io,free\n';
async function itemsFor(testCase: Case): Promise<INodeExecutionData[]> {
	const values = [testCase.good, testCase.good, testCase.value];
	const csv =
		testCase.parameters.operation === 'createFromCsv' || testCase.parameters.source === 'csv';
	return await Promise.all(
		values.map(async (bad, index) => {
			const json = { bad, id: `r${index}`, email: `m${index}@x.io` } as INodeExecutionData['json'];
			return csv
				? await binaryItem(json, 'data', Buffer.from(CSV), 'people.csv', 'text/csv')
				: { json };
		}),
	);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('bad input is refused before any request, naming item and field', () => {
	it('the table is large enough to mean something', () => {
		expect(cases.length).toBeGreaterThanOrEqual(200);
	});

	it.each(
		cases.map(
			(testCase) =>
				[
					testCase.operation,
					testCase.field,
					JSON.stringify(testCase.value)?.slice(0, 40) ?? 'undefined',
					testCase,
				] as const,
		),
	)('%s › %s = %s', async (_operation, _field, _shown, testCase) => {
		ctx.sandbox.seedList({ name: 'L', rows: [] });
		const result = await run(ctx.credentials, testCase.parameters, await itemsFor(testCase));
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toMatch(
			new RegExp(`^Invalid "${escape(testCase.label)}( #\\d+)?( › [^"]+)?" in item 2: `),
		);
		expect(result.error?.message).not.toMatch(
			/is not a function|Cannot read propert|undefined is not|\[object Object\]/,
		);
		expect((result.error as NodeOperationError & { description?: string }).description).toContain(
			'No item of this run was sent to the platform',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe("the run's wait budget for rate limits is read once, from item 0, before any request", () => {
	const withWait = (parameters: INodeParameters, wait: unknown): INodeParameters => ({
		...parameters,
		options: { ...((parameters.options as object) ?? {}), rateLimitWait: wait } as INodeParameters,
	});
	const operations: Array<[string, INodeParameters]> = [
		['Message › Send', send({})],
		['Subscriber › Add Many', addMany({})],
		[
			'Subscriber › Add Many (JSON)',
			addMany({ source: 'json', subscribers: '[{"email":"a@x.io"}]' }),
		],
		['Wallet Pass › Create', passes({})],
		[
			'List › Create From CSV',
			{ resource: 'list', operation: 'createFromCsv', name: 'I', binaryPropertyName: 'data' },
		],
		['Blacklist › Add', blacklist('add', {})],
		['Blacklist › Check', blacklist('check', {})],
	];
	it.each(
		operations.flatMap(([name, parameters]) =>
			[-1, 2.5, 'x', 86_401, OBJECT].map(
				(wait) => [name, JSON.stringify(wait), parameters, wait] as const,
			),
		),
	)('%s › Max Wait When Rate Limited = %s', async (_name, _shown, parameters, wait) => {
		ctx.sandbox.seedList({ name: 'L', rows: [] });
		const result = await run(
			ctx.credentials,
			withWait(parameters, wait),
			await itemsFor({
				operation: '',
				field: '',
				label: '',
				parameters,
				value: 'unused',
				good: 'unused',
			}),
		);
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toMatch(
			/^Invalid "Options › Max Wait When Rate Limited \(Seconds\)" in item 0: /,
		);
		expect((result.error as NodeOperationError & { description?: string }).description).toContain(
			'No item of this run was sent to the platform',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('with Continue On Fail, the bad item is set aside and the others are sent', () => {
	it('List › Get: items 0 and 1 sent, item 2 carries its field error, all paired', async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		const items = [
			{ json: { bad: String(list.id) } },
			{ json: { bad: String(list.id) } },
			{ json: { bad: '..' } },
		];
		const output = outputOf(
			await run(
				ctx.credentials,
				{ resource: 'list', operation: 'get', listId: { __rl: true, mode: 'id', value: BAD } },
				items,
				true,
			),
		);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[2].json.error).toBe(
			'Invalid "List" in item 2: a list ID is a whole number, for example 42',
		);
		expect(output[2].json.description).toContain('This item was not sent to the platform');
		expect(ctx.sandbox.requests).toHaveLength(2);
	});
});

describe('a file that is not a CSV', () => {
	const png = Buffer.from(
		'89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
		'hex',
	);
	it.each([
		[
			'List › Create From CSV',
			{ resource: 'list', operation: 'createFromCsv', name: 'I', binaryPropertyName: 'data' },
		],
		[
			'Subscriber › Add Many (CSV)',
			{
				resource: 'subscriber',
				operation: 'addMany',
				listId: byId(1),
				source: 'csv',
				binaryPropertyName: 'data',
			},
		],
	])('%s refuses a PNG in item 2 before uploading items 0 and 1', async (_name, parameters) => {
		ctx.sandbox.seedList({ name: 'L', rows: [] });
		const csv = Buffer.from('email\na@x.io\n');
		const items = [
			await binaryItem({}, 'data', csv, 'a.csv', 'text/csv'),
			await binaryItem({}, 'data', csv, 'b.csv', 'text/csv'),
			await binaryItem({}, 'data', png, 'photo.csv', 'text/csv'),
		];
		const result = await run(ctx.credentials, parameters as INodeParameters, items);
		expect(result.error?.message).toBe(
			'Invalid "Input Binary Field" in item 2: the file is not a CSV text file: it holds binary data (an image, a spreadsheet or an archive?)',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('Batch Size: a whole number in range, read once before any request', () => {
	const members = [0, 1, 2].map((i) => ({ json: { id: `r${i}`, email: `m${i}@x.io` } }));
	it.each([0, -1, 2.5, 'x', 10001, { n: 1 }])(
		'Add Many and Wallet Pass refuse %j',
		async (batchSize) => {
			ctx.sandbox.seedList({ name: 'L', rows: [] });
			for (const parameters of [
				{
					resource: 'subscriber',
					operation: 'addMany',
					listId: byId(1),
					source: 'items',
					options: { batchSize },
				},
				{
					resource: 'walletPass',
					operation: 'create',
					templateSerial: byId('tpl-gold-member'),
					recipientId: '={{ $json.id }}',
					options: { batchSize },
				},
			]) {
				const result = await run(ctx.credentials, parameters as INodeParameters, members);
				expect(result.error).toBeInstanceOf(NodeOperationError);
				expect(result.error?.message).toMatch(
					/^Invalid "Options › Batch Size" in item 0: (a whole number was expected|it must be at (least 1|most 10000))/,
				);
			}
			expect(ctx.sandbox.requests).toHaveLength(0);
		},
	);
});

describe('path parameters are always URL-encoded', () => {
	it.each<[string, INodeParameters, string]>([
		[
			'Subscriber ID',
			{ resource: 'subscriber', operation: 'delete', listId: byId(1), subscriberId: 'a/b?c#d %' },
			'/audience/v3/lists/1/subscribers/a%2Fb%3Fc%23d%20%25',
		],
		[
			'Sender ID',
			{ resource: 'sender', operation: 'get', senderId: 'snd/../1' },
			'/messaging/chatapp/senders/snd%2F..%2F1',
		],
		[
			'Template serial',
			{
				resource: 'walletPass',
				operation: 'create',
				templateSerial: byId('tpl/x?y'),
				recipientId: 'r1',
			},
			'/wallet/v2/wallet/templates/tpl%2Fx%3Fy/passes/batch',
		],
	])('%s', async (_name, parameters, path) => {
		ctx.sandbox.seedList({ name: 'L', rows: [] });
		await run(ctx.credentials, parameters);
		expect(ctx.sandbox.requests.map((r) => r.path)).toEqual([path]);
	});
});

describe('wallet pass recipients are unique per template, not per run', () => {
	it('the same recipient on two templates in one run makes two passes', async () => {
		const serials = ctx.sandbox
			.walletTemplates()
			.map((t) => t.serial)
			.slice(0, 2);
		const items = serials.map((serial) => ({ json: { serial } }));
		const output = outputOf(
			await run(
				ctx.credentials,
				{
					resource: 'walletPass',
					operation: 'create',
					templateSerial: { __rl: true, mode: 'id', value: '={{ $json.serial }}' },
					recipientId: 'ada@example.com',
				},
				items,
			),
		);
		expect(
			output.map((item) => [item.json.templateSerial, item.json.recipientId, typeof item.json.url]),
		).toEqual(serials.map((serial) => [serial, 'ada@example.com', 'string']));
		expect(ctx.sandbox.requests).toHaveLength(2);
	});
});

describe('the phone rule and empty column types, with the whole message', () => {
	it('a recipient of 4 digits is refused before any request, naming the field and the rule', async () => {
		const result = await run(ctx.credentials, blacklist('add', { to: '+1234' }));
		expect(result.error?.message).toBe(
			'Invalid "Recipient" in item 0: "+1234" has 4 digits; a phone number has 7 to 15 digits including the country code',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('a sender number of 4 digits is refused before any request', async () => {
		const result = await run(ctx.credentials, send({ from: '+1234' }));
		expect(result.error?.message).toMatch(
			/^Invalid "Sender Phone Number" in item 0: "\+?1234" has 4 digits; a phone number has 7 to 15 digits including the country code$/,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('an empty column Type is refused naming the column by its position, before any request', async () => {
		const columns = {
			column: [
				{ name: 'email', type: 'STRING' },
				{ name: 'plan', type: '={{ $json.type }}' },
			],
		};
		const result = await run(ctx.credentials, listCreate({ columns }), [{ json: { type: '' } }]);
		expect(result.error?.message).toBe(
			'Invalid "Columns › Type #2" in item 0: the type of the column "plan" is empty: pick String, Number, Boolean or Date, or have the expression give a type such as STRING',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('values written loosely are sent clean', () => {
	it('the shortest numbers in use (7 digits, Niue +683 4002) are accepted', async () => {
		outputOf(await run(ctx.credentials, blacklist('add', { to: '+683 4002' })));
		expect(ctx.sandbox.requests.map((request) => (request.body as { to: string }).to)).toEqual([
			'+6834002',
		]);
	});

	it('full-width and Arabic-Indic digits are sent as ASCII E.164', async () => {
		const items = ['＋３３　６１２３４５６７８', '+٣٣٦١٢٣٤٥٦٧٨'].map((to) => ({ json: { to } }));
		outputOf(await run(ctx.credentials, blacklist('check', { to: '={{ $json.to }}' }), items));
		expect(ctx.sandbox.requests.map((request) => request.query.to)).toEqual([
			'+33612345678',
			'+33612345678',
		]);
	});

	it('an e-mail with a line break or no-break spaces around it is sent trimmed', async () => {
		const items = ['ada@example.com\n', '\u00a0bob@example.com\r\n'].map((to) => ({
			json: { to },
		}));
		outputOf(
			await run(
				ctx.credentials,
				blacklist('add', { channel: 'EMAIL', to: '={{ $json.to }}' }),
				items,
			),
		);
		expect(ctx.sandbox.requests.map((request) => (request.body as { to: string }).to)).toEqual([
			'ada@example.com',
			'bob@example.com',
		]);
	});

	it("a subscriber's e-mail with a line break is sent trimmed (Add Many from items and List › Create rows)", async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
				[{ json: { email: 'ada@example.com\n' } }],
			),
		);
		outputOf(
			await run(ctx.credentials, listCreate({ rows: '[{"email": "bob@example.com\\r\\n"}]' })),
		);
		expect(ctx.sandbox.requests.map((request) => request.body)).toEqual([
			[{ email: 'ada@example.com' }],
			expect.objectContaining({ rows: [{ email: 'bob@example.com' }] }),
		]);
	});
});

describe('a bad value of 1 MB is quoted by its first 100 characters only', () => {
	// Issue 75: the whole value was quoted, so an error (shown, logged, stored) held the megabyte.
	const long = (start: string) => start.padEnd(1024 * 1024, 'x');
	const cut = (start: string) => `"${long(start).slice(0, 100)}…" (1048576 characters)`;
	it.each<[string, INodeParameters, string, string, string]>([
		[
			'Options › Quiet Hours › Recipient Time Zone',
			send({ options: { quietHours: { window: { timeZone: BAD } } } }),
			'Europe/Paris',
			'Europe/',
			`an IANA time zone name such as Europe/Paris was expected, got the string ${cut('Europe/')}`,
		],
		[
			'Recipient',
			send({ to: BAD }),
			'+33612345678',
			'+33 abc',
			`${cut('+33 abc')} is not a phone number: it contains letters`,
		],
		[
			'Options › Callback URLs',
			send({ options: { callbacks: BAD } }),
			'https://example.com/hook',
			'ftp://example.com/',
			`${cut('ftp://example.com/')} must start with http:// or https://`,
		],
	])('%s', async (label, parameters, good, start, problem) => {
		const items = [good, good, long(start)].map((bad) => ({ json: { bad } }));
		const result = await run(ctx.credentials, parameters, items);
		const error = result.error as NodeOperationError & { description?: string };
		expect(error.message).toBe(`Invalid "${label}" in item 2: ${problem}`);
		expect(error.message.length + (error.description?.length ?? 0)).toBeLessThan(600);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});
