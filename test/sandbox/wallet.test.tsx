import { DEFAULT_TEMPLATES, HttpError, startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta, type CallOptions } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const templates = (options: CallOptions = {}, s: Sandbox = sandbox) =>
	call(s, 'GET', '/v2/wallet/templates', { baseUrl: s.walletBaseUrl, ...options });
const serials = (body: { items: Array<{ serial: string }> }) =>
	body.items.map((item) => item.serial);

const numbered = (n: number) =>
	Array.from({ length: n }, (_, i) => ({
		serial: `tpl-${String(i + 1).padStart(3, '0')}`,
		name: `Template ${i + 1}`,
		creationDate: new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString(),
	}));

describe('GET /v2/wallet/templates basics', () => {
	it('needs the Bearer key', async () => {
		const res = await templates({ auth: false });
		expect(res.status).toBe(401);
		expect(res.body.error.code).toBe('UNAUTHORIZED');
		expectMeta(res.body);
		expect((await templates({ auth: 'wrong' })).status).toBe(401);
	});

	it('lists the three default templates with every field, meta and pagination', async () => {
		const res = await templates();
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expectMeta(res.body);
		expect(Object.keys(res.body)).toEqual(['meta', 'pagination', 'items']);
		expect(res.body.pagination).toEqual({ limit: 20, page: 1, pages: 1, total: 3 });
		expect(res.body.items).toEqual(DEFAULT_TEMPLATES);
		expect(serials(res.body)).toEqual([
			'tpl-gold-member',
			'tpl-silver-member',
			'tpl-classic-member',
		]);
		for (const item of res.body.items) {
			expect(Object.keys(item)).toEqual([
				'serial',
				'name',
				'description',
				'walletPayCompatible',
				'creationDate',
			]);
			expect(item.creationDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		}
		expect(new Set(res.body.items.map((i: { creationDate: string }) => i.creationDate)).size).toBe(
			3,
		);
	});

	it('is recorded like any API request', async () => {
		await templates({ query: { limit: '1' } });
		expect(sandbox.requests).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/wallet/v2/wallet/templates',
				query: { limit: '1' },
				status: 200,
			}),
		]);
	});

	it('answers 405 for other methods (pass creation is covered in wallet-passes.test.tsx)', async () => {
		const post = await call(sandbox, 'POST', '/v2/wallet/templates', {
			baseUrl: sandbox.walletBaseUrl,
			json: {},
		});
		expect(post.status).toBe(405);
		expect(post.headers.get('allow')).toBe('GET');
	});

	it('ignores a trailing slash and other query parameters', async () => {
		const res = await call(sandbox, 'GET', '/v2/wallet/templates/', {
			baseUrl: sandbox.walletBaseUrl,
			query: { foo: 'bar' },
		});
		expect(res.status).toBe(200);
		expect(res.body.pagination.total).toBe(3);
	});
});

describe('limit and page', () => {
	beforeEach(() => {
		for (const t of numbered(45)) sandbox.seedTemplate(t);
	});

	it('defaults to limit 20, page 1', async () => {
		const res = await templates();
		expect(res.body.pagination).toEqual({ limit: 20, page: 1, pages: 3, total: 48 });
		expect(res.body.items).toHaveLength(20);
		expect(res.body.items[0].serial).toBe('tpl-gold-member');
	});

	it('limit=1 returns one template', async () => {
		const res = await templates({ query: { limit: '1' } });
		expect(serials(res.body)).toEqual(['tpl-gold-member']);
		expect(res.body.pagination).toEqual({ limit: 1, page: 1, pages: 48, total: 48 });
	});

	it('pages through in stored order and past the end', async () => {
		const third = await templates({ query: { limit: '20', page: '3' } });
		expect(third.body.pagination).toEqual({ limit: 20, page: 3, pages: 3, total: 48 });
		expect(serials(third.body)).toEqual([
			'tpl-038',
			'tpl-039',
			'tpl-040',
			'tpl-041',
			'tpl-042',
			'tpl-043',
			'tpl-044',
			'tpl-045',
		]);
		const past = await templates({ query: { page: '9' } });
		expect(past.status).toBe(200);
		expect(past.body.items).toEqual([]);
		expect(past.body.pagination).toEqual({ limit: 20, page: 9, pages: 3, total: 48 });
	});

	it('accepts limit 100', async () => {
		const res = await templates({ query: { limit: '100' } });
		expect(res.body.items).toHaveLength(48);
		expect(res.body.pagination).toEqual({ limit: 100, page: 1, pages: 1, total: 48 });
	});

	it.each([
		['limit', '0'],
		['limit', '101'],
		['limit', '-1'],
		['limit', '2.5'],
		['limit', 'ten'],
		['page', '0'],
		['page', 'x'],
	])('answers 400 for %s=%s', async (name, value) => {
		const res = await templates({ query: { [name]: value } });
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({
			status: 400,
			code: 'VALIDATION_FAILED',
			message: expect.stringContaining(`Query parameter ${name}`),
		});
		expectMeta(res.body);
	});

	it('reports pages 0 when there are no templates', async () => {
		const empty = await startSandbox({ templates: [] });
		try {
			const res = await templates({}, empty);
			expect(res.body).toEqual({
				meta: expect.any(Object),
				pagination: { limit: 20, page: 1, pages: 0, total: 0 },
				items: [],
			});
		} finally {
			await empty.close();
		}
	});
});

describe('sort', () => {
	it.each([
		['-creationDate', ['tpl-classic-member', 'tpl-gold-member', 'tpl-silver-member']],
		['%2BcreationDate', ['tpl-silver-member', 'tpl-gold-member', 'tpl-classic-member']],
		['creationDate', ['tpl-silver-member', 'tpl-gold-member', 'tpl-classic-member']],
		['+name', ['tpl-classic-member', 'tpl-gold-member', 'tpl-silver-member']],
		['-name', ['tpl-silver-member', 'tpl-gold-member', 'tpl-classic-member']],
		['-serial', ['tpl-silver-member', 'tpl-gold-member', 'tpl-classic-member']],
		[
			'-walletPayCompatible,-creationDate',
			['tpl-classic-member', 'tpl-gold-member', 'tpl-silver-member'],
		],
		['walletPayCompatible,+name', ['tpl-silver-member', 'tpl-classic-member', 'tpl-gold-member']],
		['', ['tpl-gold-member', 'tpl-silver-member', 'tpl-classic-member']],
	])('sort=%s (raw query)', async (sort, expected) => {
		const res = await templates({ rawQuery: `sort=${sort}` });
		expect(res.status).toBe(200);
		expect(serials(res.body)).toEqual(expected);
	});

	it('treats an unencoded + (arriving as a space) as ascending', async () => {
		const res = await templates({ rawQuery: 'sort=-walletPayCompatible,+name' });
		expect(sandbox.requests[0].query.sort).toBe('-walletPayCompatible, name');
		expect(serials(res.body)).toEqual([
			'tpl-classic-member',
			'tpl-gold-member',
			'tpl-silver-member',
		]);
	});

	it('keeps the stored order for ties (stable)', async () => {
		sandbox.seedTemplate({
			serial: 'a-late',
			name: 'Gold member card',
			creationDate: '2025-01-01T00:00:00Z',
		});
		const res = await templates({ query: { sort: 'name' } });
		expect(serials(res.body)).toEqual([
			'tpl-classic-member',
			'tpl-gold-member',
			'a-late',
			'tpl-silver-member',
		]);
	});

	it('sorts before paginating', async () => {
		const res = await templates({ query: { sort: '-creationDate', limit: '2', page: '2' } });
		expect(serials(res.body)).toEqual(['tpl-silver-member']);
		expect(res.body.pagination).toEqual({ limit: 2, page: 2, pages: 2, total: 3 });
	});

	it.each([
		['-createdAt', /unknown field "createdAt"/],
		['+creationdate', /unknown field "creationdate"/],
		['name,,-serial', /empty field name/],
		['name,', /empty field name/],
		['--name', /unknown field "-name"/],
	])('answers 400 for sort=%s', async (sort, message) => {
		const res = await templates({ query: { sort } });
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({
			status: 400,
			code: 'VALIDATION_FAILED',
			message: expect.stringMatching(message),
		});
		expect(res.body.error.message).toMatch(/^Query parameter sort/);
	});
});

describe('select', () => {
	it('returns only the selected fields, in template field order', async () => {
		const res = await templates({ query: { select: 'name,serial' } });
		expect(res.body.items).toEqual([
			{ serial: 'tpl-gold-member', name: 'Gold member card' },
			{ serial: 'tpl-silver-member', name: 'Silver member card' },
			{ serial: 'tpl-classic-member', name: 'Classic member card' },
		]);
		expect(Object.keys(res.body.items[0])).toEqual(['serial', 'name']);
	});

	it('does not add serial on its own, tolerates spaces and repeats', async () => {
		const res = await templates({
			query: { select: ' walletPayCompatible , walletPayCompatible' },
		});
		expect(res.body.items).toEqual([
			{ walletPayCompatible: true },
			{ walletPayCompatible: false },
			{ walletPayCompatible: true },
		]);
	});

	it('can sort on a field it does not select', async () => {
		const res = await templates({ query: { select: 'name', sort: '-creationDate', limit: '1' } });
		expect(res.body.items).toEqual([{ name: 'Classic member card' }]);
	});

	it('an empty select returns every field', async () => {
		const res = await templates({ query: { select: '' } });
		expect(res.body.items[0]).toEqual(DEFAULT_TEMPLATES[0]);
	});

	it.each([
		['serial,id', /unknown field "id"/],
		['Name', /unknown field "Name"/],
		['serial,', /empty field name/],
	])('answers 400 for select=%s', async (select, message) => {
		const res = await templates({ query: { select } });
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({
			status: 400,
			code: 'VALIDATION_FAILED',
			message: expect.stringMatching(message),
		});
		expect(res.body.error.message).toMatch(/^Query parameter select/);
	});
});

describe('seeding', () => {
	it('startSandbox({ templates }) replaces the defaults, fills defaults and normalises dates', async () => {
		const custom = await startSandbox({
			templates: [{ serial: 'only', name: 'Only one', creationDate: '2024-02-03' }],
		});
		try {
			const res = await templates({}, custom);
			expect(res.body.items).toEqual([
				{
					serial: 'only',
					name: 'Only one',
					description: '',
					walletPayCompatible: false,
					creationDate: '2024-02-03T00:00:00.000Z',
				},
			]);
		} finally {
			await custom.close();
		}
	});

	it('refuses to start with invalid templates', async () => {
		await expect(
			startSandbox({
				templates: [
					{ serial: 'x', name: 'X' },
					{ serial: 'x', name: 'Y' },
				],
			}),
		).rejects.toThrow(/serial "x" already exists/);
		await expect(
			startSandbox({ templates: [{ serial: 'x', name: 'X', creationDate: 'yesterday' }] }),
		).rejects.toThrow(/creationDate/);
	});

	it('seedTemplate adds until reset, which restores the start templates', async () => {
		const seeded = sandbox.seedTemplate({
			serial: 'tpl-new',
			name: 'New',
			walletPayCompatible: true,
		});
		expect(seeded.creationDate).toMatch(/Z$/);
		expect(Math.abs(Date.parse(seeded.creationDate) - Date.now())).toBeLessThan(60_000);
		expect(sandbox.walletTemplates().map((t) => t.serial)).toEqual([
			'tpl-gold-member',
			'tpl-silver-member',
			'tpl-classic-member',
			'tpl-new',
		]);
		expect((await templates()).body.pagination.total).toBe(4);
		sandbox.reset();
		expect(sandbox.walletTemplates()).toEqual(DEFAULT_TEMPLATES);
	});

	it.each([
		[{ serial: 'tpl-gold-member', name: 'dup' }, /already exists/],
		[{ serial: '', name: 'x' }, /serial is required/],
		[{ serial: 's', name: '' }, /name is required/],
		[
			{ serial: 's', name: 'n', walletPayCompatible: 'yes' },
			/walletPayCompatible must be a boolean/,
		],
		[{ serial: 's', name: 'n', colour: 'red' }, /unknown field\(s\) colour/],
	])('seedTemplate throws HttpError for %j', (input, message) => {
		expect(() => sandbox.seedTemplate(input as never)).toThrow(HttpError);
		expect(() => sandbox.seedTemplate(input as never)).toThrow(message);
	});

	it('walletTemplates() returns copies', () => {
		sandbox.walletTemplates()[0].name = 'changed';
		expect(sandbox.walletTemplates()[0].name).toBe('Gold member card');
	});
});
