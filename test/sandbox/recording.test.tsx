import http from 'node:http';
import { DEFAULT_TEMPLATES, startSandbox, type RecordedRequest, type Sandbox } from '../sandbox';
import { call, csvForm } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const admin = (method: string, path: string) =>
	fetch(`${sandbox.url}/__sandbox${path}`, { method });

describe('request recording', () => {
	it('records a JSON request with its parsed and raw body and the status answered', async () => {
		const json = { name: 'L', columns: [], rows: [] };
		await call(sandbox, 'POST', '/lists', {
			json,
			query: { a: '1' },
			headers: { 'x-trace': 't1' },
		});
		const [recorded] = sandbox.requests;
		expect(recorded).toEqual<RecordedRequest>({
			method: 'POST',
			path: '/audience/v3/lists',
			query: { a: '1' },
			headers: expect.objectContaining({
				authorization: 'Bearer sandbox-key',
				'content-type': 'application/json',
				'x-trace': 't1',
				accept: 'application/json',
			}),
			contentType: 'application/json',
			body: json,
			rawBody: JSON.stringify(json),
			bodySize: JSON.stringify(json).length,
			status: 200,
			receivedAt: expect.any(Number),
			answeredAt: expect.any(Number),
		});
		expect(recorded.answeredAt!).toBeGreaterThanOrEqual(recorded.receivedAt);
	});

	it('records repeated query parameters as arrays', async () => {
		await fetch(`${sandbox.listsBaseUrl}/lists?name=a&name=b`, {
			headers: { authorization: `Bearer ${sandbox.apiKey}` },
		});
		expect(sandbox.requests[0].query).toEqual({ name: ['a', 'b'] });
	});

	it('records multipart parts with name, filename, content type, size and text', async () => {
		const form = csvForm('email\na@x.io\n', 'text/csv', 'people.csv');
		form.append('note', 'hello');
		await call(sandbox, 'POST', '/lists', { form, query: { name: 'CSV' } });
		const [recorded] = sandbox.requests;
		expect(recorded.contentType).toBe('multipart/form-data');
		expect(recorded.query).toEqual({ name: 'CSV' });
		expect(recorded.parts).toEqual([
			{
				name: 'csvFile',
				filename: 'people.csv',
				contentType: 'text/csv',
				size: 13,
				text: 'email\na@x.io\n',
			},
			{ name: 'note', filename: undefined, contentType: undefined, size: 5, text: 'hello' },
		]);
		expect(recorded.rawBody).toBeUndefined();
		expect(recorded.bodySize).toBeGreaterThan(13);
		expect(recorded.status).toBe(200);
	});

	it('records requests that fail before any handler reads the body', async () => {
		await call(sandbox, 'POST', '/lists', { auth: false, json: { name: 'x' } });
		await call(sandbox, 'POST', '/lists/1/subscribers/bulk', { form: csvForm('email\n') });
		const [unauthorized, unknownList] = sandbox.requests;
		expect(unauthorized).toMatchObject({ status: 401, body: { name: 'x' } });
		expect(unauthorized.headers.authorization).toBeUndefined();
		expect(unknownList).toMatchObject({
			status: 404,
			parts: [expect.objectContaining({ name: 'csvFile', text: 'email\n' })],
		});
	});

	it('keeps malformed JSON as rawBody only', async () => {
		await call(sandbox, 'POST', '/lists', {
			raw: '{oops',
			headers: { 'content-type': 'application/json' },
		});
		expect(sandbox.requests[0]).toMatchObject({ status: 400, rawBody: '{oops' });
		expect(sandbox.requests[0].body).toBeUndefined();
	});

	it('records 499 when the client goes away mid-upload', async () => {
		sandbox.seedList({ name: 'L' });
		const req = http.request(`${sandbox.listsBaseUrl}/lists/1/subscribers/bulk`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sandbox.apiKey}`,
				'content-type': 'multipart/form-data; boundary=b',
			},
		});
		req.on('error', () => undefined);
		req.write(
			'--b\r\nContent-Disposition: form-data; name="csvFile"\r\nContent-Type: text/csv\r\n\r\nemail\n',
		);
		await waitFor(() => sandbox.requests.length === 1 && sandbox.requests[0].bodySize > 0);
		req.destroy();
		await waitFor(() => sandbox.requests[0].status !== 0);
		expect(sandbox.requests[0].status).toBe(499);
		expect(sandbox.listSubscribers(1)).toEqual([]);
	});

	it('clears requests in place', async () => {
		const live = sandbox.requests;
		await call(sandbox, 'GET', '/lists');
		expect(live).toHaveLength(1);
		sandbox.clearRequests();
		expect(live).toHaveLength(0);
		expect(sandbox.getList(1)).toBeUndefined();
	});

	it('reset clears state and restarts list ids', async () => {
		sandbox.seedList({ name: 'a' });
		await call(sandbox, 'GET', '/lists');
		sandbox.reset();
		expect(sandbox.requests).toEqual([]);
		expect(sandbox.allLists()).toEqual([]);
		expect(sandbox.seedList({ name: 'b' }).id).toBe(1);
	});
});

describe('admin endpoints', () => {
	it('reports health without auth', async () => {
		const res = await admin('GET', '/health');
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({
			status: 'ok',
			url: sandbox.url,
			listsBaseUrl: sandbox.listsBaseUrl,
			walletBaseUrl: sandbox.walletBaseUrl,
			baseUrl: sandbox.baseUrl,
		});
	});

	it('returns, clears and never records requests', async () => {
		await call(sandbox, 'GET', '/lists');
		await call(sandbox, 'GET', '/lists/5');
		const listed = (await (await admin('GET', '/requests')).json()) as RecordedRequest[];
		expect(listed.map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', '/audience/v3/lists', 200],
			['GET', '/audience/v3/lists/5', 404],
		]);
		expect(await (await admin('DELETE', '/requests')).json()).toEqual({ cleared: 2 });
		expect(await (await admin('GET', '/requests')).json()).toEqual([]);
		expect(sandbox.requests).toEqual([]);
	});

	it('resets state', async () => {
		sandbox.seedList({ name: 'L', rows: [{ email: 'a@x.io' }] });
		sandbox.seedTemplate({ serial: 'tpl-extra', name: 'Extra' });
		sandbox.seedPass('tpl-extra', 'r1');
		sandbox.seedBlacklist({
			to: '+33612345678',
			reason: 'UNSUBSCRIBED',
			type: 'SMS',
			from: 'ACME',
		});
		expect(await (await admin('GET', '/state')).json()).toEqual({
			lists: [
				expect.objectContaining({
					id: 1,
					name: 'L',
					subscribers: [expect.objectContaining({ email: 'a@x.io' })],
				}),
			],
			walletTemplates: [...DEFAULT_TEMPLATES, expect.objectContaining({ serial: 'tpl-extra' })],
			walletPasses: [
				expect.objectContaining({ serial: 'tpl-extra', recipientId: 'r1', fields: [] }),
			],
			blacklist: [
				expect.objectContaining({
					to: '+33612345678',
					type: 'SMS',
					from: 'ACME',
					listType: 'BLACK',
				}),
			],
			chatapp: {
				senders: [],
				templates: [],
				messages: [],
				inbound: [],
				settings: expect.objectContaining({ quotaExceeded: 'reject' }),
			},
			callbacks: [],
			clock: { now: expect.any(String), offsetMs: 0, frozen: false },
		});
		expect((await admin('POST', '/reset')).status).toBe(200);
		expect(sandbox.allLists()).toEqual([]);
		expect(sandbox.walletTemplates()).toEqual(DEFAULT_TEMPLATES);
		expect(sandbox.walletPasses()).toEqual([]);
		expect(sandbox.blacklistEntries()).toEqual([]);
		expect(sandbox.requests).toEqual([]);
	});

	it('answers 404 for an unknown admin path', async () => {
		expect((await admin('GET', '/nope')).status).toBe(404);
		expect(sandbox.requests).toEqual([]);
	});
});

/**
 * Polls until `condition` holds; the bound is a budget for a busy machine, not a measure of speed.
 */
async function waitFor(condition: () => boolean, ms = 20_000): Promise<void> {
	for (const start = Date.now(); !condition(); ) {
		if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
