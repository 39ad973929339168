import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

import type { INodeExecutionData } from 'n8n-workflow';

import { AudienceMessagingCallbackApi } from '../../credentials/AudienceMessagingCallbackApi.credentials';
import { callbackToken } from '../../src/platform/callbacks';
import { paceToken, TurnBoard } from '../../src/pace/board';
import type { TurnGrant } from '../../src/pace/board';
import { runNode } from '../helpers/n8n';
import type { HarnessCredentials, RunNodeResult } from '../helpers/n8n';
import { node, outputOf, textMessage, useSandbox } from './context';

jest.setTimeout(60_000);

/**
 * Message › Send with Share Pace Across Workers: the run asks the trigger's pace webhook (here a
 * plain HTTP server standing for the trigger's process, with the board the trigger keeps) for its
 * turns and sends each message in its turn; when the trigger cannot be asked, the run paces
 * itself alone and says so in an execution hint. The Audience Messaging Trigger's own webhook is
 * tested in a real n8n (test/e2e/queue.e2e.test.tsx).
 */
const ctx = useSandbox();
const SECRET = 'node-test-share-pace-secret-42';
const SENDER = '15550100100';
const callbacksCredential: HarnessCredentials = {
	type: 'audienceMessagingCallbackApi',
	credentialType: new AudienceMessagingCallbackApi(),
	data: { secret: SECRET },
};

interface PaceCall {
	path: string;
	/** The request's URL as the trigger's process received it (its access log keeps it). */
	url: string;
	/** The pace token of the request's header. */
	token: string | undefined;
	/** The request's Connection header. */
	connection: string | undefined;
	body: {
		key: string;
		perSecond: number;
		count: number;
		boards?: string[];
		afterMs?: number;
		left?: number;
	};
	receivedAt: number;
}

/**
 * How the stand-in trigger answers a pace request: with the board's grant (undefined) or as told.
 */
type Answer = (call: PaceCall) => { status: number; body: string } | undefined;

let server: Server;
let triggerBase: string;
let board: TurnBoard;
let answer: Answer;
const paceCalls: PaceCall[] = [];
/** The grants the stand-in trigger's board gave (its default answer). */
const granted: TurnGrant[] = [];
const callbacks: string[] = [];

beforeAll(async () => {
	server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const url = new URL(request.url ?? '/', 'http://localhost');
			if (url.pathname.endsWith('/callbacks')) {
				callbacks.push(url.pathname);
				response.writeHead(200).end('{}');
				return;
			}
			const call: PaceCall = {
				path: url.pathname,
				url: request.url ?? '',
				token: request.headers['x-pace-token'] as string | undefined,
				connection: request.headers.connection,
				body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
				receivedAt: Date.now(),
			};
			paceCalls.push(call);
			const told = answer(call);
			if (told) {
				response.writeHead(told.status, { 'content-type': 'application/json' }).end(told.body);
				return;
			}
			const grant = board.take(call.body);
			granted.push(grant);
			response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(grant));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	triggerBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/5b0f9c3e`;
});

afterAll(async () => await new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
	board = new TurnBoard();
	answer = () => undefined;
	paceCalls.length = 0;
	granted.length = 0;
	callbacks.length = 0;
});

/** An ACTIVE sender limited to `rateLimit`, with open windows to `count` recipients. */
function sender(count: number, rateLimit: number) {
	const created = ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.approveSender(created.id, { rateLimit });
	const recipients = Array.from(
		{ length: count },
		(_, i) => `+3361234${String(i).padStart(4, '0')}`,
	);
	for (const to of recipients) ctx.sandbox.simulateInbound(to, SENDER);
	return {
		id: created.id,
		items: recipients.map((to, i): INodeExecutionData => ({ json: { to, ref: `m${i}` } })),
	};
}

const parameters = (options: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
	textMessage({
		to: '={{ $json.to }}',
		sendToTrigger: true,
		triggerUrl: `${triggerBase}/callbacks`,
		options: { externalId: '={{ $json.ref }}', ...options },
		...extra,
	});
/**
 * The longest the test process (the node and the sandbox share it) stood still during the last
 * run, in ms: a request started on time reaches the sandbox that much late at most, so starts
 * timed at the sandbox may come that much closer together than the node started them.
 */
let worstStallMs = 0;
const run = async (
	options: Record<string, unknown>,
	items: INodeExecutionData[],
	extra: Record<string, unknown> = {},
): Promise<RunNodeResult> => {
	const stalls = monitorEventLoopDelay({ resolution: 10 });
	stalls.enable();
	try {
		return await runNode({
			nodeType: node,
			parameters: parameters(options, extra),
			credentials: ctx.credentials,
			extraCredentials: [callbacksCredential],
			items,
		});
	} finally {
		stalls.disable();
		worstStallMs = stalls.max / 1e6;
	}
};
/** How much closer than the pace two starts timed at the sandbox may come: 300 ms, or a stall. */
const lateness = () => Math.max(300, worstStallMs);
const sends = () =>
	ctx.sandbox.requests.filter((request) => request.path.endsWith('/chatapp/messages'));

function expectAllSentOnce(output: INodeExecutionData[], count: number) {
	expect(output.map((item) => item.json.externalId)).toEqual(
		Array.from({ length: count }, (_, i) => `m${i}`),
	);
	expect(output.every((item) => item.json.status === 'QUEUE')).toBe(true);
	const stored = ctx.sandbox.messages().map((message) => message.externalId);
	expect(new Set(stored).size).toBe(count);
	expect(stored).toHaveLength(count);
}

it("takes each message's turn from the trigger's board, asked with the pace token, after the turns other runs hold", async () => {
	const { id, items } = sender(12, 20);
	// Another worker's run holds the next 20 turns of this sender: 20 × 52.6 ms.
	const key = `${ctx.sandbox.baseUrl} ${id}`;
	const reservedAt = Date.now();
	board.take({ key, perSecond: 20, count: 20 });
	const output = outputOf(
		await run({ rateLimitSenderId: id, sharePace: true, parallelRequests: 10 }, items),
	);
	expectAllSentOnce(output, 12);

	expect(paceCalls.length).toBeGreaterThanOrEqual(1);
	// The first ask names no board; later ones name the one board that answered (its name, no more).
	expect(paceCalls[0].body.boards).toBeUndefined();
	for (const call of paceCalls.slice(1)) expect(call.body.boards).toEqual([board.id]);
	for (const call of paceCalls) {
		expect(call.path).toBe('/webhook/5b0f9c3e/pace');
		// The pace token, not the callbacks' one (which the platform sees), in a header: the URL, which
		// proxies and access logs keep, holds no token (issue 40).
		expect(call.token).toBe(paceToken(SECRET));
		expect(call.url).toBe('/webhook/5b0f9c3e/pace');
		expect(call.token).not.toBe(callbackToken(SECRET));
		// Each ask on a connection of its own, whatever agent n8n's helper uses (this one closes its
		// connections anyway): a balancer spreading connections reaches each board.
		expect(call.connection).toBe('close');
		// A second's worth at 95 % of 20/s at most (the board answers at once here).
		expect(call.body).toEqual({
			key,
			perSecond: 20,
			count: expect.any(Number),
			...(call.body.boards ? { boards: [board.id] } : {}),
			run: expect.stringMatching(/^[\w-]{1,32}$/),
			// How long the answers took back, once measured (the board is in this process: ms).
			...(call.body.afterMs === undefined ? {} : { afterMs: expect.any(Number) }),
			// The messages it will still send after these turns (the board keeps their share, should
			// the run fall silent): none when it asks for its last.
			...(call.body.left === undefined ? {} : { left: expect.any(Number) }),
		});
		expect(call.body.left ?? 0).toBeLessThanOrEqual(12 - call.body.count);
		expect(call.body.afterMs ?? 0).toBeLessThan(1000);
		expect(call.body.count).toBeLessThanOrEqual(19);
	}
	expect(paceCalls[0].body.left).toBe(12 - paceCalls[0].body.count);
	// The first message waits for the turns the other run holds: 1,053 ms from when it took them.
	const all = sends();
	// No turn asked beyond the messages (the one-turn ask that looks for another board aside): none
	// left unused when the run ends. A turn after the last message arrived was never used (a busy
	// machine may also let turns go by, woken late, and ask for others: those are not counted).
	const turns = granted.flatMap((grant) =>
		Array.from({ length: grant.count }, (_, i) => grant.at + grant.delayMs + i * grant.spacingMs),
	);
	expect(turns.filter((at) => at > all[11].receivedAt).length).toBeLessThanOrEqual(1);
	expect(all[0].receivedAt - reservedAt).toBeGreaterThanOrEqual(1050);
	// Turns are 52.6 ms apart: the 12th message goes at least 11 of them after the run's first turn
	// (counted from the board's schedule, not from the first message, which a busy machine may send
	// late: 20-60 ms seen, which made two messages look closer than a turn).
	expect(all[11].receivedAt - reservedAt).toBeGreaterThanOrEqual(1050 + 11 * 52 - 15);
	expect(JSON.stringify(output)).not.toContain(paceToken(SECRET));
});

it('two webhook processes behind a round-robin balancer: the run names each board to the other, each gives half the rate, all sent once, (nearly) none refused', async () => {
	const { id, items } = sender(30, 20);
	const boards = [new TurnBoard(), new TurnBoard()];
	const grants: Array<{ board: string; boards: number }> = [];
	answer = (call) => {
		const grant = boards[(paceCalls.length - 1) % 2].take(call.body);
		grants.push(grant);
		return { status: 200, body: JSON.stringify(grant) };
	};
	const result = await run({ rateLimitSenderId: id, sharePace: true, parallelRequests: 10 }, items);
	expectAllSentOnce(outputOf(result), 30);
	expect(result.hints).toEqual([]);
	// The second ask, to the other board, names the first; from then on both are named, and each
	// board shares the rate with the other.
	expect(paceCalls[1].body.boards).toEqual([boards[0].id]);
	expect(paceCalls.slice(2).every((call) => call.body.boards?.length === 2)).toBe(true);
	expect(grants.slice(1).every((grant) => grant.boards === 2)).toBe(true);
	expect(new Set(grants.map((grant) => grant.board))).toEqual(new Set(boards.map((b) => b.id)));
	// Together the boards hold the sender's rateLimit: none refused (one at most, should a busy
	// machine send a turn late into the sandbox's next second).
	expect(sends().filter((request) => request.status === 429).length).toBeLessThanOrEqual(1);
});

it('pauses only the refused message on a 429 while the run takes shared turns: the others keep their turns', async () => {
	const { id, items } = sender(12, 20);
	ctx.sandbox.addFault({
		kind: 'rateLimit',
		method: 'POST',
		path: '/chatapp/messages',
		retryAfter: '1',
		times: 1,
	});
	const result = await run({ rateLimitSenderId: id, sharePace: true, parallelRequests: 10 }, items);
	expectAllSentOnce(outputOf(result), 12);
	expect(result.hints).toEqual([]);
	const all = sends();
	const refused = all.find((request) => request.status === 429)!;
	const resent = all.find(
		(request) =>
			request.status !== 429 &&
			(request.body as { externalId: string }).externalId ===
				(refused.body as { externalId: string }).externalId,
	)!;
	// Retry-After 1 s (plus up to 20 %) for the refused message...
	expect(resent.receivedAt - refused.receivedAt).toBeGreaterThanOrEqual(1000);
	// ...while others went in their turns during that second (a pause of the whole run would have
	// held them all).
	expect(
		all.filter(
			(request) =>
				request.receivedAt > refused.receivedAt && request.receivedAt < refused.receivedAt + 1000,
		).length,
	).toBeGreaterThanOrEqual(1);
	expect(all).toHaveLength(13);
});

describe('a trigger that cannot give turns leaves the run pacing itself alone, every message sent once, and a hint saying why', () => {
	it.each<[string, Answer, RegExp]>([
		[
			'answers 404 (its workflow not published)',
			() => ({
				status: 404,
				body: '{"code":404,"message":"The requested webhook is not registered."}',
			}),
			/HTTP 404: is its workflow published/,
		],
		[
			'answers 401 (another Callbacks credential)',
			() => ({ status: 401, body: '{"error":"Unknown pace token"}' }),
			/HTTP 401/,
		],
		[
			'answers 200 without a grant',
			() => ({ status: 200, body: '{"received":1,"started":0}' }),
			/pace answer is not one this version reads \(no delayMs.*same version of this package/,
		],
		[
			'answers a count above what was asked',
			(call) => ({
				status: 200,
				body: JSON.stringify({ delayMs: 0, spacingMs: 50, count: call.body.count + 1 }),
			}),
			/count is not a whole number/,
		],
		[
			'answers a grant that names no webhook process',
			(call) => ({
				status: 200,
				body: JSON.stringify({ delayMs: 0, spacingMs: 50, count: call.body.count, boards: 1 }),
			}),
			/\(it names no webhook process\)/,
		],
		['redirects elsewhere', () => ({ status: 302, body: '' }), /HTTP 302/],
	])('%s', async (_name, behaviour, reason) => {
		answer = behaviour;
		const { id, items } = sender(6, 20);
		const result = await run({ rateLimitSenderId: id, sharePace: true }, items);
		expectAllSentOnce(outputOf(result), 6);
		// Asked once: the rest of the run does without.
		expect(paceCalls).toHaveLength(1);
		expect(result.hints).toHaveLength(1);
		expect(result.hints?.[0]).toMatchObject({ type: 'warning', location: 'outputPane' });
		expect(result.hints?.[0].message).toMatch(reason);
		expect(result.hints?.[0].message).toMatch(
			/^Share Pace Across Workers: .* This run paced itself alone/,
		);
		// One stop between the reason and what the run did ("published?. This" read badly).
		expect(result.hints?.[0].message).not.toMatch(/[.?!]\. This run/);
		// The trigger's shared pacing record is a "board" only inside the code.
		expect(result.hints?.[0].message).not.toMatch(/board/i);
		expect(JSON.stringify(result.hints)).not.toContain(paceToken(SECRET));
	});

	it('fails after its first turns, four runs sharing: the run goes on alone at its share, a quarter of the rate', async () => {
		const { id, items } = sender(16, 20);
		// Three runs of other workers asked the board for this sender's turns lately.
		const others = ['w1', 'w2', 'w3'];
		answer = (call) => {
			if (paceCalls.length === 1)
				for (const run of others) board.take({ ...call.body, count: 1, run });
			return paceCalls.length <= 2 ? undefined : { status: 503, body: '{}' };
		};
		const result = await run({ rateLimitSenderId: id, sharePace: true }, items);
		expectAllSentOnce(outputOf(result), 16);
		// The warning docs/rate-limits.md shows for this case, word for word.
		const quoted = /\n((?:> .*\n)+)/
			.exec(readFileSync(join(__dirname, '..', '..', 'docs', 'rate-limits.md'), 'utf8'))?.[1]
			.replace(/\n?> /g, ' ')
			.trim();
		expect(quoted).toMatch(/^Share Pace Across Workers: the trigger answered HTTP 503\./);
		expect(result.hints?.[0].message).toBe(quoted);
		// Alone, its messages start at most 5 a second (95 %: 1,050 ms for the last six), not the
		// sender's 20 (250 ms) or half of it (500 ms). A busy machine may start one late, and the
		// next on its time: the span allows the first of the six 300 ms late, or a stall's length.
		const starts = sends().map((request) => request.receivedAt);
		const alone = starts.slice(-6);
		expect(alone.at(-1)! - alone[0]).toBeGreaterThanOrEqual(5 * (1000 / (5 * 0.95)) - lateness());
	});

	it('is unreachable', async () => {
		const { id, items } = sender(4, 20);
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		const result = await run({ rateLimitSenderId: id, sharePace: true }, items, {
			triggerUrl: `http://127.0.0.1:${port}/webhook/5b0f9c3e/callbacks`,
		});
		expectAllSentOnce(outputOf(result), 4);
		expect(result.hints?.[0].message).toMatch(
			/^Share Pace Across Workers: the trigger could not be reached \(.*ECONNREFUSED.* This run paced itself alone from then on, at most 2\.5 messages per second, the sender's rate limit over 8, as the trigger has not said lately how many runs share it,/,
		);
		// Never told how many runs share the sender, it keeps to an eighth of 20/s (95 %: 421 ms
		// apart, 1,263 ms for the four), not the whole rate (158 ms) or a quarter (632 ms): other
		// runs may be taking the trigger's turns at the whole rate meanwhile. A busy machine may
		// start one late and the next on its time: the span allows the first 300 ms late, or a
		// stall's length (a clean clone with three other test runs on two cores: 839 ms for 1,263).
		const starts = sends().map((request) => request.receivedAt);
		expect(starts).toHaveLength(4);
		expect(starts.at(-1)! - starts[0]).toBeGreaterThanOrEqual(
			3 * (1000 / (2.5 * 0.95)) - lateness(),
		);
		expect(JSON.stringify(result.hints)).not.toContain(paceToken(SECRET));
	});
});

it('takes its turns from the trigger with Send Status Events to a Trigger at No, Only Share Pace Through It: the messages name no callback, no status event comes to the trigger', async () => {
	const { id, items } = sender(6, 20);
	const output = outputOf(
		await run({ rateLimitSenderId: id, sharePace: true }, items, { sendToTrigger: 'paceOnly' }),
	);
	expectAllSentOnce(output, 6);
	expect(paceCalls.length).toBeGreaterThanOrEqual(1);
	expect(paceCalls.every((call) => call.token === paceToken(SECRET))).toBe(true);
	expect(paceCalls.reduce((sum, call) => sum + call.body.count, 0)).toBeGreaterThanOrEqual(6);
	const bodies = sends().map((request) => request.body as { callbacks?: string });
	expect(bodies).toHaveLength(6);
	expect(bodies.filter((body) => body.callbacks)).toEqual([]);
	expect(callbacks).toEqual([]);
});

describe('Share Pace Across Workers is checked before any request', () => {
	it.each<[string, Record<string, unknown>, Record<string, unknown>, string]>([
		[
			'without Sender ID for Rate Limit',
			{ sharePace: true, messagesPerSecond: 20 },
			{},
			`Invalid "Options › Share Pace Across Workers" in item 0: it needs Sender ID for Rate Limit: the runs take turns at that sender's rateLimit`,
		],
		[
			'without Send Status Events to a Trigger',
			{ sharePace: true, rateLimitSenderId: 'snd_1' },
			{ sendToTrigger: false },
			'Invalid "Options › Share Pace Across Workers" in item 0: it needs Send Status Events to a Trigger (Yes, or No, Only Share Pace Through It): the turns come from that Audience Messaging Trigger',
		],
		[
			'with a trigger URL not ending in /callbacks',
			{ sharePace: true, rateLimitSenderId: 'snd_1' },
			{ triggerUrl: 'https://n8n.example.com/webhook/5b0f9c3e/events' },
			`Invalid "Trigger Production URL" in item 0: to share the pace, it must be the trigger's Production URL as the trigger shows it, ending in /callbacks`,
		],
		[
			'given as text that is not a boolean',
			{ sharePace: 'perhaps', rateLimitSenderId: 'snd_1' },
			{},
			'Invalid "Options › Share Pace Across Workers" in item 0',
		],
	])('%s', async (_name, options, extra, message) => {
		const { items } = sender(3, 20);
		const result = await run(options, items, extra);
		expect(result.error?.message).toContain(message);
		expect(ctx.sandbox.requests).toHaveLength(0);
		expect(paceCalls).toHaveLength(0);
	});
});

it('counts the pauses of refused messages against the wait budget while taking shared turns: a platform refusing everything ends the run as not sent', async () => {
	const { id, items } = sender(20, 20);
	ctx.sandbox.addFault({
		kind: 'rateLimit',
		method: 'POST',
		path: '/chatapp/messages',
		retryAfter: '1',
	});
	const result = await runNode({
		nodeType: node,
		parameters: parameters({ rateLimitSenderId: id, sharePace: true, rateLimitWait: 3 }),
		credentials: ctx.credentials,
		extraCredentials: [callbacksCredential],
		items,
		continueOnFail: true,
	});
	const output = outputOf(result);
	expect(output).toHaveLength(20);
	expect(
		output.every(
			(item, index) =>
				item.json.status === 'notSent' && (item.pairedItem as { item: number }).item === index,
		),
	).toBe(true);
	// Each refusal's pause counts in full: the budget of 3 s is spent within about 3 s of the first
	// refusal.
	const all = sends();
	expect(all[all.length - 1].receivedAt - all[0].receivedAt).toBeLessThanOrEqual(3300);
	expect(ctx.sandbox.messages()).toHaveLength(0);
});
