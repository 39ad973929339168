import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { AudienceMessagingCallbackApi } from '../../credentials/AudienceMessagingCallbackApi.credentials';
import { answerPace } from '../../nodes/AudienceMessagingTrigger/pace-webhook';
import { callbackToken } from '../../src/platform/callbacks';
import { paceToken } from '../../src/pace/board';
import { runNode } from '../helpers/n8n';
import type { HarnessCredentials, RunNodeResult } from '../helpers/n8n';
import { node, outputOf, textMessage, useSandbox } from './context';

jest.setTimeout(60_000);

/**
 * Share Pace Across Workers within bounds (issue 40): the pace token in a header, taken by the
 * trigger's own pace webhook (nodes/AudienceMessagingTrigger/pace-webhook.ts, here behind a plain
 * HTTP server standing for the trigger's process); a turn wait past Max Wait ends the run within
 * its budget; a grant far ahead is not followed; a trigger that fails once is asked again.
 */
const ctx = useSandbox();
const SECRET = 'node-test-share-bounds-secret-7';
const SENDER = '15550100100';
const callbacksCredential: HarnessCredentials = {
	type: 'audienceMessagingCallbackApi',
	credentialType: new AudienceMessagingCallbackApi(),
	data: { secret: SECRET },
};

interface Received {
	url: string;
	headers: IncomingMessage['headers'];
	body: { count: number };
}
/** How the stand-in answers: as the trigger's pace webhook does (undefined), or as told. */
type Answer = (call: Received) => { status: number; body: unknown } | undefined;

let server: Server;
let base: string;
let answer: Answer;
const received: Received[] = [];

/** The trigger's pace webhook as n8n calls it: the request object, the response, the secret. */
async function trigger(request: IncomingMessage, raw: Buffer, response: ServerResponse) {
	const context = {
		getRequestObject: () => ({ headers: request.headers, rawBody: raw }),
		getNode: () => ({ name: 'Audience Messaging Trigger' }),
	} as unknown as IWebhookFunctions;
	const refuse = (status: number, message: string) => {
		response.writeHead(status, { 'content-type': 'application/json' });
		response.end(JSON.stringify({ error: message }));
		return { noWebhookResponse: true };
	};
	await answerPace(context, {
		secret: SECRET,
		declaredLength: Number(request.headers['content-length']),
		rawBody: async () => raw,
		refuse,
		response: response as unknown as ReturnType<IWebhookFunctions['getResponseObject']>,
	});
}

beforeAll(async () => {
	server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const raw = Buffer.concat(chunks);
			if (request.url?.includes('/callbacks')) return void response.writeHead(200).end('{}');
			const call = { url: request.url ?? '', headers: request.headers, body: JSON.parse(`${raw}`) };
			received.push(call);
			const told = answer(call);
			if (!told) return void trigger(request, raw, response);
			response.writeHead(told.status, { 'content-type': 'application/json' });
			response.end(JSON.stringify(told.body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/5b0f9c3e`;
});
afterAll(async () => await new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
	answer = () => undefined;
	received.length = 0;
});

function sender(count: number, rateLimit: number) {
	const created = ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.approveSender(created.id, { rateLimit });
	const to = Array.from({ length: count }, (_, i) => `+3361235${String(i).padStart(4, '0')}`);
	for (const recipient of to) ctx.sandbox.simulateInbound(recipient, SENDER);
	return {
		id: created.id,
		items: to.map(
			(recipient, i): INodeExecutionData => ({ json: { to: recipient, ref: `b${i}` } }),
		),
	};
}

const send = async (options: Record<string, unknown>, items: INodeExecutionData[]) =>
	await runNode({
		nodeType: node,
		parameters: textMessage({
			to: '={{ $json.to }}',
			sendToTrigger: true,
			triggerUrl: `${base}/callbacks`,
			options: { externalId: '={{ $json.ref }}', sharePace: true, ...options },
		}),
		credentials: ctx.credentials,
		extraCredentials: [callbacksCredential],
		items,
		continueOnFail: true,
	});
const statuses = (result: RunNodeResult) => outputOf(result).map((item) => item.json.status);
const post = async (path: string, headers: Record<string, string>) =>
	await fetch(`${base}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify({ key: 'k', perSecond: 10, count: 1 }),
	});

it("sends the pace token in a header, never in the URL; the trigger's pace webhook takes it there, and refuses the callbacks' token or a token in the URL", async () => {
	const { id, items } = sender(6, 20);
	const result = await send({ rateLimitSenderId: id }, items);
	expect(statuses(result)).toEqual(Array(6).fill('QUEUE'));
	expect(result.hints).toEqual([]);
	expect(received.length).toBeGreaterThanOrEqual(1);
	for (const call of received) {
		expect(call.url).toBe('/webhook/5b0f9c3e/pace');
		expect(call.headers['x-pace-token']).toBe(paceToken(SECRET));
	}
	expect((await post('/pace', { 'x-pace-token': callbackToken(SECRET) })).status).toBe(401);
	expect((await post(`/pace?token=${paceToken(SECRET)}`, {})).status).toBe(401);
	expect((await post('/pace', { 'x-pace-token': paceToken(SECRET) })).status).toBe(200);
});

it('ends the run within Max Wait (+10 %) when its turn is further away than the budget: what was not sent is notSent', async () => {
	const { id, items } = sender(8, 10);
	// Another run's turns fill the board up to its bound: the first free turn is 9.5 s away.
	answer = ({ body }) => ({
		status: 200,
		body: {
			delayMs: 9500,
			spacingMs: 1000 / 9.5,
			count: Math.min(1, body.count),
			board: 'b',
			boards: 1,
			at: Date.now(),
		},
	});
	const started = Date.now();
	const result = await send({ rateLimitSenderId: id, rateLimitWait: 2 }, items);
	expect(Date.now() - started).toBeLessThanOrEqual(2200);
	expect(statuses(result)).toEqual(Array(8).fill('notSent'));
	expect(ctx.sandbox.messages()).toHaveLength(0);
});

it('does not follow a grant far ahead (10 min): the run paces alone at once and says why', async () => {
	const { id, items } = sender(4, 20);
	answer = ({ body }) => ({
		status: 200,
		body: {
			delayMs: 600_000,
			spacingMs: 50,
			count: body.count,
			board: 'b',
			boards: 1,
			at: Date.now(),
		},
	});
	const started = Date.now();
	const result = await send({ rateLimitSenderId: id }, items);
	expect(Date.now() - started).toBeLessThan(10_000);
	expect(statuses(result)).toEqual(Array(4).fill('QUEUE'));
	expect(result.hints?.[0].message).toMatch(
		/^Share Pace Across Workers: the trigger gave turns 600 s ahead, beyond the 10 s it may\. This run paced itself alone/,
	);
});

it('asks a trigger that failed once (HTTP 503) again: sharing stays on, no warning', async () => {
	const { id, items } = sender(6, 20);
	let failed = 0;
	answer = () => (failed++ === 0 ? { status: 503, body: { error: 'restarting' } } : undefined);
	const result = await send({ rateLimitSenderId: id }, items);
	expect(statuses(result)).toEqual(Array(6).fill('QUEUE'));
	expect(result.hints).toEqual([]);
	expect(received.length).toBeGreaterThanOrEqual(2);
});
