import { NodeApiError } from 'n8n-workflow';

import { binaryItem, callListSearch } from '../helpers/n8n';
import {
	API_KEY,
	byId,
	credentialsFor,
	expectNoKey,
	node,
	outputOf,
	run,
	useSandbox,
} from './context';

const ctx = useSandbox();

describe('List > Create', () => {
	it('sends the JSON body of POST /lists and outputs the new list', async () => {
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'create',
			name: 'Newsletter',
			columns: {
				column: [
					{ name: 'email', type: 'STRING', unique: true, required: true, defaultValue: '' },
					{ name: 'plan', type: 'STRING', unique: false, required: false, defaultValue: 'free' },
				],
			},
			rows: '[{"email":"ada@example.com"},{"email":"alan@example.com","plan":"pro"}]',
			simplify: false,
		});
		const [item] = outputOf(result);
		expect(ctx.sandbox.requests).toHaveLength(1);
		const request = ctx.sandbox.requests[0];
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/audience/v3/lists');
		expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(request.headers.accept).toBe('application/json');
		expect(request.contentType).toBe('application/json');
		expect(request.body).toEqual({
			name: 'Newsletter',
			columns: [
				{ name: 'email', type: 'STRING', unique: true, required: true },
				{ name: 'plan', type: 'STRING', unique: false, required: false, defaultValue: 'free' },
			],
			rows: [{ email: 'ada@example.com' }, { email: 'alan@example.com', plan: 'pro' }],
		});
		expect(item.json).toMatchObject({
			id: 1,
			name: 'Newsletter',
			size: 2,
			status: 'OK',
			percentProcessed: 100,
		});
		const columns = (
			item.json.columns as Array<{ name: string; required: boolean; defaultValue: unknown }>
		).map((c) => c.name);
		expect(columns).toEqual(
			expect.arrayContaining(['id', 'email', 'mobile', 'devices', 'devices_type', 'plan']),
		);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(ctx.sandbox.listSubscribers(1)?.map((s) => s.plan)).toEqual(['free', 'pro']);
		expectNoKey(result);
	});

	it('simplifies the new list by default: the fields a workflow goes on with, column names only', async () => {
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'create',
			name: 'Newsletter',
			columns: { column: [{ name: 'plan', type: 'STRING' }] },
			rows: '[{"plan":"pro"}]',
		});
		const [item] = outputOf(result);
		const list = ctx.sandbox.getList(1)!;
		expect(item.json).toEqual({
			id: 1,
			name: 'Newsletter',
			key: list.key,
			status: 'OK',
			size: 1,
			totalLines: 1,
			percentProcessed: 100,
			createdAt: list.createdAt,
			lastUpdated: list.lastUpdated,
			columns: ['id', 'email', 'mobile', 'devices', 'devices_type', 'plan'],
		});
		expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('refuses a column without a name, naming the item and the field, and sends nothing', async () => {
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'create',
			name: 'Broken',
			columns: {
				column: [
					{ name: 'email', type: 'STRING' },
					{ name: ' ', type: 'STRING' },
				],
			},
			rows: '[]',
		});
		expect(result.error?.message).toBe(
			'Invalid "Columns › Name #2" in item 0: every column needs a name',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('refuses rows that are not JSON objects', async () => {
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'create',
			name: 'Broken',
			rows: '[1]',
		});
		expect(result.error?.message).toBe(
			'Invalid "Rows (JSON) #1" in item 0: each subscriber must be an object keyed by column name',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('List > Create From CSV', () => {
	const csv = 'email,age,vip\nada@example.com,36,true\nalan@example.com,41,false\n';

	it('streams the CSV as the multipart part csvFile with the options as query', async () => {
		const item = await binaryItem({}, 'data', Buffer.from(csv), 'people.csv', 'text/csv');
		const result = await run(
			ctx.credentials,
			{
				resource: 'list',
				operation: 'createFromCsv',
				name: 'Imported',
				binaryPropertyName: 'data',
				simplify: false,
				options: { key: 'email', caseSensitive: true, trackLastActivity: false },
			},
			[item],
		);
		const [output] = outputOf(result);
		const request = ctx.sandbox.requests[0];
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/audience/v3/lists');
		expect(request.query).toEqual({
			name: 'Imported',
			key: 'email',
			caseSensitive: 'true',
			trackLastActivity: 'false',
		});
		expect(request.contentType).toBe('multipart/form-data');
		expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(request.parts).toEqual([
			{
				name: 'csvFile',
				filename: 'people.csv',
				contentType: 'text/csv',
				size: csv.length,
				text: csv,
			},
		]);
		expect(output.json).toMatchObject({ name: 'Imported', size: 2, totalLines: 2, key: 'email' });
		const types = Object.fromEntries(
			(output.json.columns as Array<{ name: string; type: string }>).map((c) => [c.name, c.type]),
		);
		expect(types).toMatchObject({ email: 'STRING', age: 'NUMBER', vip: 'BOOLEAN' });
		expect(output.pairedItem).toEqual({ item: 0 });
	});

	it('refuses a CSV over 200 MB before any upload', async () => {
		const big = Buffer.alloc(200 * 1024 * 1024 + 10, 'a');
		big.write('email\n');
		const item = await binaryItem({}, 'data', big, 'huge.csv', 'text/csv');
		const result = await run(
			ctx.credentials,
			{ resource: 'list', operation: 'createFromCsv', name: 'Huge', binaryPropertyName: 'data' },
			[item],
		);
		expect(result.error?.message).toMatch(
			/^Invalid "Input Binary Field" in item 0: the CSV file is 200\.0 MB; the platform accepts at most 200 MB/,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	}, 60_000);

	it('names the missing binary field', async () => {
		const result = await run(
			ctx.credentials,
			{ resource: 'list', operation: 'createFromCsv', name: 'X', binaryPropertyName: 'file' },
			[{ json: {} }],
		);
		expect(result.error?.message).toBe(
			'Invalid "Input Binary Field" in item 0: the input item has no binary property "file" (it has no binary data)',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('with Continue On Fail, a bad item yields its error and the good one is still imported', async () => {
		const good = await binaryItem({}, 'data', Buffer.from(csv), 'people.csv', 'text/csv');
		const bad = await binaryItem(
			{},
			'data',
			Buffer.from('email,,x\n1,2,3\n'),
			'bad.csv',
			'text/csv',
		);
		const result = await run(
			ctx.credentials,
			{
				resource: 'list',
				operation: 'createFromCsv',
				name: 'Imported',
				binaryPropertyName: 'data',
			},
			[bad, good],
			true,
		);
		const items = outputOf(result);
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBe(
			'Invalid "Input Binary Field" in item 0: column 2 of the CSV header has no name',
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json).toMatchObject({ name: 'Imported', size: 2 });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(ctx.sandbox.requests).toHaveLength(1);
	});
});

describe('List > Get and Delete', () => {
	it('gets a list by ID and by the list picker', async () => {
		const list = ctx.sandbox.seedList({ name: 'Seeded', rows: [{ email: 'a@b.c' }] });
		for (const listId of [
			byId(list.id),
			{ __rl: true, mode: 'list', value: String(list.id), cachedResultName: 'Seeded' },
		]) {
			ctx.sandbox.clearRequests();
			const [item] = outputOf(
				await run(ctx.credentials, { resource: 'list', operation: 'get', listId }),
			);
			expect(ctx.sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
				`GET /audience/v3/lists/${list.id}`,
			]);
			expect(item.json).toMatchObject({ id: list.id, name: 'Seeded', size: 1 });
		}
	});

	it('outputs the whole answer with Simplify off, and the simplified list with it on, per item', async () => {
		const list = ctx.sandbox.seedList({
			name: 'Seeded',
			columns: [{ name: 'plan', type: 'STRING', defaultValue: 'free' }],
		});
		const items = [{ json: { simplify: false } }, { json: { simplify: true } }];
		const [raw, simple] = outputOf(
			await run(
				ctx.credentials,
				{
					resource: 'list',
					operation: 'get',
					listId: byId(list.id),
					simplify: '={{ $json.simplify }}',
				},
				items,
			),
		);
		expect(raw.json.columns).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ name: 'plan', type: 'STRING', defaultValue: 'free' }),
			]),
		);
		expect(raw.json).toHaveProperty('userName');
		expect(simple.json.columns).toEqual([
			'id',
			'email',
			'mobile',
			'devices',
			'devices_type',
			'plan',
		]);
		expect(simple.json).not.toHaveProperty('userName');
		expect(simple.json).toMatchObject({ id: list.id, name: 'Seeded' });
		expect([raw.pairedItem, simple.pairedItem]).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('fails with a NodeApiError 404 naming an unknown list', async () => {
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'get',
			listId: byId(4242),
		});
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(result.error?.message).toContain('4242');
		expect(result.error?.message).toContain('[HTTP 404]');
	});

	it('refuses a list ID that is not a number before sending', async () => {
		// An expression escapes the editor's own check of the By ID field, so the node checks again.
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'get',
			listId: byId('={{ "abc" }}'),
		});
		expect(result.error?.message).toBe(
			'Invalid "List" in item 0: a list ID is a whole number, for example 42',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('deletes a list and confirms it', async () => {
		const list = ctx.sandbox.seedList({ name: 'Doomed' });
		const [item] = outputOf(
			await run(ctx.credentials, { resource: 'list', operation: 'delete', listId: byId(list.id) }),
		);
		expect(ctx.sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`DELETE /audience/v3/lists/${list.id}`,
		]);
		expect(item.json).toMatchObject({ listId: String(list.id), deleted: true });
		expect(ctx.sandbox.getList(list.id)).toBeUndefined();
	});

	it('with Continue On Fail, every item yields one output item paired to it', async () => {
		const list = ctx.sandbox.seedList({ name: 'Kept' });
		const result = await run(
			ctx.credentials,
			{
				resource: 'list',
				operation: 'get',
				listId: { __rl: true, mode: 'id', value: '={{ $json.listId }}' },
			},
			[{ json: { listId: list.id } }, { json: { listId: 999 } }, { json: { listId: list.id } }],
			true,
		);
		const items = outputOf(result);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json.name).toBe('Kept');
		expect(String(items[1].json.error)).toContain('999');
		expect(items[2].json.name).toBe('Kept');
	});
});

describe('wrong API key', () => {
	it('fails an operation with a NodeApiError carrying 401, without the key anywhere', async () => {
		const wrong = credentialsFor(ctx.sandbox, 'not-the-key');
		const result = await run(wrong, { resource: 'list', operation: 'get', listId: byId(1) });
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect((result.error as NodeApiError).httpCode).toBe('401');
		expect(result.error?.message).toContain('[HTTP 401]');
		expectNoKey(result);
	});
});

describe('unreachable platform', () => {
	it('fails with a NodeApiError naming the URL, without the key', async () => {
		const down = {
			...ctx.credentials,
			data: { ...ctx.credentials.data, listsBaseUrl: 'http://127.0.0.1:9/v3' },
		};
		const result = await run(down, { resource: 'list', operation: 'get', listId: byId(1) });
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error?.message).toBe(
			'Could not reach the platform at http://127.0.0.1:9/v3/lists/1',
		);
		expect((result.error as NodeApiError).description).toContain(
			'Check the Lists Base URL in the credential',
		);
		expectNoKey(result);
	});
});

describe('a base URL that is not the API (the credential test checks only the wallet one)', () => {
	it("names the credential's Lists Base URL when the list endpoint answers 404", async () => {
		const wrong = {
			...ctx.credentials,
			data: { ...ctx.credentials.data, listsBaseUrl: `${ctx.sandbox.url}/audience` },
		};
		const result = await run(wrong, { resource: 'list', operation: 'get', listId: byId(1) });
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect((result.error as NodeApiError).description).toContain(
			'Check the ID, and the Lists Base URL in the credential.',
		);
	});

	it("names the credential's Messaging Base URL for a chat-app request", async () => {
		const wrong = {
			...ctx.credentials,
			data: { ...ctx.credentials.data, baseUrl: `${ctx.sandbox.url}/not-messaging` },
		};
		const result = await run(wrong, { resource: 'sender', operation: 'get', senderId: 'abc' });
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect((result.error as NodeApiError).description).toContain(
			'the Messaging Base URL in the credential.',
		);
	});
});

describe('list picker', () => {
	it('searches the account lists by name', async () => {
		ctx.sandbox.seedList({ name: 'Customers EU' });
		ctx.sandbox.seedList({ name: 'Prospects' });
		ctx.sandbox.seedList({ name: 'Customers US' });
		const result = await callListSearch(node, 'searchLists', ctx.credentials, 'customers');
		expect(result.results).toEqual([
			{ name: 'Customers EU (#1)', value: '1' },
			{ name: 'Customers US (#3)', value: '3' },
		]);
		expect(ctx.sandbox.requests[0]).toMatchObject({
			method: 'GET',
			path: '/audience/v3/lists',
			query: { name: 'customers', page: '1', limit: '100' },
		});
	});
});
