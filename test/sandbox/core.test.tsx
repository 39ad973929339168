import { startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

describe('authentication', () => {
	it.each([
		['no header', false, /Missing Authorization header/],
		['a wrong key', 'not-the-key', /Invalid API key/],
	])('answers 401 with %s', async (_, auth, message) => {
		const res = await call(sandbox, 'GET', '/lists', { auth });
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toBe('Bearer');
		expect(res.body.error).toEqual({
			status: 401,
			code: 'UNAUTHORIZED',
			message: expect.stringMatching(message),
		});
		expectMeta(res.body);
	});

	it('refuses a non-Bearer scheme', async () => {
		const res = await call(sandbox, 'GET', '/lists', {
			auth: false,
			headers: { authorization: `Basic ${sandbox.apiKey}` },
		});
		expect(res.status).toBe(401);
		expect(res.body.error.message).toMatch(/Bearer scheme/);
	});

	it('authenticates before routing, so unknown paths also answer 401', async () => {
		expect((await call(sandbox, 'GET', '/nope', { auth: false })).status).toBe(401);
	});

	it('shows a browser opening its own address a page naming its base URLs; the API under it still wants the key', async () => {
		const page = await fetch(`${sandbox.url}/`);
		expect(page.status).toBe(200);
		expect(page.headers.get('content-type')).toMatch(/^text\/html/);
		const html = await page.text();
		for (const url of [sandbox.listsBaseUrl, sandbox.walletBaseUrl, sandbox.baseUrl])
			expect(html).toContain(url);
		expect(html).toContain(`${sandbox.url}/__sandbox/state`);
		expect(html).not.toContain(sandbox.apiKey);
		expect((await fetch(`${sandbox.url}/`, { method: 'POST' })).status).toBe(401);
		expect((await fetch(`${sandbox.listsBaseUrl}/lists`)).status).toBe(401);
	});

	it('accepts the configured key', async () => {
		const custom = await startSandbox({ apiKey: 'xyz' });
		try {
			expect(custom.apiKey).toBe('xyz');
			expect((await call(custom, 'GET', '/lists')).status).toBe(200);
			expect((await call(custom, 'GET', '/lists', { auth: 'sandbox-key' })).status).toBe(401);
		} finally {
			await custom.close();
		}
	});
});

describe('envelope', () => {
	it('puts meta with an integer timestamp and a unique transactionId on every response', async () => {
		const responses = [
			await call(sandbox, 'GET', '/lists'),
			await call(sandbox, 'POST', '/lists', { json: { name: 'a', columns: [], rows: [] } }),
			await call(sandbox, 'GET', '/lists/1'),
			await call(sandbox, 'GET', '/lists/99'),
			await call(sandbox, 'GET', '/lists', { auth: false }),
			await call(sandbox, 'PUT', '/lists'),
		];
		for (const res of responses) expectMeta(res.body);
		const ids = responses.map((res) => res.body.meta.transactionId);
		expect(new Set(ids).size).toBe(ids.length);
		const now = Date.now();
		expect(Math.abs(responses[0].body.meta.timestamp - now)).toBeLessThan(60_000);
	});

	it('answers JSON content type', async () => {
		const res = await call(sandbox, 'GET', '/lists');
		expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
	});
});

describe('routing errors', () => {
	it('answers 404 for an unknown route', async () => {
		const res = await call(sandbox, 'GET', '/segments');
		expect(res.status).toBe(404);
		expect(res.body.error).toEqual({
			status: 404,
			code: 'ROUTE_NOT_FOUND',
			message: 'No such endpoint: GET /audience/v3/segments',
		});
	});

	it('answers 404 outside the API prefixes', async () => {
		const res = await fetch(`${sandbox.url}/other`, {
			headers: { authorization: `Bearer ${sandbox.apiKey}` },
		});
		expect(res.status).toBe(404);
	});

	it('answers 405 with an Allow header for a wrong method', async () => {
		const res = await call(sandbox, 'PATCH', '/lists/1');
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('GET, DELETE');
		expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
	});

	it('ignores one trailing slash', async () => {
		expect((await call(sandbox, 'GET', '/lists/')).status).toBe(200);
	});
});

describe('body errors', () => {
	it('answers 400 for malformed JSON', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			raw: '{"name": ',
			headers: { 'content-type': 'application/json' },
		});
		expect(res.status).toBe(400);
		expect(res.body.error.code).toBe('INVALID_JSON');
		expect(res.body.error.message).toMatch(/^Malformed JSON body/);
	});

	it('answers 400 for an empty JSON body', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			raw: '',
			headers: { 'content-type': 'application/json' },
		});
		expect(res.status).toBe(400);
	});

	it('answers 415 for a JSON body sent with another content type', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			raw: JSON.stringify({ name: 'x', columns: [], rows: [] }),
			headers: { 'content-type': 'text/plain' },
		});
		expect(res.status).toBe(415);
		expect(res.body.error).toMatchObject({
			code: 'UNSUPPORTED_MEDIA_TYPE',
			message: expect.stringContaining('text/plain'),
		});
		expect(sandbox.allLists()).toEqual([]);
	});

	it('accepts a JSON content type with a charset', async () => {
		const res = await call(sandbox, 'POST', '/lists', {
			raw: JSON.stringify({ name: 'x', columns: [], rows: [] }),
			headers: { 'content-type': 'application/json;charset=UTF-8' },
		});
		expect(res.status).toBe(200);
	});
});

describe('sample files (not the platform)', () => {
	it('serves the sample CSV without a key, and 404 for any other name', async () => {
		const ok = await fetch(`${sandbox.url}/__sandbox/files/customers.csv`);
		expect(ok.status).toBe(200);
		expect(ok.headers.get('content-type')).toMatch(/^text\/csv/);
		const text = await ok.text();
		expect(text.split('\n')[0]).toBe('mobile,first_name,email');
		expect(text.trim().split('\n')).toHaveLength(4);
		for (const name of ['nope.csv', '__proto__', 'constructor'])
			expect((await fetch(`${sandbox.url}/__sandbox/files/${name}`)).status).toBe(404);
	});
});
