import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type CallbackDelivery, type Sandbox } from '../sandbox';
import { call, startReceiver, type Receiver } from './test-helpers';

let sandbox: Sandbox;
const receivers: Receiver[] = [];
beforeAll(
	async () => (sandbox = await startSandbox({ callbackDelayMs: 5, callbackRetryDelayMs: 30 })),
);
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());
afterEach(async () => {
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const FROM = '15550100';
const USER = '+33612345678';
const NORMAL = ['QUEUE', 'DEQUEUED', 'SENT', 'DELIVERED', 'READ'];
const ISO_UTC_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function receiver(answer?: (index: number) => number, port?: number): Promise<Receiver> {
	const r = await startReceiver(answer, port);
	receivers.push(r);
	return r;
}

function ready(target: Sandbox = sandbox) {
	const sender = target.seedSender(
		{ providerId: 'p', name: 'ACME', address: FROM, accountTier: 1 },
		{ active: true },
	);
	target.simulateInbound(USER, FROM);
	return sender;
}

async function send(
	callbacks: string,
	extra: Record<string, unknown> = {},
	target: Sandbox = sandbox,
): Promise<string> {
	const res = await call(target, 'POST', '/chatapp/messages', {
		baseUrl: target.baseUrl,
		json: { from: FROM, to: USER, body: 'Hi', callbacks, ...extra },
	});
	expect(res.status).toBe(200);
	return res.body.data.id;
}

const statuses = (r: Receiver) => r.hits.map((h) => h.body.status);
const summary = (deliveries: CallbackDelivery[]) =>
	deliveries.map((d) => [d.status, d.attempt, d.httpStatus, d.ok]);

/**
 * Bounds for waits on events: budgets far above what a busy CI machine needs, never a measure
 * of speed. A bug these tests look for makes the event never happen, not happen late.
 */
const BOUND_MS = 20_000;
const SETTLED = { timeoutMs: BOUND_MS };

async function until(condition: () => boolean, ms = BOUND_MS): Promise<void> {
	for (const start = Date.now(); !condition(); ) {
		if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

/** `promise`, or a rejection naming `what` once `ms` passed without it settling. */
async function within<T>(promise: Promise<T>, what: string, ms = BOUND_MS): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const bound = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
	});
	try {
		return await Promise.race([promise, bound]);
	} finally {
		clearTimeout(timer);
	}
}

describe('status callbacks', () => {
	it('posts QUEUE, DEQUEUED, SENT, DELIVERED, READ in order to every URL, with the platform body', async () => {
		const [a, b] = [await receiver(), await receiver()];
		ready();
		const id = await send(`${a.url}, ${b.url}?token=s3cret`, { externalId: 'ext1' });
		const deliveries = await sandbox.waitForCallbacks(id, SETTLED);

		for (const [r, url] of [
			[a, a.url],
			[b, `${b.url}?token=s3cret`],
		] as const) {
			expect(statuses(r)).toEqual(NORMAL);
			for (const hit of r.hits) {
				expect(Object.keys(hit.body)).toEqual([
					'id',
					'from',
					'to',
					'externalId',
					'campaignId',
					'callback',
					'date',
					'status',
				]);
				expect(hit.body).toEqual({
					id,
					from: FROM,
					to: USER,
					externalId: 'ext1',
					campaignId: null,
					callback: url,
					date: expect.stringMatching(ISO_UTC_MS),
					status: hit.body.status,
				});
				expect(hit.headers['content-type']).toBe('application/json; charset=utf-8');
			}
			const dates = r.hits.map((h) => Date.parse(h.body.date));
			expect([...dates].sort((x, y) => x - y)).toEqual(dates);
		}
		expect(deliveries).toHaveLength(10);
		expect(
			deliveries.every(
				(d) =>
					d.ok &&
					d.attempt === 1 &&
					d.httpStatus === 200 &&
					d.error === undefined &&
					ISO_UTC_MS.test(d.at),
			),
		).toBe(true);
		const [message] = sandbox.messages();
		expect(message.status).toBe('READ');
		expect(message.history.map((h) => h.status)).toEqual(NORMAL);
		expect(message.callbacks).toEqual([a.url, `${b.url}?token=s3cret`]);
		// callback dates are the history dates
		expect(a.hits.map((h) => h.body.date)).toEqual(message.history.map((h) => h.date));
	});

	it('sends externalId null when none was given and each URL once', async () => {
		const a = await receiver();
		ready();
		const id = await send(`${a.url},${a.url}`, {}, sandbox);
		await sandbox.waitForCallbacks(id, SETTLED);
		expect(statuses(a)).toEqual(NORMAL);
		expect(a.hits[0].body.externalId).toBeNull();
	});

	it('retries a receiver answering 500 twice, holding back the next events until QUEUE got its 200', async () => {
		const r = await receiver((i) => (i < 2 ? 500 : 200));
		ready();
		const id = await send(r.url);
		const deliveries = await sandbox.waitForCallbacks(id, SETTLED);
		expect(statuses(r)).toEqual([
			'QUEUE',
			'QUEUE',
			'QUEUE',
			'DEQUEUED',
			'SENT',
			'DELIVERED',
			'READ',
		]);
		expect(summary(deliveries)).toEqual([
			['QUEUE', 1, 500, false],
			['QUEUE', 2, 500, false],
			['QUEUE', 3, 200, true],
			['DEQUEUED', 1, 200, true],
			['SENT', 1, 200, true],
			['DELIVERED', 1, 200, true],
			['READ', 1, 200, true],
		]);
		expect(deliveries[0]).toEqual({
			messageId: id,
			url: r.url,
			status: 'QUEUE',
			attempt: 1,
			httpStatus: 500,
			error: 'HTTP 500',
			ok: false,
			at: expect.stringMatching(ISO_UTC_MS),
		});
		// the message itself progressed on its own schedule
		expect(sandbox.messages()[0].status).toBe('READ');
	});

	it('retries a receiver that is down, then delivers everything once it is up', async () => {
		// Attempts enough (pauses doubling from 30 ms) for however long a busy machine takes to bring
		// the receiver up.
		sandbox.configureChatapp({ callbackMaxAttempts: 20 });
		const probe = await startReceiver();
		const { port, url } = probe;
		await probe.close(); // down
		ready();
		const id = await send(url);
		await until(() => sandbox.callbackDeliveries(id).length >= 1);
		await receiver(undefined, port); // up again
		const deliveries = await sandbox.waitForCallbacks(id, SETTLED);
		expect(deliveries[0]).toEqual(
			expect.objectContaining({
				status: 'QUEUE',
				attempt: 1,
				httpStatus: null,
				ok: false,
				error: expect.stringMatching(/ECONNREFUSED/),
			}),
		);
		const okStatuses = deliveries.filter((d) => d.ok).map((d) => d.status);
		expect(okStatuses).toEqual(NORMAL);
		expect(receivers[0].hits.map((h) => h.body.status)).toEqual(NORMAL);
	});

	it('gives up after callbackMaxAttempts and moves on to the next event', async () => {
		sandbox.configureChatapp({ callbackMaxAttempts: 3, callbackStatuses: ['QUEUE', 'SENT'] });
		const r = await receiver(() => 503);
		ready();
		const id = await send(r.url);
		const deliveries = await sandbox.waitForCallbacks(id, SETTLED);
		expect(summary(deliveries)).toEqual([
			['QUEUE', 1, 503, false],
			['QUEUE', 2, 503, false],
			['QUEUE', 3, 503, false],
			['SENT', 1, 503, false],
			['SENT', 2, 503, false],
			['SENT', 3, 503, false],
		]);
		// retry pauses double: 30 ms then 60 ms
		const at = (i: number) => Date.parse(deliveries[i].at);
		expect(at(1) - at(0)).toBeGreaterThanOrEqual(25);
		expect(at(2) - at(1)).toBeGreaterThanOrEqual(55);
	});

	it('does not retry 4xx answers other than 408 and 429', async () => {
		sandbox.configureChatapp({ callbackStatuses: ['QUEUE', 'SENT'] });
		const gone = await receiver(() => 404);
		const busy = await receiver((i) => (i === 0 ? 429 : i === 1 ? 408 : 200));
		ready();
		const id = await send(`${gone.url},${busy.url}`);
		const deliveries = await sandbox.waitForCallbacks(id, SETTLED);
		expect(summary(deliveries.filter((d) => d.url === gone.url))).toEqual([
			['QUEUE', 1, 404, false],
			['SENT', 1, 404, false],
		]);
		expect(summary(deliveries.filter((d) => d.url === busy.url))).toEqual([
			['QUEUE', 1, 429, false],
			['QUEUE', 2, 408, false],
			['QUEUE', 3, 200, true],
			['SENT', 1, 200, true],
		]);
	});

	it('posts QUEUE then BLACKLISTED for a blacklisted recipient', async () => {
		const r = await receiver();
		ready();
		sandbox.seedBlacklist({ to: USER, reason: 'UNSUBSCRIBED', type: 'CHATAPP', from: `+${FROM}` });
		const id = await send(r.url);
		await sandbox.waitForCallbacks(id, SETTLED);
		expect(statuses(r)).toEqual(['QUEUE', 'BLACKLISTED']);
		expect(r.hits[0].body.date).toBe(r.hits[1].body.date);
	});

	it('stops at SENT when callbackStatuses says so (read receipts off)', async () => {
		sandbox.configureChatapp({ callbackStatuses: ['QUEUE', 'DEQUEUED', 'SENT'] });
		const r = await receiver();
		ready();
		const id = await send(r.url);
		await sandbox.waitForCallbacks(id, SETTLED);
		expect(statuses(r)).toEqual(['QUEUE', 'DEQUEUED', 'SENT']);
		expect(sandbox.messages()[0].status).toBe('SENT');
	});

	it('progresses messages without callbacks too', async () => {
		ready();
		const id = await send(undefined as unknown as string);
		expect(await sandbox.waitForCallbacks(id, SETTLED)).toEqual([]);
		expect(sandbox.messages()[0].history.map((h) => h.status)).toEqual(NORMAL);
	});

	it('lists attempts and waits through the admin endpoints', async () => {
		const r = await receiver();
		ready();
		const id = await send(r.url);
		const waited = await fetch(`${sandbox.url}/__sandbox/callbacks/wait`, {
			method: 'POST',
			body: JSON.stringify({ messageId: id, timeoutMs: BOUND_MS }),
		});
		expect(waited.status).toBe(200);
		const body = (await waited.json()) as { done: boolean; deliveries: CallbackDelivery[] };
		expect(body.done).toBe(true);
		expect(body.deliveries.map((d) => d.status)).toEqual(NORMAL);
		const listed = await (await fetch(`${sandbox.url}/__sandbox/callbacks?messageId=${id}`)).json();
		expect(listed).toEqual(sandbox.callbackDeliveries(id));
		expect(
			await (await fetch(`${sandbox.url}/__sandbox/callbacks?messageId=msg_other`)).json(),
		).toEqual([]);
		expect(sandbox.requests.map((req) => req.path)).toEqual(['/messaging/chatapp/messages']);
	});

	it('rejects waitForCallbacks after timeoutMs while deliveries are pending; reset stops them', async () => {
		// The first retry is 10 minutes away: the message stays pending far beyond any wait here.
		sandbox.configureChatapp({ callbackRetryDelayMs: 600_000 });
		const r = await receiver(() => 500);
		ready();
		const id = await send(r.url);
		await expect(sandbox.waitForCallbacks(id, { timeoutMs: 100 })).rejects.toThrow(
			`waitForCallbacks timed out after 100 ms: status steps or deliveries still pending for message ${id}`,
		);
		const timeout = await fetch(`${sandbox.url}/__sandbox/callbacks/wait`, {
			method: 'POST',
			body: JSON.stringify({ timeoutMs: 50 }),
		});
		expect(timeout.status).toBe(408);
		sandbox.reset();
		expect(sandbox.callbackDeliveries()).toEqual([]);
		expect(await sandbox.waitForCallbacks(undefined, { timeoutMs: 100 })).toEqual([]);
		const hits = r.hits.length;
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(r.hits.length).toBe(hits);
		expect(sandbox.callbackDeliveries()).toEqual([]);
	});
});

describe('start options', () => {
	it("quotaExceeded 'status' posts QUEUE then QUOTA_EXCEEDED", async () => {
		const own = await startSandbox({ quotaExceeded: 'status', callbackDelayMs: 0 });
		try {
			const r = await receiver();
			const sender = ready(own);
			own.approveSender(sender.id, { dailyQuota: 1 });
			own.simulateInbound('+33612345601', FROM);
			await send(r.url, {}, own);
			const id = await send(r.url, { to: '+33612345601' }, own);
			await own.waitForCallbacks(undefined, SETTLED);
			expect(r.hits.filter((h) => h.body.id === id).map((h) => h.body.status)).toEqual([
				'QUEUE',
				'QUOTA_EXCEEDED',
			]);
			expect(own.messages()[1].status).toBe('QUOTA_EXCEEDED');
		} finally {
			await own.close();
		}
	});

	it('refuses invalid chat-app options', async () => {
		await expect(startSandbox({ quotaExceeded: 'maybe' as 'status' })).rejects.toThrow(
			'quotaExceeded must be "reject" or "status" (got "maybe")',
		);
		await expect(startSandbox({ callbackMaxAttempts: 0 })).rejects.toThrow(
			'callbackMaxAttempts must be an integer >= 1 (got 0)',
		);
	});

	it('close() cuts a delivery waiting on a receiver that never answers', async () => {
		const pending: http.ServerResponse[] = [];
		const hanging = http.createServer((_req, res) => void pending.push(res));
		await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
		// The attempt would wait 10 minutes for an answer that never comes: only close() can end it.
		const own = await startSandbox({ callbackTimeoutMs: 600_000 });
		try {
			ready(own);
			const id = await send(url, {}, own);
			await until(() => pending.length === 1);
			const cut = new Promise((resolve) => pending[0].once('close', resolve));
			const waiting = own.waitForCallbacks(id, { timeoutMs: 600_000 });
			// Events, not a stopwatch: close() ends, the receiver sees the connection go, the waiter
			// resolves. Without the cut, all three would wait on the receiver, which never answers.
			await within(own.close(), 'close()');
			await within(cut, 'the receiver seeing the delivery cut');
			expect(await within(waiting, 'waitForCallbacks resolving')).toEqual([]);
		} finally {
			hanging.closeAllConnections();
			await new Promise((resolve) => hanging.close(resolve));
		}
	});

	it('times an attempt out after callbackTimeoutMs and retries it', async () => {
		let seen = 0;
		const slow = http.createServer((_req, res) => {
			if (seen++ === 0) return; // the first request it gets never gets an answer
			res.writeHead(204).end();
		});
		await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`;
		const own = await startSandbox({
			callbackTimeoutMs: 1_000,
			callbackRetryDelayMs: 10,
			callbackMaxAttempts: 10,
			callbackDelayMs: 0,
			callbackStatuses: ['QUEUE'],
		});
		try {
			ready(own);
			const id = await send(url, {}, own);
			const deliveries = await own.waitForCallbacks(id, SETTLED);
			// Timed out, then answered. A busy machine may also time an attempt out before the receiver
			// got it (which then leaves the next one unanswered): more timeouts, never another failure.
			const [last] = deliveries.slice(-1);
			const timedOut = deliveries.slice(0, -1);
			expect(timedOut.length).toBeGreaterThanOrEqual(1);
			expect(summary(timedOut)).toEqual(timedOut.map((_d, i) => ['QUEUE', i + 1, null, false]));
			expect(timedOut.map((d) => d.error)).toEqual(timedOut.map(() => 'no answer within 1000 ms'));
			expect(summary([last])).toEqual([['QUEUE', deliveries.length, 204, true]]);
			expect(seen).toBeGreaterThanOrEqual(2);
		} finally {
			await own.close();
			slow.closeAllConnections();
			await new Promise((resolve) => slow.close(resolve));
		}
	});
});
