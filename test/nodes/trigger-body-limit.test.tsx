/**
 * The trigger's body limits hold on the bytes it reads, not on the Content-Length it is told: a
 * chunked or compressed body is read from the request stream n8n hands over (unread: the trigger
 * asks for the raw body) only until it passes the webhook's limit, then refused with 413. The
 * request here is a stream that counts what was pulled from it, as a socket would be read.
 */
import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import type { IWebhookFunctions } from 'n8n-workflow';

import { AudienceMessagingTrigger } from '../../nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node';
import {
	CALLBACK_MAX_BYTES,
	CALLBACK_MAX_DEPTH,
	callbackToken,
} from '../../src/platform/callbacks';
import { PACE_MAX_BYTES, paceToken } from '../../src/pace/board';
import { eventsOf as eventsOfSize } from '../helpers/callback-bodies';

const SECRET = 'bodyLimitSecret_4f1c9e2a';
const trigger = new AudienceMessagingTrigger();
type RequestHeaders = { headers: Record<string, string> };

/**
 * A request stream giving `body` in pieces of `piece` bytes, one when asked for (no read-ahead),
 * with n8n's own reader (readRawBody: all of it, gzip decoded, up to 16 MB) as n8n adds it.
 */
function requestStream(body: Buffer, piece: number, headers: Record<string, string> = {}) {
	let offset = 0;
	const stream = new Readable({
		highWaterMark: 0,
		read() {
			if (offset >= body.length) return void this.push(null);
			this.push(body.subarray(offset, (offset += piece)));
		},
	});
	const request = Object.assign(stream, {
		headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/json', ...headers },
		rawBody: undefined as Buffer | undefined,
		readRawBody: async () => {
			const pieces: Buffer[] = [];
			const source = headers['content-encoding'] === 'gzip' ? stream.pipe(createGunzip()) : stream;
			for await (const chunk of source) pieces.push(chunk as Buffer);
			request.rawBody = Buffer.concat(pieces).subarray(0, 16 * 1024 * 1024);
		},
	});
	return { request, pulled: () => Math.min(offset, body.length) };
}

let calls = 0;
async function call(webhook: 'default' | 'setup', request: Readable & RequestHeaders) {
	// The pace token in its header; in the query too, where the trigger took it before.
	if (webhook === 'setup') request.headers['x-pace-token'] = paceToken(SECRET);
	const response = { status: 0, headers: {} as Record<string, string>, body: '' };
	const context = {
		getRequestObject: () => request,
		getResponseObject: () => ({
			writeHead: (status: number, head: Record<string, string>) =>
				Object.assign(response, { status, headers: head }),
			end: (text: string) => Object.assign(response, { body: text }),
		}),
		getNodeParameter: (name: string, fallback?: unknown) =>
			({ events: 'any', statuses: [] })[name] ?? fallback,
		getWebhookName: () => webhook,
		getMode: () => 'webhook',
		getWorkflow: () => ({ id: 'wfBodyLimit' }),
		getNode: () => ({ id: `trigger-${++calls}` }),
		getQueryData: () => ({
			token: webhook === 'setup' ? paceToken(SECRET) : callbackToken(SECRET),
		}),
		getCredentials: async () => ({ secret: SECRET }),
	} as unknown as IWebhookFunctions;
	const result = await trigger.webhook.call(context);
	return { result, response };
}

const event = { id: 'msg_1', to: '+33612345678', status: 'SENT' };
/** A JSON array of events, `bytes` long or a little more. */
const eventsOf = (bytes: number) => eventsOfSize(event, bytes);

it('refuses a chunked 1 MB body to the pace webhook with 413, having read 4 KB and one piece at most', async () => {
	const { request, pulled } = requestStream(Buffer.alloc(1024 * 1024, 'x'), 1024);
	const { result, response } = await call('setup', request);
	expect(result).toEqual({ noWebhookResponse: true });
	expect(response.status).toBe(413);
	expect(response.body).toBe(`{"error":"Pace request body over ${PACE_MAX_BYTES} bytes"}`);
	expect(response.headers.Connection).toBe('close');
	expect(pulled()).toBeGreaterThan(PACE_MAX_BYTES);
	expect(pulled()).toBeLessThanOrEqual(PACE_MAX_BYTES + 1024);
});

it('refuses a chunked body over 256 KB to the callbacks webhook with 413, having read 256 KB and one piece at most', async () => {
	const { request, pulled } = requestStream(eventsOf(1024 * 1024), 16 * 1024);
	const { result, response } = await call('default', request);
	expect(result).toEqual({ noWebhookResponse: true });
	expect(response.status).toBe(413);
	expect(response.body).toBe(`{"error":"Callback body over ${CALLBACK_MAX_BYTES} bytes"}`);
	expect(response.headers.Connection).toBe('close');
	expect(pulled()).toBeLessThanOrEqual(CALLBACK_MAX_BYTES + 16 * 1024);
});

it('counts a compressed body as decoded: a gzip body of 190 KB that decodes to 64 MB is refused before most of it is read', async () => {
	const body = gzipSync(eventsOf(64 * 1024 * 1024));
	expect(body.length).toBeLessThan(CALLBACK_MAX_BYTES);
	const { request, pulled } = requestStream(body, 1024, { 'content-encoding': 'gzip' });
	const { response } = await call('default', request);
	expect(response.status).toBe(413);
	expect(response.body).toBe(`{"error":"Callback body over ${CALLBACK_MAX_BYTES} bytes"}`);
	// Its first pieces decode to over 256 KB; read: what the decoder takes in ahead of its output
	// (Node's stream buffer, 64 KB) and one piece at most.
	expect(pulled()).toBeLessThanOrEqual(64 * 1024 + 1024);
});

it('reads a chunked or gzip body within the limit whole, as n8n would have', async () => {
	const numbered = eventsOfSize(event, 200 * 1024, true);
	for (const [body, headers] of [
		[numbered, {}],
		[gzipSync(numbered), { 'content-encoding': 'gzip' }],
	] as const) {
		const { request, pulled } = requestStream(body, 16 * 1024, headers);
		const { result } = await call('default', request);
		expect(pulled()).toBe(body.length);
		const started = (result.webhookResponse as { started: number }).started;
		expect(started).toBe(result.workflowData?.[0].length);
		expect(started).toBe(numbered.toString().split('},{').length);
	}
	const turns = JSON.stringify({ key: `k${Math.random()}`, perSecond: 20, count: 5 });
	const { request } = requestStream(Buffer.from(turns), 8);
	expect((await call('setup', request)).response.status).toBe(200);
});

it('refuses a body whose gzip is corrupt with 400', async () => {
	const { request } = requestStream(Buffer.from('not gzip at all'), 1024, {
		'content-encoding': 'gzip',
	});
	const { response } = await call('default', request);
	expect(response.status).toBe(400);
	expect(response.body).toMatch(/^\{"error":"Malformed gzip body: .+"\}$/);
});

describe('a callback body nested too deeply is refused with 400, no execution started', () => {
	// Issue 75: n8n answered 500 (a RangeError in a recursive walk) and logged the stack.
	/** An event (one level) holding `levels` more. */
	const nested = (levels: number, open: string, close: string) =>
		`{"id":"msg_1","status":"SENT","a":${open.repeat(levels)}1${close.repeat(levels)}}`;
	it.each([
		['40,000 objects', nested(40_000, '{"a":', '}')],
		['100,000 arrays', nested(100_000, '[', ']')],
		[`${CALLBACK_MAX_DEPTH + 1} levels`, nested(CALLBACK_MAX_DEPTH, '[', ']')],
	])('%s', async (_name, body) => {
		expect(body.length).toBeLessThan(CALLBACK_MAX_BYTES);
		const { request } = requestStream(Buffer.from(body), 16 * 1024);
		const { result, response } = await call('default', request);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(response.status).toBe(400);
		expect(response.body).toBe(
			`{"error":"Callback body nested over ${CALLBACK_MAX_DEPTH} levels deep"}`,
		);
	});

	it(`takes a body ${CALLBACK_MAX_DEPTH} levels deep`, async () => {
		const { request } = requestStream(Buffer.from(nested(CALLBACK_MAX_DEPTH - 1, '[', ']')), 1024);
		const { result } = await call('default', request);
		expect(result.workflowData?.[0]).toHaveLength(1);
	});
});
