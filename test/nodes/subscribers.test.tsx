import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NodeApiError } from 'n8n-workflow';

import { binaryItem } from '../helpers/n8n';
import { API_KEY, byId, credentialsFor, expectNoKey, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

const emailList = () =>
	ctx.sandbox.seedList({
		name: 'Members',
		columns: [
			{ name: 'email', type: 'STRING', unique: true, required: true },
			{ name: 'plan', type: 'STRING', defaultValue: 'free' },
		],
	});

describe('Subscriber > Add Many, each input item is a subscriber', () => {
	it('sends all items in as few bulk requests as the batch size allows and reports each item', async () => {
		const list = emailList();
		const items = ['a', 'b', 'c', 'd', 'e'].map((name) => ({
			json: { email: `${name}@example.com`, plan: 'pro' },
		}));
		items[3].json.email = 'b@example.com'; // repeats a unique value
		const result = await run(
			ctx.credentials,
			{
				resource: 'subscriber',
				operation: 'addMany',
				listId: byId(list.id),
				source: 'items',
				options: { batchSize: 2 },
			},
			items,
		);
		const output = outputOf(result);
		expect(ctx.sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
			Array(3).fill(`POST /audience/v3/lists/${list.id}/subscribers/bulk`),
		);
		expect(ctx.sandbox.requests.map((r) => r.body)).toEqual([
			[items[0].json, items[1].json],
			[items[2].json, items[3].json],
			[items[4].json],
		]);
		expect(ctx.sandbox.requests.map((r) => r.headers.authorization)).toEqual(
			Array(3).fill(`Bearer ${API_KEY}`),
		);
		// n8n loads and decrypts a credential on every read: the run reads it once for its three
		// requests.
		expect(result.credentialReads).toBe(1);
		expect(ctx.sandbox.requests[0].contentType).toBe('application/json');
		expect(output.map((i) => i.json.status)).toEqual([
			'added',
			'added',
			'added',
			'failed',
			'added',
		]);
		expect(output.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(output[3].json).toMatchObject({
			listId: String(list.id),
			subscriber: { email: 'b@example.com', plan: 'pro' },
			error: { column: 'email' },
		});
		expect(String((output[3].json.error as { message: string }).message)).toContain(
			'b@example.com',
		);
		expect(ctx.sandbox.listSubscribers(list.id)).toHaveLength(4);
		// docs/operations.md's example of an added and a failed item names the fields they have.
		const block = /With Each Input Item Is a Subscriber[^`]*```json\n([^`]*)```/.exec(
			readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8'),
		)?.[1];
		const [added, failed] = (block ?? '')
			.split(/\n(?=\{)/)
			.map((text) => JSON.parse(text.replace(/\{ … \}/g, '{}')) as Record<string, object>);
		const keys = (value: object) => Object.keys(value).sort();
		expect([added.status, failed.status]).toEqual(['added', 'failed']);
		expect(keys(output[0].json)).toEqual(keys(added));
		expect(keys(output[3].json)).toEqual(keys(failed));
		expect(keys(output[3].json.error as object)).toEqual(keys(failed.error));
	});

	it('reports a row missing a required column as failed and imports the others', async () => {
		const list = emailList();
		const result = await run(
			ctx.credentials,
			{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
			[
				{ json: { email: 'x@example.com' } },
				{ json: { plan: 'pro' } },
				{ json: { email: 'y@example.com' } },
			],
		);
		const output = outputOf(result);
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(output.map((i) => i.json.status)).toEqual(['added', 'failed', 'added']);
		expect(output[1].json.error).toMatchObject({ column: 'email' });
		expect(ctx.sandbox.listSubscribers(list.id)?.map((s) => s.email)).toEqual([
			'x@example.com',
			'y@example.com',
		]);
	});

	it('tells updated rows (carrying an existing id) from added ones', async () => {
		const list = emailList();
		outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
				[{ json: { id: 'm1', email: 'old@example.com' } }],
			),
		);
		ctx.sandbox.clearRequests();
		const output = outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
				[
					{ json: { id: 'm1', email: 'new@example.com' } },
					{ json: { email: 'other@example.com' } },
				],
			),
		);
		expect(output.map((i) => i.json.status)).toEqual(['updated', 'added']);
		expect(ctx.sandbox.getSubscriber(list.id, 'm1')?.email).toBe('new@example.com');
	});

	it('matches an error naming a row by its key to that row, with the Key Column option', async () => {
		const list = emailList();
		// A platform naming failed rows by their key (here the e-mail), not by position.
		const answer = (
			subscribersError: unknown[],
			subscriberAdded: number,
			subscriberUpdated: number,
		) =>
			ctx.sandbox.addFault({
				kind: 'status',
				method: 'POST',
				path: `/lists/${list.id}/subscribers/bulk`,
				status: 200,
				times: 1,
				body: { meta: {}, data: { subscriberAdded, subscriberUpdated, subscribersError } },
			});
		const items = ['a', 'b', 'c'].map((name) => ({ json: { email: `${name}@example.com` } }));
		const parameters = {
			resource: 'subscriber',
			operation: 'addMany',
			listId: byId(list.id),
			source: 'items',
			options: { keyColumn: 'email' },
		};
		answer([{ id: 'b@example.com', message: 'mobile is not a phone number' }], 2, 0);
		const output = outputOf(await run(ctx.credentials, parameters, items));
		expect(output.map((i) => i.json.status)).toEqual(['added', 'failed', 'added']);
		expect(output[1].json.error).toMatchObject({ message: 'mobile is not a phone number' });
		expect(output[0].json.unmatchedErrors).toBeUndefined();
	});

	it('matches an error giving a 1-based row number and the e-mail to its row; the other rows are added', async () => {
		const list = emailList();
		// A platform numbering rows from 1, not from 0 as the sandbox does.
		ctx.sandbox.addFault({
			kind: 'status',
			method: 'POST',
			path: `/lists/${list.id}/subscribers/bulk`,
			status: 200,
			times: 1,
			body: {
				meta: {},
				data: {
					subscriberAdded: 4,
					subscriberUpdated: 0,
					subscribersError: [
						{ rowNumber: 4, email: 'd@example.com', message: 'email already exists' },
					],
				},
			},
		});
		const items = ['a', 'b', 'c', 'd', 'e'].map((name) => ({
			json: { email: `${name}@example.com` },
		}));
		const output = outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
				items,
			),
		);
		expect(output.map((i) => i.json.status)).toEqual([
			'added',
			'added',
			'added',
			'failed',
			'added',
		]);
		expect(output[3].json.error).toMatchObject({ message: 'email already exists' });
		expect(output[0].json.batchErrors).toBeUndefined();
	});

	it('sends only the chosen columns', async () => {
		const list = emailList();
		outputOf(
			await run(
				ctx.credentials,
				{
					resource: 'subscriber',
					operation: 'addMany',
					listId: byId(list.id),
					source: 'items',
					columnsToSend: 'email, plan',
				},
				[{ json: { email: 'a@example.com', plan: 'pro', internalNote: 'do not send' } }],
			),
		);
		expect(ctx.sandbox.requests[0].body).toEqual([{ email: 'a@example.com', plan: 'pro' }]);
	});

	it('refuses an item holding a nested object before any request, naming the item and the field', async () => {
		const list = emailList();
		const result = await run(
			ctx.credentials,
			{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
			[
				{ json: { email: 'a@example.com' } },
				{ json: { email: 'b@example.com', address: { city: 'Paris' } } },
			],
		);
		expect(result.error?.message).toMatch(
			/^Invalid "address" in item 1: it holds an object or a list/,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('with Continue On Fail, the bad item yields its error and the rest go out in one request', async () => {
		const list = emailList();
		const output = outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
				[
					{ json: { email: 'a@example.com' } },
					{ json: { tags: ['x'] } },
					{ json: { email: 'c@example.com' } },
				],
				true,
			),
		);
		expect(output).toHaveLength(3);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json.error).toMatch(/^Invalid "tags" in item 1/);
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(ctx.sandbox.requests[0].body).toEqual([
			{ email: 'a@example.com' },
			{ email: 'c@example.com' },
		]);
	});

	it('an unknown list fails with 404; with Continue On Fail every item carries that error', async () => {
		const items = [{ json: { email: 'a@example.com' } }, { json: { email: 'b@example.com' } }];
		const failed = await run(
			ctx.credentials,
			{ resource: 'subscriber', operation: 'addMany', listId: byId(77), source: 'items' },
			items,
		);
		expect(failed.error).toBeInstanceOf(NodeApiError);
		expect((failed.error as NodeApiError).httpCode).toBe('404');
		expect(failed.error?.message).toContain('77');
		const continued = outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(77), source: 'items' },
				items,
				true,
			),
		);
		expect(continued.map((i) => [i.json.httpCode, i.pairedItem])).toEqual([
			['404', { item: 0 }],
			['404', { item: 1 }],
		]);
	});

	it('a wrong key fails with 401 and the key appears nowhere', async () => {
		const list = emailList();
		const result = await run(
			credentialsFor(ctx.sandbox, 'wrong-key'),
			{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
			[{ json: { email: 'a@example.com' } }],
		);
		expect((result.error as NodeApiError).httpCode).toBe('401');
		expectNoKey(result);
	});
});

describe('Subscriber > Add Many from JSON and CSV', () => {
	it('sends the JSON array of each item and outputs the platform summary', async () => {
		const list = emailList();
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'subscriber',
				operation: 'addMany',
				listId: byId(list.id),
				source: 'json',
				subscribers: '[{"email":"a@example.com"},{"email":"a@example.com"}]',
			}),
		);
		expect(ctx.sandbox.requests[0].body).toEqual([
			{ email: 'a@example.com' },
			{ email: 'a@example.com' },
		]);
		expect(output[0].json).toMatchObject({
			listId: String(list.id),
			subscriberAdded: 1,
			subscriberUpdated: 0,
		});
		expect(output[0].json.subscribersError).toHaveLength(1);
	});

	it('refuses invalid JSON, naming the field', async () => {
		const list = emailList();
		const result = await run(ctx.credentials, {
			resource: 'subscriber',
			operation: 'addMany',
			listId: byId(list.id),
			source: 'json',
			subscribers: '[{"email":',
		});
		expect(result.error?.message).toMatch(
			/^Invalid "Subscribers \(JSON\)" in item 0: it is not valid JSON/,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('uploads a CSV binary as the multipart part csvFile', async () => {
		const list = emailList();
		const csv = 'email,plan\nc@example.com,pro\nd@example.com,\n';
		const item = await binaryItem({}, 'data', Buffer.from(csv), 'members.csv', 'text/csv');
		const output = outputOf(
			await run(
				ctx.credentials,
				{
					resource: 'subscriber',
					operation: 'addMany',
					listId: byId(list.id),
					source: 'csv',
					binaryPropertyName: 'data',
				},
				[item],
			),
		);
		expect(ctx.sandbox.requests[0]).toMatchObject({
			method: 'POST',
			path: `/audience/v3/lists/${list.id}/subscribers/bulk`,
			contentType: 'multipart/form-data',
		});
		expect(ctx.sandbox.requests[0].parts).toEqual([
			{
				name: 'csvFile',
				filename: 'members.csv',
				contentType: 'text/csv',
				size: csv.length,
				text: csv,
			},
		]);
		expect(output[0].json).toMatchObject({
			subscriberAdded: 2,
			subscriberUpdated: 0,
			subscribersError: [],
		});
		expect(ctx.sandbox.listSubscribers(list.id)?.map((s) => [s.email, s.plan])).toEqual([
			['c@example.com', 'pro'],
			['d@example.com', 'free'],
		]);
	});
});

describe('Subscriber > Get Many', () => {
	const seeded = (count: number) =>
		ctx.sandbox.seedList({
			name: 'Big',
			rows: Array.from({ length: count }, (_, i) => ({ email: `user${i}@example.com` })),
		});

	it('Return All walks every page', async () => {
		const list = seeded(2500);
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'subscriber',
				operation: 'getMany',
				listId: byId(list.id),
				returnAll: true,
			}),
		);
		expect(output).toHaveLength(2500);
		expect(output[2499].json.email).toBe('user2499@example.com');
		expect(ctx.sandbox.requests.map((r) => r.query)).toEqual([
			{ page: '1', limit: '1000' },
			{ page: '2', limit: '1000' },
			{ page: '3', limit: '1000' },
		]);
		expect(
			output.every((i) => typeof i.json.id === 'string' || typeof i.json.id === 'number'),
		).toBe(true);
	});

	it('Limit fetches only what it needs', async () => {
		const list = seeded(30);
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'subscriber',
				operation: 'getMany',
				listId: byId(list.id),
				returnAll: false,
				limit: 5,
			}),
		);
		expect(output.map((i) => i.json.email)).toEqual(
			['user0', 'user1', 'user2', 'user3', 'user4'].map((u) => `${u}@example.com`),
		);
		expect(
			ctx.sandbox.requests.map(
				(r) => `${r.method} ${r.path}?page=${String(r.query.page)}&limit=${String(r.query.limit)}`,
			),
		).toEqual([`GET /audience/v3/lists/${list.id}/subscribers?page=1&limit=5`]);
	});
});

describe('Subscriber > Delete', () => {
	it('deletes one subscriber and confirms it', async () => {
		const list = ctx.sandbox.seedList({
			name: 'L',
			rows: [
				{ id: 'sub-1', email: 'a@example.com' },
				{ id: 'sub-2', email: 'b@example.com' },
			],
		});
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'subscriber',
				operation: 'delete',
				listId: byId(list.id),
				subscriberId: 'sub-1',
			}),
		);
		expect(ctx.sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`DELETE /audience/v3/lists/${list.id}/subscribers/sub-1`,
		]);
		expect(output[0].json).toMatchObject({
			listId: String(list.id),
			subscriberId: 'sub-1',
			deleted: true,
		});
		expect(ctx.sandbox.listSubscribers(list.id)?.map((s) => s.id)).toEqual(['sub-2']);
	});

	it('an unknown subscriber fails with 404', async () => {
		const list = ctx.sandbox.seedList({ name: 'L' });
		const result = await run(ctx.credentials, {
			resource: 'subscriber',
			operation: 'delete',
			listId: byId(list.id),
			subscriberId: 'ghost',
		});
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(result.error?.message).toContain('ghost');
	});
});

describe('Subscriber > Delete, bad input', () => {
	it('refuses an empty subscriber ID before sending', async () => {
		const list = ctx.sandbox.seedList({ name: 'L' });
		const result = await run(ctx.credentials, {
			resource: 'subscriber',
			operation: 'delete',
			listId: byId(list.id),
			subscriberId: '={{ "" }}',
		});
		expect(result.error?.message).toBe(
			'Invalid "Subscriber ID" in item 0: a subscriber ID is required',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});
