import type { INodeExecutionData } from 'n8n-workflow';

import type { RecordedRequest } from '../sandbox';
import { sharedPacerCount } from '../../src/pace';
import { outputOf, run, textMessage, useSandbox } from './context';

jest.setTimeout(60_000);

/**
 * Message › Send at the sender's rate: several messages in flight, one pace for the run, a 429
 * slowing the whole run down, and never a message twice. The timing assertions only bound the
 * rate from above (a busy machine makes a run slower, never faster).
 */
const ctx = useSandbox();
const SENDER = '15550100100';

/** An ACTIVE sender with `rateLimit` messages per second and open windows to `count` recipients. */
function sender(count: number, rateLimit?: number) {
	const created = ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	if (rateLimit) ctx.sandbox.approveSender(created.id, { rateLimit });
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

const parameters = (options: Record<string, unknown>) =>
	textMessage({ to: '={{ $json.to }}', options: { externalId: '={{ $json.ref }}', ...options } });
const sends = () =>
	ctx.sandbox.requests.filter((request) => request.path.endsWith('/chatapp/messages'));
/**
 * How many requests arrived before `ms` after `since`, a time taken before the run. A request
 * arrives after the gate let it start, and the gate's first window opens after `since`, so
 * counting from `since` bounds the starts from above whatever a busy machine delays: R per
 * second allows at most R before since + 1 s, 2R before since + 2 s.
 */
const arrivedWithin = (requests: RecordedRequest[], since: number, ms: number) =>
	requests.filter((request) => request.receivedAt < since + ms).length;

function expectEachOnceInOrder(output: INodeExecutionData[], count: number) {
	expect(output.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: count }, (_, item) => ({ item })),
	);
	expect(output.map((item) => item.json.externalId)).toEqual(
		Array.from({ length: count }, (_, i) => `m${i}`),
	);
	expect(output.every((item) => item.json.status === 'QUEUE')).toBe(true);
	const stored = ctx.sandbox.messages().map((message) => message.externalId);
	expect(stored).toHaveLength(count);
	expect(new Set(stored).size).toBe(count);
}

it('keeps several messages in flight but starts no more than Messages per Second in any second', async () => {
	const { items } = sender(20);
	const since = Date.now();
	const output = outputOf(
		await run(ctx.credentials, parameters({ messagesPerSecond: 8, parallelRequests: 4 }), items),
	);
	expectEachOnceInOrder(output, 20);
	const all = sends();
	expect(arrivedWithin(all, since, 1000)).toBeLessThanOrEqual(8);
	expect(arrivedWithin(all, since, 2000)).toBeLessThanOrEqual(16);
	// 20 messages at 8 per second: the 17th cannot start before two seconds have passed.
	expect(all[16].receivedAt - since).toBeGreaterThanOrEqual(2000);
});

it("reads the sender's rateLimit once and paces the run at it", async () => {
	const { id, items } = sender(9, 4);
	const since = Date.now();
	const output = outputOf(
		await run(
			ctx.credentials,
			parameters({ rateLimitSenderId: id, messagesPerSecond: 100, parallelRequests: 5 }),
			items,
		),
	);
	expectEachOnceInOrder(output, 9);
	expect(
		ctx.sandbox.requests
			.filter((request) => request.method === 'GET')
			.map((request) => request.path),
	).toEqual([`/messaging/chatapp/senders/${id}`]);
	// 95 % of 4 per second: bursts of 4, each window 1,053 ms (a refused message, resent, counts
	// again).
	const all = sends();
	expect(arrivedWithin(all, since, 1050)).toBeLessThanOrEqual(4);
	expect(arrivedWithin(all, since, 2100)).toBeLessThanOrEqual(8);
	expect(all[8].receivedAt - since).toBeGreaterThanOrEqual(2100);
});

it('slows the whole run down on 429s and sends every message exactly once', async () => {
	// The platform allows 2 per second; the node is told 20 with 5 in flight, so it is refused until
	// it backs off.
	const { items } = sender(10, 2);
	const output = outputOf(
		await run(ctx.credentials, parameters({ messagesPerSecond: 20, parallelRequests: 5 }), items),
	);
	expectEachOnceInOrder(output, 10);
	const refused = sends().filter((request) => request.status === 429);
	expect(refused.length).toBeGreaterThan(0);
	// Only refused requests were sent again: one accepted request per message.
	const accepted = sends()
		.filter((request) => request.status === 200)
		.map((request) => (request.body as { externalId: string }).externalId);
	expect(accepted.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m${i}`).sort());
}, 120_000);

it("told twice a fixed window's limit (the sandbox dates its answers by the seconds it counts): every message once, no refused message resent before its Retry-After", async () => {
	// 5 per second of the sandbox's clock, 10 asked: refused at the first burst, and again when the
	// first measure (up to twice the limit) is too high; the two refusals' seconds then hold 5 each
	// and the run holds 95 % of 5, starting again when the platform's second ends.
	const { items } = sender(30, 5);
	const output = outputOf(
		await run(ctx.credentials, parameters({ messagesPerSecond: 10, parallelRequests: 2 }), items),
	);
	expectEachOnceInOrder(output, 30);
	const all = sends();
	const refused = all.filter((request) => request.status === 429);
	expect(refused.length).toBeGreaterThan(0);
	for (const refusal of refused) {
		const { externalId } = refusal.body as { externalId: string };
		const next = all.find(
			(request) =>
				request.receivedAt >= refusal.receivedAt &&
				request !== refusal &&
				(request.body as { externalId: string }).externalId === externalId,
		);
		expect(next).toBeDefined();
		expect(next!.receivedAt - refusal.receivedAt).toBeGreaterThanOrEqual(1000);
	}
}, 120_000);

it('waits out a Retry-After of 3 s as one run: nothing new starts during the wait, the refused message is resent once after it', async () => {
	const { items } = sender(8);
	ctx.sandbox.addFault({
		kind: 'rateLimit',
		method: 'POST',
		path: '/chatapp/messages',
		retryAfter: '3',
		times: 1,
	});
	const output = outputOf(
		await run(ctx.credentials, parameters({ messagesPerSecond: 0, parallelRequests: 3 }), items),
	);
	expectEachOnceInOrder(output, 8);
	const all = sends();
	const refused = all.filter((request) => request.status === 429);
	expect(refused).toHaveLength(1); // one refusal, one resend: no more 429s than needed
	const [{ receivedAt: refusedAt, body }] = refused;
	const resends = all.filter(
		(request) =>
			request !== refused[0] &&
			(request.body as { externalId: string }).externalId ===
				(body as { externalId: string }).externalId,
	);
	expect(resends.map((request) => request.status)).toEqual([200]);
	expect(resends[0].receivedAt - refusedAt).toBeGreaterThanOrEqual(3000);
	// The whole run waits, not only the refused message. Only requests already on their way when
	// the 429 came back may arrive during the 3 s: with 3 in flight, the refused one's 2 others at
	// most, however late a busy machine delivers them. Counted, not timed: a run that paused the
	// refused message alone would start the other 5 during the wait.
	const others = all.filter((request) => request !== refused[0]);
	const duringWait = others.filter((request) => request.receivedAt - refusedAt < 3000);
	expect(duringWait.length).toBeLessThanOrEqual(2);
	expect(others.length - duringWait.length).toBeGreaterThanOrEqual(6);
}, 120_000);

it('without Continue On Fail stops starting messages after a refusal, and reports the first failed item', async () => {
	const { items } = sender(6);
	ctx.sandbox.addFault({
		kind: 'status',
		method: 'POST',
		path: '/chatapp/messages',
		status: 400,
		times: 1,
		body: { error: { message: 'nope' } },
	});
	const result = await run(
		ctx.credentials,
		parameters({ messagesPerSecond: 0, parallelRequests: 1 }),
		items,
	);
	expect(result.error?.message).toBe('nope [HTTP 400]');
	expect(sends()).toHaveLength(1);
});

it('refuses bad pacing options before any request', async () => {
	const { items } = sender(2);
	for (const [options, message] of [
		[
			{ messagesPerSecond: -1 },
			'Invalid "Options › Messages per Second" in item 0: it must be 0 (no pacing) or more (got -1)',
		],
		[
			{ parallelRequests: 0 },
			'Invalid "Options › Parallel Requests" in item 0: it must be at least 1 (got 0)',
		],
		[
			{ parallelRequests: 2.5 },
			'Invalid "Options › Parallel Requests" in item 0: a whole number was expected, got 2.5',
		],
		[
			{ rateLimitSenderId: '..' },
			'Invalid "Options › Sender ID for Rate Limit" in item 0: ".." is not a sender ID',
		],
	] as const) {
		const result = await run(ctx.credentials, parameters(options), items);
		expect(result.error?.message).toBe(message);
	}
	expect(ctx.sandbox.requests).toHaveLength(0);
});

it("two runs at the same sender's rateLimit share one pace: together no more than the rate, and the shared pace is given back", async () => {
	const { id, items } = sender(16, 4);
	const since = Date.now();
	const options = { rateLimitSenderId: id, messagesPerSecond: 100, parallelRequests: 4 };
	const [first, second] = await Promise.all([
		run(ctx.credentials, parameters(options), items.slice(0, 8)),
		run(ctx.credentials, parameters(options), items.slice(8)),
	]);
	expect(outputOf(first).map((item) => item.json.status)).toEqual(Array(8).fill('QUEUE'));
	expect(outputOf(second).map((item) => item.json.status)).toEqual(Array(8).fill('QUEUE'));
	// One pace for both at 95 % of 4 per second: at most 4 starts in each 1,053 ms, whichever run
	// they belong to (two runs pacing on their own would start 8 in the first second). Bounds from
	// above: a busy machine only delays.
	const all = sends();
	expect(arrivedWithin(all, since, 1050)).toBeLessThanOrEqual(4);
	expect(arrivedWithin(all, since, 2100)).toBeLessThanOrEqual(8);
	expect(all.length).toBeGreaterThanOrEqual(16);
	expect(all[15].receivedAt - since).toBeGreaterThanOrEqual(3900);
	expect(sharedPacerCount()).toBe(0);
}, 120_000);
