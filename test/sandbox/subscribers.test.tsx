import { startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const bulk = (listId: number, rows: unknown) =>
	call(sandbox, 'POST', `/lists/${listId}/subscribers/bulk`, { json: rows });

describe('row import rules', () => {
	beforeEach(() => {
		sandbox.seedList({
			name: 'Members',
			columns: [
				{ name: 'firstName', type: 'STRING', required: true },
				{ name: 'code', type: 'STRING', unique: true },
				{ name: 'country', type: 'STRING', defaultValue: 'FR' },
			],
		});
	});

	it('imports valid rows and reports each failing row', async () => {
		const res = await bulk(1, [
			{ firstName: 'Ann', email: 'ann@x.io', code: 'A1' },
			{ email: 'nofirst@x.io' },
			{ firstName: 'Dup', email: 'ann@x.io' },
			{ firstName: 'Dup2', code: 'A1' },
			{ firstName: 'Bob', country: 'DE', mobile: '+4915112345678' },
			{ firstName: 'Eve', shoeSize: 42 },
			'not an object',
		]);
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.data).toEqual({
			subscriberUpdated: 0,
			subscriberAdded: 2,
			subscribersError: [
				{
					index: 1,
					column: 'firstName',
					code: 'REQUIRED_VALUE_MISSING',
					message: 'Row 2: column "firstName" is required',
					row: { email: 'nofirst@x.io' },
				},
				{
					index: 2,
					column: 'email',
					code: 'UNIQUE_VALUE_DUPLICATED',
					message: 'Row 3: column "email" value "ann@x.io" already exists',
					row: { firstName: 'Dup', email: 'ann@x.io' },
				},
				{
					index: 3,
					column: 'code',
					code: 'UNIQUE_VALUE_DUPLICATED',
					message: 'Row 4: column "code" value "A1" already exists',
					row: { firstName: 'Dup2', code: 'A1' },
				},
				{
					index: 5,
					column: 'shoeSize',
					code: 'UNKNOWN_COLUMN',
					message: 'Row 6: column "shoeSize" does not exist in list 1',
					row: { firstName: 'Eve', shoeSize: 42 },
				},
				{
					index: 6,
					code: 'INVALID_ROW',
					message: 'Row 7: expected an object keyed by column name',
					row: 'not an object',
				},
			],
		});
		const subscribers = sandbox.listSubscribers(1) ?? [];
		expect(subscribers).toEqual([
			{
				id: expect.any(String),
				email: 'ann@x.io',
				mobile: null,
				devices: null,
				devices_type: null,
				firstName: 'Ann',
				code: 'A1',
				country: 'FR',
			},
			{
				id: expect.any(String),
				email: null,
				mobile: '+4915112345678',
				devices: null,
				devices_type: null,
				firstName: 'Bob',
				code: null,
				country: 'DE',
			},
		]);
		expect(subscribers[0].id).not.toBe(subscribers[1].id);
		expect(sandbox.getList(1)).toMatchObject({ size: 2, totalLines: 2 });
	});

	it('rejects a unique value repeated later in the same request', async () => {
		const res = await bulk(1, [
			{ firstName: 'A', mobile: '+331' },
			{ firstName: 'B', mobile: '+331' },
		]);
		expect(res.body.data.subscriberAdded).toBe(1);
		expect(res.body.data.subscribersError).toEqual([
			expect.objectContaining({ index: 1, column: 'mobile', code: 'UNIQUE_VALUE_DUPLICATED' }),
		]);
	});

	it('treats null and empty string as missing values', async () => {
		const res = await bulk(1, [{ firstName: 'A', email: '', country: null }]);
		expect(res.body.data.subscriberAdded).toBe(1);
		expect(sandbox.listSubscribers(1)?.[0]).toMatchObject({ email: null, country: 'FR' });
	});

	it('updates a subscriber matched by id, merging values', async () => {
		await bulk(1, [{ id: 's1', firstName: 'Ann', code: 'A1' }]);
		const res = await bulk(1, [
			{ id: 's1', email: 'ann@x.io' },
			{ id: 's2', firstName: 'Bob' },
		]);
		expect(res.body.data).toEqual({
			subscriberUpdated: 1,
			subscriberAdded: 1,
			subscribersError: [],
		});
		expect(sandbox.getSubscriber(1, 's1')).toMatchObject({
			id: 's1',
			firstName: 'Ann',
			code: 'A1',
			email: 'ann@x.io',
			country: 'FR',
		});
	});

	it("refuses an update that takes another subscriber's unique value", async () => {
		await bulk(1, [
			{ id: 's1', firstName: 'Ann', code: 'A1' },
			{ id: 's2', firstName: 'Bob', code: 'B1' },
		]);
		const res = await bulk(1, [{ id: 's2', code: 'A1' }]);
		expect(res.body.data.subscribersError).toEqual([
			{
				index: 0,
				id: 's2',
				column: 'code',
				code: 'UNIQUE_VALUE_DUPLICATED',
				message: 'Row 1: column "code" value "A1" already exists',
				row: { id: 's2', code: 'A1' },
			},
		]);
		expect(sandbox.getSubscriber(1, 's2')?.code).toBe('B1');
	});

	it("keeps a subscriber's own unique value on update", async () => {
		await bulk(1, [{ id: 's1', firstName: 'Ann', code: 'A1' }]);
		const res = await bulk(1, [{ id: 's1', code: 'A1', firstName: 'Anna' }]);
		expect(res.body.data).toEqual({
			subscriberUpdated: 1,
			subscriberAdded: 0,
			subscribersError: [],
		});
	});

	it('stores ids as strings', async () => {
		await bulk(1, [{ id: 42, firstName: 'N' }]);
		expect(sandbox.getSubscriber(1, '42')?.id).toBe('42');
	});

	it('updates lastUpdated', async () => {
		const before = sandbox.getList(1)?.lastUpdated as string;
		await new Promise((resolve) => setTimeout(resolve, 5));
		await bulk(1, [{ firstName: 'A' }]);
		expect((sandbox.getList(1)?.lastUpdated as string) > before).toBe(true);
	});
});

describe('POST /lists/{listId}/subscribers/bulk', () => {
	it('answers 400 for a body that is not an array', async () => {
		sandbox.seedList({ name: 'L' });
		const res = await bulk(1, { email: 'a@x.io' });
		expect(res.status).toBe(400);
		expect(res.body.error.message).toMatch(/JSON array/);
	});

	it('answers 404 for an unknown list', async () => {
		const res = await bulk(3, []);
		expect(res.status).toBe(404);
		expect(res.body.error.message).toBe('List 3 not found');
	});

	it('requires an id on lists whose own id column is required', async () => {
		sandbox.seedList({
			name: 'L',
			columns: [{ name: 'id', type: 'STRING', required: true, unique: true }],
		});
		const res = await bulk(1, [{ email: 'a@x.io' }, { id: 'x1' }]);
		expect(res.body.data.subscriberAdded).toBe(1);
		expect(res.body.data.subscribersError[0]).toMatchObject({
			index: 0,
			column: 'id',
			code: 'REQUIRED_VALUE_MISSING',
		});
	});
});

describe('GET /lists/{listId}/subscribers', () => {
	beforeEach(() => {
		sandbox.seedList({
			name: 'L',
			rows: Array.from({ length: 5 }, (_, i) => ({ id: `s${i + 1}`, email: `u${i + 1}@x.io` })),
		});
	});

	it('returns the subscriber records with pagination', async () => {
		const res = await call(sandbox, 'GET', '/lists/1/subscribers');
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.items).toHaveLength(5);
		expect(res.body.items[0]).toEqual({
			id: 's1',
			email: 'u1@x.io',
			mobile: null,
			devices: null,
			devices_type: null,
		});
		expect(res.body.pagination).toEqual({ limit: 100, page: 1, pages: 1, total: 5 });
	});

	it('pages with limit and page', async () => {
		const res = await call(sandbox, 'GET', '/lists/1/subscribers', {
			query: { limit: '2', page: '3' },
		});
		expect(res.body.items.map((s: { id: string }) => s.id)).toEqual(['s5']);
		expect(res.body.pagination).toEqual({ limit: 2, page: 3, pages: 3, total: 5 });
	});

	it('answers 404 for an unknown list', async () => {
		expect((await call(sandbox, 'GET', '/lists/9/subscribers')).body.error.message).toBe(
			'List 9 not found',
		);
	});
});

describe('DELETE /lists/{listId}/subscribers/{subscriberId}', () => {
	beforeEach(() => {
		sandbox.seedList({ name: 'L', rows: [{ id: 's1', email: 'a@x.io' }, { id: 's 2' }] });
	});

	it('deletes the subscriber and frees its unique values', async () => {
		const res = await call(sandbox, 'DELETE', '/lists/1/subscribers/s1');
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.data).toEqual({ id: 's1', deleted: true });
		expect(sandbox.getList(1)?.size).toBe(1);
		expect((await bulk(1, [{ email: 'a@x.io' }])).body.data.subscriberAdded).toBe(1);
	});

	it('decodes the subscriber id', async () => {
		expect((await call(sandbox, 'DELETE', '/lists/1/subscribers/s%202')).status).toBe(200);
	});

	it('answers 404 naming the subscriber and the list', async () => {
		const res = await call(sandbox, 'DELETE', '/lists/1/subscribers/nope');
		expect(res.status).toBe(404);
		expect(res.body.error).toEqual({
			status: 404,
			code: 'SUBSCRIBER_NOT_FOUND',
			message: 'Subscriber nope not found in list 1',
		});
	});

	it('answers 404 for an unknown list', async () => {
		const res = await call(sandbox, 'DELETE', '/lists/5/subscribers/s1');
		expect(res.body.error).toEqual({
			status: 404,
			code: 'LIST_NOT_FOUND',
			message: 'List 5 not found',
		});
	});
});
