/**
 * The trigger's body limits in a real n8n, on the bytes read: a chunked or gzip body is sent a
 * piece at a time and the rest held back; n8n must answer 413 (and close the connection) once the
 * pieces sent pass the webhook's limit, without waiting for the rest (n8n's own reader waits for
 * all of it, up to 16 MB, whatever the limit).
 */
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';

import { CALLBACK_MAX_BYTES, callbackToken } from '../../src/platform/callbacks';
import { PACE_MAX_BYTES, paceToken } from '../../src/pace/board';
import { importCredentials, listExecutions, publishWorkflow, startN8n } from './n8n-harness';
import type { RunningN8n } from './n8n-harness';
import {
	CALLBACKS_CREDENTIAL as CALLBACK_CREDENTIAL,
	callbackTriggerWorkflow,
	usePackageInN8n,
} from './package-setup';
import { eventsOf as eventsOfSize } from '../helpers/callback-bodies';

jest.setTimeout(300_000);

const SECRET = 'e2eBodyLimitSecret_9a3f0c7b';
const WEBHOOK_ID = '0c6e2f4a-8d1b-4f3e-a7c5-9b2d1e0f3a68';
const triggerWorkflow = callbackTriggerWorkflow(
	'amE2eBodyLimit1',
	'e2e: callback body limits',
	WEBHOOK_ID,
	CALLBACK_CREDENTIAL,
);
const ctx = usePackageInN8n('am-e2e-body-limit-', () => [triggerWorkflow]);
let n8n: RunningN8n;
const callbacksUrl = () =>
	`${n8n.url}/webhook/${WEBHOOK_ID}/callbacks?token=${callbackToken(SECRET)}`;
/**
 * The pace token goes in its header; in the query too, where the trigger took it before (these
 * tests are also run against that code, to show its reader waits for the whole body).
 */
const paceUrl = () => `${n8n.url}/webhook/${WEBHOOK_ID}/pace?token=${paceToken(SECRET)}`;
const paceHeaders = () => ({ 'x-pace-token': paceToken(SECRET) });

beforeAll(async () => {
	await importCredentials(ctx.folder, [{ ...CALLBACK_CREDENTIAL, data: { secret: SECRET } }]);
	await publishWorkflow(ctx.folder, triggerWorkflow.id);
	n8n = await startN8n(ctx.folder, {
		// Both webhooks registered before the first request (the /pace one may come a moment later).
		webhooks: [
			{ path: `${WEBHOOK_ID}/callbacks`, method: 'POST' },
			{ path: `${WEBHOOK_ID}/pace`, method: 'POST' },
		],
	});
});

afterAll(async () => {
	await n8n?.stop();
});

/** `body` cut in pieces of `size` bytes. */
const piecesOf = (body: Buffer, size: number) =>
	Array.from({ length: Math.ceil(body.length / size) }, (_, i) =>
		body.subarray(i * size, (i + 1) * size),
	);

/**
 * POSTs `send` as a chunked body, one write per piece, the body ended only with `end`, and resolves
 * with n8n's answer and whether n8n then closed the connection. Rejects when n8n has not answered
 * and closed a minute after the last piece: it is waiting for the rest of the body.
 */
async function post(
	url: string,
	send: Buffer[],
	options: { end?: boolean; headers?: Record<string, string> } = {},
) {
	return await new Promise<{ status: number; body: string; connection: string }>(
		(resolve, reject) => {
			const request = httpRequest(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...options.headers },
			});
			const timer = setTimeout(() => {
				request.destroy();
				reject(new Error(`n8n gave no answer to ${send.length} pieces, the rest held back`));
			}, 60_000);
			request.on('error', (error) => (clearTimeout(timer), reject(error)));
			request.on('response', (response) => {
				let body = '';
				response.setEncoding('utf8').on('data', (text: string) => (body += text));
				response.on('end', () => {
					const answer = { status: response.statusCode ?? 0, body };
					const done = (connection: string) => (
						clearTimeout(timer),
						resolve({ ...answer, connection })
					);
					if (options.end) return done('not watched');
					// The body was not all sent: n8n must close the connection rather than read on.
					if (request.socket?.destroyed) done('closed');
					else request.socket?.on('close', () => done('closed'));
				});
			});
			for (const piece of send) request.write(piece);
			if (options.end) request.end();
		},
	);
}

const event = { id: 'msg_limit', to: '+33612345678', status: 'SENT' };
/** A JSON array of events, `bytes` long or a little more. */
const eventsOf = (bytes: number) => eventsOfSize(event, bytes);

it('answers 413 to a chunked 1 MB pace request once 4 KB and one piece came, without the rest', async () => {
	const pieces = piecesOf(Buffer.alloc(1024 * 1024, 'x'), 1024);
	const answer = await post(paceUrl(), pieces.slice(0, PACE_MAX_BYTES / 1024 + 1), {
		headers: paceHeaders(),
	});
	expect(answer).toEqual({
		status: 413,
		body: `{"error":"Pace request body over ${PACE_MAX_BYTES} bytes"}`,
		connection: 'closed',
	});
});

it('answers 413 to a chunked callback body once 256 KB and one piece came, without the rest', async () => {
	const pieces = piecesOf(eventsOf(1024 * 1024), 16 * 1024);
	const answer = await post(callbacksUrl(), pieces.slice(0, CALLBACK_MAX_BYTES / 16384 + 1));
	expect(answer).toEqual({
		status: 413,
		body: `{"error":"Callback body over ${CALLBACK_MAX_BYTES} bytes"}`,
		connection: 'closed',
	});
});

it('counts a gzip callback body as decoded: its first 1 KB, which decodes to over 256 KB, is enough for 413', async () => {
	const [first] = piecesOf(gzipSync(eventsOf(16 * 1024 * 1024)), 1024);
	const answer = await post(callbacksUrl(), [first], { headers: { 'content-encoding': 'gzip' } });
	expect(answer.status).toBe(413);
	expect(answer.connection).toBe('closed');
});

it('takes chunked and gzip bodies within the limit, one execution each; the refused ones started none', async () => {
	const body = Buffer.from(JSON.stringify(event));
	const chunked = await post(callbacksUrl(), piecesOf(body, 8), { end: true });
	expect(chunked).toMatchObject({ status: 200, body: '{"received":1,"started":1}' });
	// Another message: the same event again would be a repeat, which starts nothing.
	const other = Buffer.from(JSON.stringify({ ...event, id: 'msg_limit_gzip' }));
	const zipped = await post(callbacksUrl(), piecesOf(gzipSync(other), 8), {
		end: true,
		headers: { 'content-encoding': 'gzip' },
	});
	expect(zipped).toMatchObject({ status: 200, body: '{"received":1,"started":1}' });
	const turns = JSON.stringify({ key: 'https://api.example.com e2e', perSecond: 5, count: 1 });
	const pace = await post(paceUrl(), piecesOf(Buffer.from(turns), 8), {
		end: true,
		headers: paceHeaders(),
	});
	expect(pace.status).toBe(200);
	// n8n records an execution before the webhook answers: these two are all there will be.
	let executions = await listExecutions(ctx.folder, triggerWorkflow.id);
	while (executions.some((e) => e.status === 'running' || e.status === 'new')) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		executions = await listExecutions(ctx.folder, triggerWorkflow.id);
	}
	expect(executions.map((e) => [e.status, e.nodeItems['Message Events'][0].messageId])).toEqual([
		['success', 'msg_limit'],
		['success', 'msg_limit_gzip'],
	]);
});
