import { startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
const auto = (name: string, flags: { required?: boolean; unique?: boolean }) => ({
	name,
	type: 'STRING',
	defaultValue: null,
	indexed: true,
	required: flags.required ?? false,
	unique: flags.unique ?? false,
	customConfiguration: null,
});

describe('POST /lists (JSON)', () => {
	it('creates a list with the automatic columns and the spec fields', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			json: { name: 'Newsletter', columns: [{ name: 'firstName', type: 'STRING' }], rows: [] },
		});
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.data).toEqual({
			id: 1,
			name: 'Newsletter',
			columns: [
				auto('id', { required: true, unique: true }),
				auto('email', { unique: true }),
				auto('mobile', { unique: true }),
				auto('devices', {}),
				auto('devices_type', {}),
				{
					name: 'firstName',
					type: 'STRING',
					defaultValue: null,
					indexed: false,
					required: false,
					unique: false,
					customConfiguration: null,
				},
			],
			userName: 'sandbox-user',
			size: 0,
			key: 'id',
			autoId: true,
			usesAutoColumns: true,
			caseSensitive: true,
			usesGeneratedData: false,
			trackLastActivity: false,
			lastUpdated: expect.stringMatching(LOCAL_DATE_TIME),
			createdAt: expect.stringMatching(LOCAL_DATE_TIME),
			status: 'OK',
			totalLines: 0,
			percentProcessed: 100,
			subscribersError: [],
		});
	});

	it('gives increasing integer ids', async () => {
		const ids = [];
		for (const name of ['a', 'b', 'c'])
			ids.push(
				(await call(sandbox, 'POST', '/lists', { json: { name, columns: [], rows: [] } })).body.data
					.id,
			);
		expect(ids).toEqual([1, 2, 3]);
	});

	it('lets a created column replace the automatic one in place', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			json: {
				name: 'L',
				columns: [
					{ name: 'city', type: 'string' },
					{ name: 'email', type: 'STRING', required: true, defaultValue: 'none@example.com' },
				],
				rows: [],
			},
		});
		const columns = res.body.data.columns;
		expect(columns.map((c: { name: string }) => c.name)).toEqual([
			'id',
			'email',
			'mobile',
			'devices',
			'devices_type',
			'city',
		]);
		expect(columns[1]).toEqual({
			name: 'email',
			type: 'STRING',
			defaultValue: 'none@example.com',
			indexed: false,
			required: true,
			unique: false,
			customConfiguration: null,
		});
		expect(columns[5].type).toBe('STRING');
	});

	it('marks autoId false when the id column is supplied', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			json: { name: 'L', columns: [{ name: 'id', type: 'STRING', required: true }], rows: [] },
		});
		expect(res.body.data.autoId).toBe(false);
	});

	it('imports the rows of the create call', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			json: { name: 'L', columns: [], rows: [{ email: 'a@x.io' }, { email: 'b@x.io', id: 'b' }] },
		});
		expect(res.body.data).toMatchObject({ size: 2, totalLines: 2, subscribersError: [] });
		expect(sandbox.getSubscriber(1, 'b')).toMatchObject({ id: 'b', email: 'b@x.io' });
	});

	it.each([
		['a non-object body', [], /JSON object/],
		['a missing name', { columns: [], rows: [] }, /^name is required/],
		['an empty name', { name: ' ', columns: [], rows: [] }, /^name is required/],
		['missing columns', { name: 'x', rows: [] }, /^columns is required/],
		[
			'a column without name',
			{ name: 'x', columns: [{ type: 'STRING' }], rows: [] },
			/^columns\[0\]\.name is required/,
		],
		[
			'a column without type',
			{ name: 'x', columns: [{ name: 'a' }], rows: [] },
			/^columns\[0\]\.type is required/,
		],
		[
			'an unknown type',
			{ name: 'x', columns: [{ name: 'a', type: 'TEXT' }], rows: [] },
			/type "TEXT" is not supported/,
		],
		[
			'a non-boolean flag',
			{ name: 'x', columns: [{ name: 'a', type: 'STRING', unique: 'yes' }], rows: [] },
			/unique must be a boolean/,
		],
		[
			'a repeated column',
			{
				name: 'x',
				columns: [
					{ name: 'a', type: 'STRING' },
					{ name: 'a', type: 'STRING' },
				],
				rows: [],
			},
			/defined twice/,
		],
		['missing rows', { name: 'x', columns: [] }, /^rows is required/],
	])('answers 400 for %s and creates nothing', async (_, json, message) => {
		const res = await call(sandbox, 'POST', '/lists', { json });
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({
			status: 400,
			code: 'VALIDATION_FAILED',
			message: expect.stringMatching(message),
		});
		expect(sandbox.allLists()).toEqual([]);
	});
});

describe('GET /lists/{listId}', () => {
	it('returns the list without the create-only subscribersError', async () => {
		const created = (
			await call(sandbox, 'POST', '/lists', {
				json: { name: 'L', columns: [], rows: [{ email: 'a@x.io' }] },
			})
		).body.data;
		const res = await call(sandbox, 'GET', '/lists/1');
		expect(res.status).toBe(200);
		expectMeta(res.body);
		const { subscribersError, ...list } = created;
		expect(subscribersError).toEqual([]);
		expect(res.body.data).toEqual(list);
		expect(sandbox.getList(1)).toEqual(list);
	});

	it('answers 404 naming the list', async () => {
		const res = await call(sandbox, 'GET', '/lists/42');
		expect(res.status).toBe(404);
		expect(res.body.error).toEqual({
			status: 404,
			code: 'LIST_NOT_FOUND',
			message: 'List 42 not found',
		});
	});

	it('answers 400 for a non-integer id', async () => {
		const res = await call(sandbox, 'GET', '/lists/abc');
		expect(res.status).toBe(400);
		expect(res.body.error).toMatchObject({
			code: 'INVALID_LIST_ID',
			message: 'listId must be a positive integer (got "abc")',
		});
	});
});

describe('DELETE /lists/{listId}', () => {
	it('deletes the list', async () => {
		await call(sandbox, 'POST', '/lists', { json: { name: 'L', columns: [], rows: [] } });
		const res = await call(sandbox, 'DELETE', '/lists/1');
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.data).toEqual({ id: 1, deleted: true });
		expect(sandbox.getList(1)).toBeUndefined();
		expect((await call(sandbox, 'GET', '/lists/1')).status).toBe(404);
	});

	it('answers 404 for an unknown list', async () => {
		const res = await call(sandbox, 'DELETE', '/lists/7');
		expect(res.status).toBe(404);
		expect(res.body.error.message).toBe('List 7 not found');
	});
});

describe('GET /lists (sandbox assumption)', () => {
	beforeEach(() => {
		for (const name of ['Alpha', 'beta', 'Gamma', 'alphabet']) sandbox.seedList({ name });
	});

	it('lists in creation order with pagination', async () => {
		const res = await call(sandbox, 'GET', '/lists');
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.items.map((l: { name: string }) => l.name)).toEqual([
			'Alpha',
			'beta',
			'Gamma',
			'alphabet',
		]);
		expect(res.body.items[0]).toMatchObject({
			id: 1,
			size: 0,
			createdAt: expect.any(String),
			columns: expect.any(Array),
		});
		expect(res.body.pagination).toEqual({ limit: 100, page: 1, pages: 1, total: 4 });
	});

	it('pages with limit and page', async () => {
		const res = await call(sandbox, 'GET', '/lists', { query: { limit: '3', page: '2' } });
		expect(res.body.items.map((l: { id: number }) => l.id)).toEqual([4]);
		expect(res.body.pagination).toEqual({ limit: 3, page: 2, pages: 2, total: 4 });
	});

	it('filters by a case-insensitive name substring', async () => {
		const res = await call(sandbox, 'GET', '/lists', { query: { name: 'ALPHA' } });
		expect(res.body.items.map((l: { name: string }) => l.name)).toEqual(['Alpha', 'alphabet']);
		expect(res.body.pagination.total).toBe(2);
	});

	it.each([
		['limit', '0'],
		['limit', '1001'],
		['page', '0'],
		['page', 'x'],
	])('answers 400 for %s=%s', async (name, value) => {
		const res = await call(sandbox, 'GET', '/lists', { query: { [name]: value } });
		expect(res.status).toBe(400);
		expect(res.body.error.message).toMatch(
			new RegExp(`^Query parameter ${name} must be an integer`),
		);
	});
});
