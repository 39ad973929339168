import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { callListSearch } from '../helpers/n8n';
import {
	API_KEY,
	byId,
	expectNoKey,
	node,
	openConversation,
	outputOf,
	run,
	textMessage,
	useSandbox,
} from './context';

const ctx = useSandbox();

/** A host that records what reaches it: the target of the redirects. */
let elsewhere: {
	url: string;
	hits: Array<{ path: string; authorization?: string }>;
	close: () => Promise<void>;
};
beforeAll(async () => {
	const hits: Array<{ path: string; authorization?: string }> = [];
	const server = http.createServer((req, res) => {
		hits.push({ path: req.url ?? '', authorization: req.headers.authorization });
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"data":{"id":1}}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	elsewhere = {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		hits,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
});
afterAll(async () => await elsewhere.close());
beforeEach(() => elsewhere.hits.splice(0));

const activeSender = () => openConversation(ctx.sandbox);
const text = textMessage;
const withTimeout = (seconds: number) => ({
	...ctx.credentials,
	data: { ...ctx.credentials.data, timeout: seconds },
});

describe('redirects: never followed, so the key never reaches another host', () => {
	const cases: Array<[string, INodeParameters, string]> = [
		['Message › Send (custom, POST)', text(), '/chatapp/messages'],
		[
			'List › Get (formerly declarative)',
			{ resource: 'list', operation: 'get', listId: byId(1) },
			'/lists/1',
		],
		[
			'Subscriber › Get Many (pagination)',
			{ resource: 'subscriber', operation: 'getMany', listId: byId(1), returnAll: true },
			'/subscribers',
		],
		[
			'Blacklist › Check',
			{
				resource: 'blacklist',
				operation: 'check',
				channel: 'SMS',
				from: 'ACME',
				to: '+33612345678',
			},
			'/subscribers',
		],
	];
	it.each(
		cases.flatMap(([name, parameters, path]) =>
			[301, 302, 307, 308].map((status) => [name, status, parameters, path] as const),
		),
	)(
		'%s, HTTP %d: an error naming the target, nothing sent elsewhere',
		async (_name, status, parameters, path) => {
			activeSender();
			ctx.sandbox.seedList({ name: 'L', rows: [{ email: 'a@x.io' }] });
			ctx.sandbox.addFault({
				kind: 'redirect',
				path,
				status,
				location: `${elsewhere.url}/collect`,
			});
			const result = await run(ctx.credentials, parameters);
			expect(result.error).toBeInstanceOf(NodeApiError);
			expect(result.error?.message).toBe(
				`The platform answered with a redirect (HTTP ${status}) to ${elsewhere.url}/collect`,
			);
			expect((result.error as NodeApiError).httpCode).toBe(String(status));
			expect(elsewhere.hits).toEqual([]);
			expect(ctx.sandbox.requests.filter((r) => r.path.includes(path))).toHaveLength(1);
			expectNoKey(result);
		},
	);

	it('the list picker does not follow a redirect either', async () => {
		ctx.sandbox.addFault({
			kind: 'redirect',
			path: '/lists',
			location: `${elsewhere.url}/collect`,
		});
		await expect(callListSearch(node, 'searchLists', ctx.credentials)).rejects.toThrow(
			/redirect \(HTTP 302\)/,
		);
		expect(elsewhere.hits).toEqual([]);
	});
});

describe('429: every operation waits and resends, within a budget', () => {
	it('Retry-After 0 still pauses at least 1 s before the resend, and the message is sent once', async () => {
		activeSender();
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/chatapp/messages',
			retryAfter: '0',
			times: 1,
		});
		const [item] = outputOf(await run(ctx.credentials, text()));
		expect(item.json.status).toBe('QUEUE');
		const sends = ctx.sandbox.requests.filter((r) => r.path.endsWith('/chatapp/messages'));
		expect(sends.map((r) => r.status)).toEqual([429, 200]);
		expect(sends[1].receivedAt - sends[0].receivedAt).toBeGreaterThanOrEqual(1000);
		expect(ctx.sandbox.messages()).toHaveLength(1);
	});

	it('waits no less than Retry-After says', async () => {
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/lists',
			retryAfter: '2',
			times: 1,
		});
		const [item] = outputOf(
			await run(ctx.credentials, {
				resource: 'list',
				operation: 'create',
				name: 'Paced',
				rows: '[]',
			}),
		);
		expect(item.json.name).toBe('Paced');
		const [refused, accepted] = ctx.sandbox.requests;
		expect([refused.status, accepted.status]).toEqual([429, 200]);
		expect(accepted.receivedAt - refused.receivedAt).toBeGreaterThanOrEqual(2000);
		expect(ctx.sandbox.allLists()).toHaveLength(1);
	});

	it("gives up when the run's budget is spent: not sent, with the 429, the time lost and the option to raise", async () => {
		activeSender();
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/chatapp/messages',
			retryAfter: '0',
		});
		const result = await run(ctx.credentials, text({ options: { rateLimitWait: 2 } }));
		const error = result.error as NodeApiError;
		expect(error.httpCode).toBe('429');
		expect(error.message).toMatch(
			/^Not sent: the platform kept rate limiting this run \(HTTP 429: Rate limit exceeded\)$/,
		);
		expect(error.description).toMatch(
			/lost [12] s to rate limits .* wait budget is 2 s \(the "Max Wait When Rate Limited \(Seconds\)" option\)/,
		);
		expect(error.description).toContain('Raise "Max Wait When Rate Limited (Seconds)"');
		// Without Continue the node outputs nothing: the error does not claim the sent ones are listed.
		expect(error.description).toMatch(/with Stop Workflow the node outputs nothing/);
		expect(error.description).not.toMatch(/reported as sent/);
		// At least 1 s per pause and a 2 s budget: at most two resends.
		const sends = ctx.sandbox.requests.filter((r) => r.path.endsWith('/chatapp/messages'));
		expect(sends.length).toBeGreaterThanOrEqual(2);
		expect(sends.length).toBeLessThanOrEqual(3);
		expect(ctx.sandbox.messages()).toHaveLength(0);
	});

	it('an operation without the option names none in its advice', async () => {
		const list = ctx.sandbox.seedList({ name: 'Limited', rows: [] });
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'GET',
			path: `/lists/${list.id}`,
			// A pause longer than the run's budget: the node gives up at once (waiting out the budget
			// with short pauses would take its 60 s).
			retryAfter: '3600',
		});
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'get',
			listId: byId(list.id),
		});
		const error = result.error as NodeApiError;
		expect(error.httpCode).toBe('429');
		expect(error.description).toMatch(
			/wait budget is 60 s \(the most a run of this operation waits\), .* Send fewer items at once, or try again later\.$/,
		);
		expect(error.description).not.toContain('Max Wait When Rate Limited');
		expect(ctx.sandbox.requests).toHaveLength(1);
	});
});

describe('5xx and dropped connections: resent only when the request is idempotent', () => {
	it('GET is resent after a 503 and succeeds', async () => {
		const list = ctx.sandbox.seedList({ name: 'Flaky', rows: [] });
		ctx.sandbox.addFault({
			kind: 'status',
			method: 'GET',
			path: `/lists/${list.id}`,
			status: 503,
			times: 2,
		});
		const [item] = outputOf(
			await run(ctx.credentials, { resource: 'list', operation: 'get', listId: byId(list.id) }),
		);
		expect(item.json.name).toBe('Flaky');
		expect(ctx.sandbox.requests.map((r) => r.status)).toEqual([503, 503, 200]);
	});

	it('GET gives up after two resends', async () => {
		ctx.sandbox.addFault({ kind: 'status', method: 'GET', path: '/lists/1', status: 500 });
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'get',
			listId: byId(1),
		});
		expect((result.error as NodeApiError).httpCode).toBe('500');
		expect(ctx.sandbox.requests).toHaveLength(3);
	});

	it('POST is never resent after a 5xx: a message or a list is never created twice', async () => {
		activeSender();
		ctx.sandbox.addFault({
			kind: 'status',
			method: 'POST',
			path: '/chatapp/messages',
			status: 502,
			times: 1,
		});
		const message = await run(ctx.credentials, text());
		expect((message.error as NodeApiError).httpCode).toBe('502');
		ctx.sandbox.addFault({ kind: 'status', method: 'POST', path: '/lists', status: 500, times: 1 });
		const list = await run(ctx.credentials, {
			resource: 'list',
			operation: 'create',
			name: 'Once',
			rows: '[]',
		});
		expect((list.error as NodeApiError).httpCode).toBe('500');
		expect(ctx.sandbox.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
			'POST 502',
			'POST 500',
		]);
	});

	it('a dropped connection is resent for GET, not for POST', async () => {
		ctx.sandbox.seedList({ name: 'L', rows: [] });
		ctx.sandbox.addFault({ kind: 'reset', method: 'GET', path: '/lists/1', times: 1 });
		outputOf(await run(ctx.credentials, { resource: 'list', operation: 'get', listId: byId(1) }));
		expect(ctx.sandbox.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
		ctx.sandbox.clearRequests();
		ctx.sandbox.addFault({ kind: 'reset', method: 'POST', path: '/lists', times: 1 });
		const created = await run(ctx.credentials, {
			resource: 'list',
			operation: 'create',
			name: 'Once',
			rows: '[]',
		});
		expect(created.error).toBeInstanceOf(NodeApiError);
		expect(ctx.sandbox.requests).toHaveLength(1);
	});
});

describe('a platform that hangs', () => {
	it("fails after the credential's Request Timeout, naming it, and does not resend", async () => {
		ctx.sandbox.addFault({ kind: 'hang', path: '/lists/1' });
		const result = await run(withTimeout(1), {
			resource: 'list',
			operation: 'get',
			listId: byId(1),
		});
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error?.message).toMatch(/^No answer from the platform at http/);
		expect((result.error as NodeApiError).description).toContain(
			"no answer within 1 s (the credential's Request Timeout)",
		);
		// Reached, so the advice is the timeout, not the base URL.
		expect((result.error as NodeApiError).description).toMatch(
			/did not answer in time: raise Request Timeout \(Seconds\) in the credential/,
		);
		expect((result.error as NodeApiError).description).not.toMatch(/Base URL/);
		expect(ctx.sandbox.requests).toHaveLength(1);
		expectNoKey(result);
	});
});

describe('malformed or wrong-shape 200 answers to reads are errors, never items', () => {
	it.each<[string, INodeParameters, string, { raw: string; contentType?: string }]>([
		[
			'List › Get, a string',
			{ resource: 'list', operation: 'get', listId: byId(1) },
			'/lists/1',
			{ raw: '"hello"' },
		],
		[
			'List › Get, truncated JSON',
			{ resource: 'list', operation: 'get', listId: byId(1) },
			'/lists/1',
			{ raw: '{"data": {"id"' },
		],
		[
			'Blacklist › Check, an empty object',
			{
				resource: 'blacklist',
				operation: 'check',
				channel: 'SMS',
				from: 'ACME',
				to: '+33612345678',
			},
			'/subscribers',
			{ raw: '{}' },
		],
		[
			'Sender › Get, data is text',
			{ resource: 'sender', operation: 'get', senderId: 'snd_1' },
			'/chatapp/senders/snd_1',
			{ raw: '{"data": "nope"}' },
		],
		[
			'Wallet Template › Get Many, no items',
			{ resource: 'walletTemplate', operation: 'getMany', returnAll: false, limit: 5 },
			'/v2/wallet/templates',
			{ raw: '{"data": {"id": 1}}' },
		],
		[
			'Message Template › Get Many, items of text',
			{ resource: 'messageTemplate', operation: 'getMany', senderId: 'snd_1' },
			'/chatapp/templates/',
			{ raw: '{"items": ["a"]}' },
		],
	])('%s', async (_name, parameters, path, answer) => {
		activeSender();
		ctx.sandbox.addFault({ kind: 'malformed', path, ...answer });
		const result = await run(ctx.credentials, parameters);
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error?.message).toMatch(
			/^The platform's answer to ".+" is not what the API specifies \(HTTP 200\)$/,
		);
		expect(result.output).toBeNull();
	});
});

describe('malformed or wrong-shape 2xx answers to writes: accepted, answer unreadable, never failed nor resent', () => {
	it.each<[string, INodeParameters, string, { raw: string; contentType?: string }]>([
		[
			'Message › Send, text body',
			text(),
			'/chatapp/messages',
			{ raw: 'OK', contentType: 'text/plain' },
		],
		[
			'Message › Send, an HTML page',
			text(),
			'/chatapp/messages',
			{ raw: '<html><body>Accepted</body></html>', contentType: 'text/html' },
		],
		['Message › Send, a JSON list', text(), '/chatapp/messages', { raw: '["a","b"]' }],
		[
			'List › Create, data without id',
			{ resource: 'list', operation: 'create', name: 'x', rows: '[]' },
			'/lists',
			{ raw: '{"data": {"name": "x"}}' },
		],
	])('%s', async (_name, parameters, path, answer) => {
		activeSender();
		ctx.sandbox.addFault({ kind: 'malformed', path, ...answer });
		const [item, ...rest] = outputOf(await run(ctx.credentials, parameters));
		expect(rest).toHaveLength(0);
		expect(item.json.status).toBe('accepted');
		expect(item.json.warning).toMatch(
			/^Accepted, answer unreadable: the platform accepted the request to .+ \(HTTP 200\)/,
		);
		expect(item.json.error).toBeUndefined();
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(ctx.sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	it('a Send item says which message it was (recipient, External ID), with or without Continue On Fail', async () => {
		activeSender();
		for (const continueOnFail of [false, true]) {
			ctx.sandbox.addFault({
				kind: 'malformed',
				path: '/chatapp/messages',
				raw: '"queued"',
				times: 1,
			});
			const output = outputOf(
				await run(ctx.credentials, text(), [{ json: {} }, { json: {} }], continueOnFail),
			);
			expect(output).toHaveLength(2);
			expect(output[0].json).toMatchObject({
				status: 'accepted',
				to: '+33612345678',
				externalId: expect.stringMatching(/^wf[A-Za-z0-9]+ex[A-Za-z0-9]+it0$/),
			});
			expect(output[0].pairedItem).toEqual({ item: 0 });
			expect(output[1].json.status).toBe('QUEUE');
			expect(output[1].json.externalId).toMatch(/it1$/);
			expect(output[1].pairedItem).toEqual({ item: 1 });
		}
	});
});

describe('pagination that misbehaves', () => {
	it('stops with an error on pages that never end, after the page cap', async () => {
		ctx.sandbox.addFault({ kind: 'endlessPages', path: '/v2/wallet/templates' });
		const result = await run(ctx.credentials, {
			resource: 'walletTemplate',
			operation: 'getMany',
			returnAll: true,
		});
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error?.message).toMatch(/still had more after 1000 pages \(1000 results\)/);
		expect(ctx.sandbox.requests).toHaveLength(1000);
	}, 120_000);

	it('stops with an error when a page repeats the previous one', async () => {
		const page = JSON.stringify({
			items: [{ id: 'a' }, { id: 'b' }],
			pagination: { page: 1, pages: 5 },
		});
		ctx.sandbox.seedList({ name: 'L', rows: [] });
		ctx.sandbox.addFault({ kind: 'malformed', path: '/lists/1/subscribers', raw: page });
		const result = await run(ctx.credentials, {
			resource: 'subscriber',
			operation: 'getMany',
			listId: byId(1),
			returnAll: true,
		});
		expect(result.error?.message).toMatch(/page 2 repeats page 1/);
		expect(ctx.sandbox.requests).toHaveLength(2);
	});

	it('stops with an error when a later page is malformed, instead of a silent cut', async () => {
		const list = ctx.sandbox.seedList({
			name: 'Big',
			rows: Array.from({ length: 1500 }, (_, i) => ({ email: `u${i}@x.io` })),
		});
		ctx.sandbox.addFault({
			kind: 'malformed',
			path: `/lists/${list.id}/subscribers`,
			query: { page: '2' },
			raw: '{"items": "later"}',
		});
		const result = await run(ctx.credentials, {
			resource: 'subscriber',
			operation: 'getMany',
			listId: byId(list.id),
			returnAll: true,
		});
		expect(result.error?.message).toMatch(/page 2" is not what the API specifies \(HTTP 200\)/);
		expect(result.output).toBeNull();
	});

	it('reads a platform that ignores limit and has no pagination as one page', async () => {
		const all = JSON.stringify({ items: Array.from({ length: 1200 }, (_, i) => ({ id: i })) });
		ctx.sandbox.seedList({ name: 'L', rows: [] });
		ctx.sandbox.addFault({ kind: 'malformed', path: '/lists/1/subscribers', raw: all });
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'subscriber',
				operation: 'getMany',
				listId: byId(1),
				returnAll: true,
			}),
		);
		expect(output).toHaveLength(1200);
		expect(ctx.sandbox.requests).toHaveLength(1);
	});
});

describe('bulk answers the nodes do not fully understand', () => {
	const members = (count: number) =>
		Array.from({ length: count }, (_, i) => ({ json: { email: `m${i}@x.io` } }));

	it('a refused row that cannot be matched (a row number of unknown base, nothing naming the row) is never reported as added', async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		ctx.sandbox.addFault({
			kind: 'malformed',
			path: `/lists/${list.id}/subscribers/bulk`,
			raw: JSON.stringify({
				data: {
					subscriberAdded: 3,
					subscriberUpdated: 0,
					subscribersError: [{ rowNumber: 2, error: 'duplicate' }],
				},
			}),
		});
		const output = outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
				members(4),
			),
		);
		// rowNumber 2 names item 2 (counted from 0), 1 (from 1) or 0 (from 1 after a header line):
		// those stay unknown; 3 added of 4 rows prove item 3 stored (issue 40).
		expect(output.map((item) => item.json.status)).toEqual([
			'unknown',
			'unknown',
			'unknown',
			'added',
		]);
		expect(output[0].json.batchErrors).toEqual([expect.objectContaining({ message: 'duplicate' })]);
		expect(output.slice(1).some((item) => 'batchErrors' in item.json)).toBe(false);
		expect(output[1].json.warning).toMatch(/does not say where it counts rows from/);
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
	});

	it('an accepted batch with an unreadable answer leaves rows unknown, not failed', async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		ctx.sandbox.addFault({
			kind: 'malformed',
			path: `/lists/${list.id}/subscribers/bulk`,
			raw: '{"data": {"subscriberAdded": "two"}}',
		});
		const output = outputOf(
			await run(
				ctx.credentials,
				{ resource: 'subscriber', operation: 'addMany', listId: byId(list.id), source: 'items' },
				members(2),
			),
		);
		expect(output.map((item) => item.json.status)).toEqual(['unknown', 'unknown']);
		expect(output[0].json.warning).toMatch(
			/^The platform accepted the request but its answer could not be read/,
		);
	});

	it('a pass batch accepted with an unreadable answer reports the passes accepted, not failed', async () => {
		ctx.sandbox.addFault({ kind: 'malformed', path: '/passes/batch', raw: '{"created": true}' });
		const output = outputOf(
			await run(
				ctx.credentials,
				{
					resource: 'walletPass',
					operation: 'create',
					templateSerial: byId('tpl-gold-member'),
					recipientId: '={{ $json.email }}',
				},
				members(2),
			),
		);
		expect(output.map((item) => [item.json.recipientId, item.json.status])).toEqual([
			['m0@x.io', 'accepted'],
			['m1@x.io', 'accepted'],
		]);
		expect(output[0].json.warning).toMatch(
			/^Accepted, answer unreadable: .*the pass URLs are unknown/,
		);
		expect(output[0].json.url).toBeUndefined();
	});
});

describe('the key stays out of what the node produces', () => {
	it('in a platform error that echoes the Authorization header', async () => {
		ctx.sandbox.addFault({
			kind: 'status',
			path: '/lists/1',
			status: 400,
			body: { error: { message: `bad header Bearer ${API_KEY}` } },
		});
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'get',
			listId: byId(1),
		});
		expect(result.error).toBeInstanceOf(NodeApiError);
		expectNoKey(result);
	});

	it('in a platform error that quotes the key itself, without "Bearer"', async () => {
		ctx.sandbox.addFault({
			kind: 'status',
			path: '/lists/1',
			status: 403,
			body: { error: { message: `the key ${API_KEY} may not read list 1` } },
		});
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'get',
			listId: byId(1),
		});
		expect((result.error as NodeApiError).httpCode).toBe('403');
		expect(result.error?.message).toBe('the key *** may not read list 1 [HTTP 403]');
		expectNoKey(result);
	});

	// Issue 75: a 2xx answer is redacted as an error is, before it becomes an item.
	it('in a 200 answer to a read that echoes the key and the Authorization header', async () => {
		ctx.sandbox.addFault({
			kind: 'status',
			path: '/lists/1',
			status: 200,
			body: {
				data: {
					id: 1,
					name: 'VIP',
					key: API_KEY,
					echo: `Bearer ${API_KEY}`,
					note: 'Bearer of good news',
				},
			},
		});
		const result = await run(ctx.credentials, {
			resource: 'list',
			operation: 'get',
			listId: byId(1),
			simplify: false,
		});
		expect(outputOf(result).map((item) => item.json)).toEqual([
			{ id: 1, name: 'VIP', key: '***', echo: 'Bearer ***', note: 'Bearer of good news' },
		]);
		expectNoKey(result);
	});

	it('in the pages of a paginated read that echo the key', async () => {
		const page = (n: number) => ({
			items: [{ id: `s${n}`, email: `s${n}@x.io`, seenWith: `key=${API_KEY}` }],
			pagination: { page: n, pages: 2 },
		});
		for (const n of [1, 2])
			ctx.sandbox.addFault({
				kind: 'status',
				path: '/subscribers',
				query: { page: String(n) },
				status: 200,
				body: page(n),
			});
		const result = await run(ctx.credentials, {
			resource: 'subscriber',
			operation: 'getMany',
			listId: byId(1),
			returnAll: true,
		});
		expect(outputOf(result).map((item) => item.json.seenWith)).toEqual(['key=***', 'key=***']);
		expectNoKey(result);
	});
});
