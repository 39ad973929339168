/**
 * Proves test/helpers/n8n.tsx: fixture nodes run through n8n-core's real engine against a real
 * local HTTP server (no HTTP mocking).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { FixtureApi } from '../helpers/fixtures/FixtureApi.credentials';
import { FixtureDeclarative } from '../helpers/fixtures/FixtureDeclarative.node';
import { FixtureUpload, FixtureUploadVersioned } from '../helpers/fixtures/FixtureUpload.node';
import {
	binaryItem,
	callCredentialTest,
	callListSearch,
	callLoadOptions,
	readBinary,
	runNode,
	setBinaryDataMode,
	testCredentials,
	type HarnessCredentials,
} from '../helpers/n8n';

interface RecordedRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: Buffer;
}
type Reply = { status: number; body?: unknown };
type Route = (request: RecordedRequest) => Reply;

let server: Server;
let baseUrl: string;
let requests: RecordedRequest[] = [];
let route: Route = () => ({ status: 404, body: { message: 'no route' } });

beforeAll(async () => {
	server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const recorded: RecordedRequest = {
				method: req.method ?? '',
				path: url.pathname,
				query: url.searchParams,
				headers: req.headers,
				body: Buffer.concat(chunks),
			};
			requests.push(recorded);
			const reply = route(recorded);
			res.writeHead(reply.status, { 'content-type': 'application/json' });
			res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
	requests = [];
});

function credentials(overrides: Record<string, string> = {}): HarnessCredentials {
	return {
		type: 'fixtureApi',
		credentialType: new FixtureApi(),
		data: { apiKey: 'secret-key', baseUrl, ...overrides },
	};
}

describe('declarative node (RoutingNode)', () => {
	it('sends the routed GET with generic auth headers and applies postReceive', async () => {
		route = (req) => ({
			status: 200,
			body: { data: { id: req.path.split('/').pop(), name: 'Thing' } },
		});

		const result = await runNode({
			nodeType: new FixtureDeclarative(),
			parameters: { operation: 'get', id: '={{ $json.thingId }}' },
			credentials: credentials(),
			items: [{ json: { thingId: 'a1' } }, { json: { thingId: 'b2' } }],
		});

		expect(result.error).toBeUndefined();
		expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /things/a1',
			'GET /things/b2',
		]);
		expect(requests[0].headers.authorization).toBe('Bearer secret-key');
		// default of an unset credential property, resolved through the generic authenticate
		expect(requests[0].headers['x-region']).toBe('eu');
		expect(requests[0].headers.accept).toBe('application/json');
		expect(result.output).toEqual([
			[
				{ json: { id: 'a1', name: 'Thing', fetchedWithStatus: 200 }, pairedItem: { item: 0 } },
				{ json: { id: 'b2', name: 'Thing', fetchedWithStatus: 200 }, pairedItem: { item: 1 } },
			],
		]);
	});

	it('sends body and query from parameter routing plus preSend', async () => {
		route = () => ({ status: 201, body: { id: 'new' } });

		const result = await runNode({
			nodeType: new FixtureDeclarative(),
			parameters: { operation: 'create', name: 'Widget', limit: 5 },
			credentials: credentials({ region: 'us' }),
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].path).toBe('/things');
		expect(requests[0].query.get('limit')).toBe('5');
		expect(requests[0].headers['x-region']).toBe('us');
		expect(requests[0].headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(requests[0].body.toString())).toEqual({ name: 'Widget', source: 'fixture' });
		expect(result.output).toEqual([[{ json: { id: 'new' }, pairedItem: { item: 0 } }]]);
	});

	it('returns a NodeApiError with httpCode on 404', async () => {
		route = () => ({ status: 404, body: { message: 'Thing not found' } });

		const result = await runNode({
			nodeType: new FixtureDeclarative(),
			parameters: { operation: 'get', id: 'missing' },
			credentials: credentials(),
		});

		expect(result.output).toBeNull();
		expect(result.error).toBeInstanceOf(NodeApiError);
		const error = result.error as NodeApiError;
		expect(error.httpCode).toBe('404');
		expect(error.message).toContain('could not be found');
		expect(error.description).toBe('Thing not found');
		expect(error.context.itemIndex).toBe(0);
	});

	it('refuses to run when a required parameter is missing, like n8n does', async () => {
		const result = await runNode({
			nodeType: new FixtureDeclarative(),
			parameters: { operation: 'get' },
			credentials: credentials(),
		});

		expect(requests).toHaveLength(0);
		expect(result.output).toBeNull();
		expect(result.error?.name).toBe('WorkflowHasIssuesError');
	});
});

describe('programmatic node (execute + binary + multipart)', () => {
	it('uploads the binary as multipart with Bearer auth', async () => {
		route = (req) => ({ status: 200, body: { uploaded: true, bytes: req.body.length } });
		const file = await binaryItem(
			{ name: 'hello' },
			'data',
			Buffer.from('hello world'),
			'hello.txt',
			'text/plain',
		);

		const result = await runNode({
			nodeType: new FixtureUpload(),
			parameters: { title: '={{ $json.name }} file' },
			credentials: credentials(),
			items: [file],
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		const [req] = requests;
		expect(req.method).toBe('POST');
		expect(req.path).toBe('/uploads');
		expect(req.query.get('version')).toBe('2');
		expect(req.headers.authorization).toBe('Bearer secret-key');
		const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(
			req.headers['content-type'] ?? '',
		)?.[1];
		expect(boundary).toBeDefined();
		const body = req.body.toString();
		expect(body).toContain('Content-Disposition: form-data; name="title"\r\n\r\nhello file\r\n');
		expect(body).toContain(
			'Content-Disposition: form-data; name="file"; filename="hello.txt"\r\nContent-Type: text/plain\r\n\r\nhello world\r\n',
		);
		expect(body.trimEnd().endsWith(`--${boundary}--`)).toBe(true);
		expect(result.output).toEqual([
			[{ json: { uploaded: true, bytes: req.body.length }, pairedItem: { item: 0 } }],
		]);
	});

	it('streams filesystem binary data with this.helpers.getBinaryStream (versioned node type)', async () => {
		route = (req) => ({ status: 200, body: { bytes: req.body.length } });
		const content = Buffer.alloc(256 * 1024, 'z');
		const file = await binaryItem({}, 'data', content, 'big.bin', 'application/octet-stream');

		const result = await runNode({
			nodeType: new FixtureUploadVersioned(),
			parameters: { readAs: 'stream' },
			credentials: credentials(),
			items: [file],
		});

		expect(result.error).toBeUndefined();
		expect(requests[0].query.get('version')).toBe('2');
		expect(requests[0].headers['content-length']).toBe(String(requests[0].body.length));
		expect(requests[0].body.includes(content)).toBe(true);
		expect(result.output?.[0]).toHaveLength(1);
	});

	it('stores input binary the n8n 2.x way (filesystem mode) and reads it back', async () => {
		const item = await binaryItem({}, 'data', Buffer.from('abc'), 'a.csv', 'text/csv');

		expect(item.binary?.data).toMatchObject({
			data: 'filesystem-v2',
			id: expect.stringMatching(/^filesystem-v2:/),
			fileName: 'a.csv',
			mimeType: 'text/csv',
			fileExtension: 'csv',
			bytes: 3,
		});
		expect((await readBinary(item.binary!.data)).toString()).toBe('abc');
	});

	it('works with inline ("default") binary data mode too', async () => {
		await setBinaryDataMode('default');
		try {
			route = () => ({ status: 200, body: { ok: 1 } });
			const item = await binaryItem({}, 'file', Buffer.from('inline'), 'i.txt', 'text/plain');
			expect(item.binary?.file.data).toBe(Buffer.from('inline').toString('base64'));

			const result = await runNode({
				nodeType: new FixtureUpload(),
				parameters: { binaryPropertyName: 'file' },
				credentials: credentials(),
				items: [item],
				typeVersion: 1,
			});

			expect(result.error).toBeUndefined();
			expect(requests[0].query.get('version')).toBe('1');
			expect(requests[0].body.toString()).toContain('\r\n\r\ninline\r\n');
		} finally {
			await setBinaryDataMode('filesystem');
		}
	});

	it('throws the NodeApiError from httpRequestWithAuthentication with httpCode and itemIndex', async () => {
		route = (req) =>
			req.query.has('version') && requests.length === 2
				? { status: 404, body: { message: 'Bucket not found' } }
				: { status: 200, body: { ok: true } };
		const items = [
			await binaryItem({}, 'data', Buffer.from('1'), '1.txt', 'text/plain'),
			await binaryItem({}, 'data', Buffer.from('2'), '2.txt', 'text/plain'),
		];

		const result = await runNode({
			nodeType: new FixtureUpload(),
			parameters: {},
			credentials: credentials(),
			items,
		});

		expect(requests).toHaveLength(2);
		expect(result.output).toBeNull();
		expect(result.error).toBeInstanceOf(NodeApiError);
		const error = result.error as NodeApiError;
		expect(error.httpCode).toBe('404');
		expect(error.description).toBe('Bucket not found');
		expect(error.context.itemIndex).toBe(1);
	});

	it('with continueOnFail returns error items with pairedItem', async () => {
		route = () => ({ status: 500, body: { message: 'boom' } });
		const items = [
			await binaryItem({}, 'data', Buffer.from('x'), 'x.txt', 'text/plain'),
			{ json: { noBinary: true } },
		];

		const result = await runNode({
			nodeType: new FixtureUpload(),
			parameters: {},
			credentials: credentials(),
			items,
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.output).toEqual([
			[
				{
					json: {
						error: expect.stringContaining('The service was not able to process your request'),
					},
					pairedItem: { item: 0 },
				},
				{
					json: {
						error: expect.stringContaining(
							"expects the node's input data to contain a binary file",
						),
					},
					pairedItem: { item: 1 },
				},
			],
		]);
	});

	it('throws a NodeOperationError for bad input', async () => {
		const result = await runNode({
			nodeType: new FixtureUpload(),
			parameters: {},
			credentials: credentials(),
		});

		expect(requests).toHaveLength(0);
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect((result.error as NodeOperationError).context.itemIndex).toBe(0);
	});
});

describe('node methods', () => {
	it('callListSearch runs methods.listSearch with credentials', async () => {
		route = (req) => ({
			status: 200,
			body: { data: [{ id: 't1', name: `match ${req.query.get('q')}` }], next: 'page-2' },
		});

		const result = await callListSearch(
			new FixtureDeclarative(),
			'searchThings',
			credentials(),
			'wid',
			'page-1',
		);

		expect(result).toEqual({
			results: [{ name: 'match wid', value: 't1' }],
			paginationToken: 'page-2',
		});
		expect(requests[0].path).toBe('/things');
		expect(requests[0].query.get('cursor')).toBe('page-1');
		expect(requests[0].headers.authorization).toBe('Bearer secret-key');
	});

	it('resolves expressions in credential data', async () => {
		route = () => ({ status: 200, body: { data: [] } });

		await callListSearch(
			new FixtureDeclarative(),
			'searchThings',
			credentials({ apiKey: "={{ 'k-' + (1 + 1) }}" }),
		);
		await runNode({
			nodeType: new FixtureDeclarative(),
			parameters: { operation: 'get', id: 'x' },
			credentials: credentials({ apiKey: "={{ 'k-' + (1 + 2) }}" }),
		});

		expect(requests.map((r) => r.headers.authorization)).toEqual(['Bearer k-2', 'Bearer k-3']);
	});

	it('callLoadOptions runs methods.loadOptions via requestWithAuthentication', async () => {
		route = () => ({ status: 200, body: [{ label: 'Red', key: 'red' }] });

		const result = await callLoadOptions(new FixtureDeclarative(), 'getCategories', credentials(), {
			operation: 'create',
		});

		expect(result).toEqual([{ name: 'Red', value: 'red' }]);
		expect(requests[0].path).toBe('/categories');
		expect(requests[0].query.get('operation')).toBe('create');
		expect(requests[0].headers.authorization).toBe('Bearer secret-key');
	});

	it('callLoadOptions surfaces request errors', async () => {
		route = () => ({ status: 403, body: { message: 'forbidden' } });

		await expect(
			callLoadOptions(new FixtureDeclarative(), 'getCategories', credentials()),
		).rejects.toThrow(NodeApiError);
	});

	it('callCredentialTest runs methods.credentialTest', async () => {
		route = (req) => ({
			status: 200,
			body: { ok: req.headers.authorization === 'Bearer secret-key' },
		});

		expect(await callCredentialTest(new FixtureUpload(), 'ping', credentials())).toEqual({
			status: 'OK',
			message: 'Pong',
		});
		expect(requests[0].path).toBe('/ping');
	});

	it('testCredentials runs the credential type test request', async () => {
		route = (req) =>
			req.headers.authorization === 'Bearer secret-key'
				? { status: 200, body: {} }
				: { status: 401 };

		expect(await testCredentials(credentials())).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		expect(requests[0].path).toBe('/me');
		expect(await testCredentials(credentials({ apiKey: 'wrong' }))).toEqual({
			status: 'Error',
			message: 'Invalid API key',
		});
	});
});
