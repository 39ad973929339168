import { startSandbox, type RateLimitWindow, type Sandbox } from '../sandbox';
import { call, expectMeta, type CallResult } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const FROM = '15550100';
const USER = '+33612345678';
const OTHER_USER = '+33612345601';
const senderInput = { providerId: 'prov-1', name: 'ACME', address: `+${FROM}`, accountTier: 1 };

const send = (extra: Record<string, unknown> = {}) =>
	call(sandbox, 'POST', '/chatapp/messages', {
		baseUrl: sandbox.baseUrl,
		json: { from: FROM, to: USER, type: 'text', body: 'Hello', ...extra },
	});
const admin = async (method: string, path: string, json?: unknown) => {
	const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: json === undefined ? undefined : JSON.stringify(json),
	});
	return { status: res.status, body: (await res.json()) as any };
};

/**
 * An ACTIVE sender with the given approval options whose window with USER and OTHER_USER is open.
 */
function ready(approve: Parameters<Sandbox['approveSender']>[1] = {}) {
	const sender = sandbox.seedSender(senderInput, { active: true });
	sandbox.approveSender(sender.id, approve);
	for (const user of [USER, OTHER_USER]) sandbox.simulateInbound(user, FROM);
	return sender;
}

/** Freezes the clock and moves it to `ms` (0-999) past a whole second; answers the time. */
function freezeAt(ms: number): number {
	sandbox.clock.freeze();
	sandbox.advanceTime((ms - (sandbox.clock.nowMs() % 1000) + 1000) % 1000);
	const now = sandbox.clock.nowMs();
	expect(now % 1000).toBe(ms);
	return now;
}

/** Sends `n` messages one after the other; answers their HTTP statuses. */
async function sendMany(n: number, extra: Record<string, unknown> = {}): Promise<number[]> {
	const statuses: number[] = [];
	for (let i = 0; i < n; i++) statuses.push((await send(extra)).status);
	return statuses;
}

const ok = (n: number) => Array<number>(n).fill(200);

/** A 429 RATE_LIMITED with this Retry-After and message. */
function expectLimited(res: CallResult, retryAfter: string, message: string | RegExp): void {
	expect(res.status).toBe(429);
	expectMeta(res.body);
	expect(res.headers.get('retry-after')).toBe(retryAfter);
	expect(res.body.error).toEqual({
		status: 429,
		code: 'RATE_LIMITED',
		message: typeof message === 'string' ? message : expect.stringMatching(message),
	});
}

describe("rateLimitWindow 'second' (the default): a fixed window per calendar second of the clock", () => {
	it('is the default, with no burst', () => {
		expect(sandbox.chatappSettings()).toEqual(
			expect.objectContaining({ rateLimitWindow: 'second', rateLimitBurst: null }),
		);
	});

	it('accepts rateLimit at 999 ms of a second and rateLimit more at 1,000 ms', async () => {
		ready({ rateLimit: 3 });
		freezeAt(999);
		expect(await sendMany(3)).toEqual(ok(3));
		expectLimited(
			await send(),
			'1',
			'Sender 15550100 exceeded its rate limit of 3 messages per second; retry after 1 second',
		);
		sandbox.advanceTime(1);
		expect(await sendMany(3)).toEqual(ok(3));
		expectLimited(await send(), '1', /rate limit of 3 messages per second; retry after 1 second$/);
		expect(sandbox.messages()).toHaveLength(6);
	});

	it('counts the whole calendar second: refused at 999 ms after rateLimit at 0 ms', async () => {
		ready({ rateLimit: 2 });
		freezeAt(0);
		expect(await sendMany(2)).toEqual(ok(2));
		sandbox.advanceTime(999);
		expectLimited(await send(), '1', /retry after 1 second$/);
		sandbox.advanceTime(1);
		expect(await sendMany(2)).toEqual(ok(2));
	});
});

describe("rateLimitWindow 'sliding': at most rateLimit in any 1,000 ms ending now", () => {
	beforeEach(() => sandbox.configureChatapp({ rateLimitWindow: 'sliding' }));

	it('accepts rateLimit at t, refuses one more up to t+999 ms and accepts again at t+1000', async () => {
		ready({ rateLimit: 2 });
		freezeAt(250);
		expect(await sendMany(2)).toEqual(ok(2));
		expectLimited(
			await send(),
			'1',
			'Sender 15550100 exceeded its rate limit of 2 messages in any 1000 ms (sliding window); a slot frees in 1000 ms, retry after 1 second',
		);
		sandbox.advanceTime(999);
		// 1 ms left: Retry-After rounds up, never 0
		expectLimited(await send(), '1', /a slot frees in 1 ms, retry after 1 second$/);
		sandbox.advanceTime(1);
		// the refusals at t and t+999 took no slot: both are free again
		expect(await sendMany(2)).toEqual(ok(2));
		expectLimited(await send(), '1', /a slot frees in 1000 ms/);
		expect(sandbox.messages()).toHaveLength(4);
	});

	it('refuses at 1,000 ms what the fixed window accepts: rateLimit at 999 ms of a second, then 1 ms later', async () => {
		ready({ rateLimit: 3 });
		freezeAt(999);
		expect(await sendMany(3)).toEqual(ok(3));
		sandbox.advanceTime(1);
		expectLimited(await send(), '1', /a slot frees in 999 ms, retry after 1 second$/);
		expect(sandbox.messages()).toHaveLength(3);
	});

	it('frees the oldest slot first: messages leave the window one by one, 1,000 ms after each was accepted', async () => {
		ready({ rateLimit: 2 });
		freezeAt(0);
		expect((await send()).status).toBe(200); // t
		sandbox.advanceTime(400);
		expect((await send()).status).toBe(200); // t+400
		sandbox.advanceTime(599);
		expectLimited(await send(), '1', /a slot frees in 1 ms,/); // t+999: t still in the window
		sandbox.advanceTime(1);
		expect((await send()).status).toBe(200); // t+1000: t left, t+400 still in
		expectLimited(await send(), '1', /a slot frees in 400 ms,/); // t+400 leaves at t+1400
		sandbox.advanceTime(399);
		expectLimited(await send(), '1', /a slot frees in 1 ms,/);
		sandbox.advanceTime(1);
		expect((await send()).status).toBe(200); // t+1400
		expectLimited(await send(), '1', /a slot frees in 600 ms,/); // t+1000 leaves at t+2000
	});

	it('keeps each sender to its own window, and a long idle frees every slot', async () => {
		ready({ rateLimit: 2 });
		freezeAt(0);
		expect(await sendMany(2)).toEqual(ok(2));
		expect((await send()).status).toBe(429);
		sandbox.seedSender({ ...senderInput, address: '15550101' }, { active: true });
		sandbox.simulateInbound(USER, '15550101');
		expect((await send({ from: '15550101' })).status).toBe(200);
		sandbox.advanceTime(3_600_000);
		expect(await sendMany(2)).toEqual(ok(2));
		expect((await send()).status).toBe(429);
	});

	it('holds up to rateLimit times per sender over many windows (the slots are reused, not piled up)', async () => {
		ready({ rateLimit: 5 });
		freezeAt(0);
		const statuses: number[] = [];
		// 6 messages every 100 ms for 5 s: the 5 accepted at each whole second leave the window exactly
		// 1,000 ms later
		for (let step = 0; step < 50; step++) {
			statuses.push(...(await sendMany(6)));
			sandbox.advanceTime(100);
		}
		const accepted = sandbox.messages().map((m) => Date.parse(m.createdAt));
		for (let i = 5; i < accepted.length; i++)
			expect(accepted[i] - accepted[i - 5]).toBeGreaterThanOrEqual(1000);
		expect(accepted).toHaveLength(25);
		expect(statuses.filter((s) => s === 429)).toHaveLength(300 - 25);
	});
});

describe("rateLimitWindow 'tokenBucket': a bucket of rateLimitBurst tokens refilled at rateLimit per second", () => {
	it('accepts a burst, then one message per token as the bucket refills at the rate, never above the burst', async () => {
		sandbox.configureChatapp({ rateLimitWindow: 'tokenBucket', rateLimitBurst: 5 });
		ready({ rateLimit: 2 });
		freezeAt(0);
		expect(await sendMany(5)).toEqual(ok(5));
		expectLimited(
			await send(),
			'1',
			'Sender 15550100 exceeded its rate limit of 2 messages per second (token bucket of 5, empty); the next token comes in 500 ms, retry after 1 second',
		);
		sandbox.advanceTime(499);
		expectLimited(await send(), '1', /the next token comes in 1 ms, retry after 1 second$/);
		sandbox.advanceTime(1);
		// the two refusals took no token: the one refilled in 500 ms is there
		expect((await send()).status).toBe(200);
		expectLimited(await send(), '1', /the next token comes in 500 ms,/);
		sandbox.advanceTime(1_000);
		expect(await sendMany(2)).toEqual(ok(2));
		expect((await send()).status).toBe(429);
		sandbox.advanceTime(60_000);
		// a minute of refill fills the bucket to its capacity, not to 120
		expect(await sendMany(5)).toEqual(ok(5));
		expectLimited(await send(), '1', /token bucket of 5, empty\); the next token comes in 500 ms/);
		expect(sandbox.messages()).toHaveLength(13);
	});

	it("holds the sender's rateLimit when rateLimitBurst is not set, refilling 1 token every 1000/rateLimit ms", async () => {
		sandbox.configureChatapp({ rateLimitWindow: 'tokenBucket' });
		ready({ rateLimit: 3 });
		freezeAt(0);
		expect(await sendMany(3)).toEqual(ok(3));
		expectLimited(
			await send(),
			'1',
			/rate limit of 3 messages per second \(token bucket of 3, empty\); the next token comes in 334 ms,/,
		);
		sandbox.advanceTime(333);
		// 333 ms at 3 per second is 0.999 of a token
		expectLimited(await send(), '1', /the next token comes in 1 ms, retry after 1 second$/);
		sandbox.advanceTime(1);
		expect((await send()).status).toBe(200);
		expect((await send()).status).toBe(429);
	});

	it('spreads a burst smaller than the rate: rateLimitBurst 1 at 4 per second is one message every 250 ms', async () => {
		sandbox.configureChatapp({ rateLimitWindow: 'tokenBucket', rateLimitBurst: 1 });
		ready({ rateLimit: 4 });
		freezeAt(0);
		const accepted: number[] = [];
		for (let ms = 0; ms < 1000; ms += 50) {
			if ((await send()).status === 200) accepted.push(ms);
			sandbox.advanceTime(50);
		}
		expect(accepted).toEqual([0, 250, 500, 750]);
	});
});

describe.each<RateLimitWindow>(['second', 'sliding', 'tokenBucket'])(
	"only accepted messages take a slot (rateLimitWindow '%s')",
	(window) => {
		beforeEach(() => sandbox.configureChatapp({ rateLimitWindow: window }));

		it('a message refused by the window, the daily quota or the rate limit itself takes none; a BLACKLISTED one does', async () => {
			ready({ rateLimit: 3, dailyQuota: 1 });
			freezeAt(0);
			expect((await send({ to: '+33612345699' })).status).toBe(403); // outside the conversation window
			expect((await send()).status).toBe(200); // slot 1, USER is the day's recipient
			const quota = await send({ to: OTHER_USER });
			expect([quota.status, quota.body.error.code]).toEqual([429, 'QUOTA_EXCEEDED']);
			sandbox.seedBlacklist({
				to: OTHER_USER,
				reason: 'UNSUBSCRIBED',
				type: 'CHATAPP',
				from: FROM,
			});
			const blacklisted = await send({ to: OTHER_USER });
			expect([blacklisted.status, blacklisted.body.data.status]).toEqual([200, 'BLACKLISTED']); // slot 2
			expect((await send()).status).toBe(200); // slot 3
			for (let i = 0; i < 3; i++) expect((await send()).body.error.code).toBe('RATE_LIMITED');
			// accepted messages move on from QUEUE on the sandbox's own timers: compare what each was
			// when accepted
			expect(
				sandbox
					.messages()
					.map((m) =>
						m.history.some((entry) => entry.status === 'BLACKLISTED')
							? 'BLACKLISTED'
							: m.history[0].status,
					),
			).toEqual(['QUEUE', 'BLACKLISTED', 'QUEUE']);
			// a second later there is room for rateLimit again, whatever the refusals
			sandbox.advanceTime(1_000);
			expect(await sendMany(3)).toEqual(ok(3));
			expect((await send()).status).toBe(429);
		});
	},
);

describe('rateLimitWindow and rateLimitBurst as settings', () => {
	it('are startSandbox options, restored by reset(), and validated there', async () => {
		const other = await startSandbox({ rateLimitWindow: 'tokenBucket', rateLimitBurst: 4 });
		try {
			expect(other.chatappSettings()).toEqual(
				expect.objectContaining({ rateLimitWindow: 'tokenBucket', rateLimitBurst: 4 }),
			);
			other.configureChatapp({ rateLimitWindow: 'sliding', rateLimitBurst: null });
			expect(other.chatappSettings()).toEqual(
				expect.objectContaining({ rateLimitWindow: 'sliding', rateLimitBurst: null }),
			);
			other.reset();
			expect(other.chatappSettings()).toEqual(
				expect.objectContaining({ rateLimitWindow: 'tokenBucket', rateLimitBurst: 4 }),
			);
			// and they apply: a bucket of 4 for a sender allowed 80 per second
			const sender = other.seedSender(senderInput, { active: true });
			other.simulateInbound(USER, FROM);
			other.clock.freeze();
			const statuses: number[] = [];
			for (let i = 0; i < 5; i++) {
				statuses.push(
					(
						await call(other, 'POST', '/chatapp/messages', {
							baseUrl: other.baseUrl,
							json: { from: FROM, to: USER, body: 'Hi' },
						})
					).status,
				);
			}
			expect([sender.rateLimit, statuses]).toEqual([80, [200, 200, 200, 200, 429]]);
		} finally {
			await other.close();
		}
		await expect(startSandbox({ rateLimitWindow: 'leaky' as RateLimitWindow })).rejects.toThrow(
			'rateLimitWindow must be one of "second", "sliding", "tokenBucket" (got "leaky")',
		);
		await expect(startSandbox({ rateLimitBurst: 0 })).rejects.toThrow(
			"rateLimitBurst must be an integer >= 1, or null for the sender's rateLimit (got 0)",
		);
	});

	it('are set through the admin config endpoint, a bad value being 400 naming the field and changing nothing', async () => {
		const set = await admin('POST', '/chatapp/config', { rateLimitWindow: 'sliding' });
		expect(set.status).toBe(200);
		expect(set.body).toEqual(
			expect.objectContaining({
				rateLimitWindow: 'sliding',
				rateLimitBurst: null,
				quotaExceeded: 'reject',
			}),
		);
		expect(
			(
				await admin('POST', '/chatapp/config', {
					rateLimitWindow: 'tokenBucket',
					rateLimitBurst: 2,
				})
			).body,
		).toEqual(expect.objectContaining({ rateLimitWindow: 'tokenBucket', rateLimitBurst: 2 }));
		for (const [body, message] of [
			[
				{ rateLimitWindow: 'Sliding' },
				'rateLimitWindow must be one of "second", "sliding", "tokenBucket" (got "Sliding")',
			],
			[
				{ rateLimitWindow: '' },
				'rateLimitWindow must be one of "second", "sliding", "tokenBucket" (got "")',
			],
			[
				{ rateLimitWindow: null },
				'rateLimitWindow must be one of "second", "sliding", "tokenBucket" (got null)',
			],
			[
				{ rateLimitWindow: 1 },
				'rateLimitWindow must be one of "second", "sliding", "tokenBucket" (got 1)',
			],
			[
				{ rateLimitBurst: 0 },
				"rateLimitBurst must be an integer >= 1, or null for the sender's rateLimit (got 0)",
			],
			[
				{ rateLimitBurst: 2.5 },
				"rateLimitBurst must be an integer >= 1, or null for the sender's rateLimit (got 2.5)",
			],
			[
				{ rateLimitBurst: '3' },
				'rateLimitBurst must be an integer >= 1, or null for the sender\'s rateLimit (got "3")',
			],
			[
				{ rateLimitWindow: 'sliding', rateLimitBurst: -1 },
				"rateLimitBurst must be an integer >= 1, or null for the sender's rateLimit (got -1)",
			],
			[{ rateLimitBurts: 3 }, /unknown field\(s\) rateLimitBurts/],
		] as Array<[unknown, string | RegExp]>) {
			const res = await admin('POST', '/chatapp/config', body);
			expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
			expect(res.body.error.message).toEqual(
				typeof message === 'string' ? message : expect.stringMatching(message),
			);
		}
		const settings = await admin('GET', '/chatapp/config');
		expect(settings.body).toEqual(
			expect.objectContaining({ rateLimitWindow: 'tokenBucket', rateLimitBurst: 2 }),
		);
		expect(
			(await admin('POST', '/chatapp/config', { rateLimitBurst: null })).body.rateLimitBurst,
		).toBeNull();

		// the setting applies over HTTP: sliding refuses at 1,000 ms of a second what was accepted at
		// 999 ms
		await admin('POST', '/chatapp/config', { rateLimitWindow: 'sliding' });
		ready({ rateLimit: 1 });
		freezeAt(999);
		expect((await send()).status).toBe(200);
		sandbox.advanceTime(1);
		expect((await send()).status).toBe(429);
		await admin('POST', '/reset');
		expect((await admin('GET', '/chatapp/config')).body).toEqual(
			expect.objectContaining({ rateLimitWindow: 'second', rateLimitBurst: null }),
		);
	});

	it('switching the window starts every sender afresh (an empty window, a full bucket)', async () => {
		ready({ rateLimit: 2 });
		freezeAt(0);
		expect(await sendMany(2)).toEqual(ok(2));
		expect((await send()).status).toBe(429);
		sandbox.configureChatapp({ rateLimitWindow: 'tokenBucket' });
		expect(await sendMany(2)).toEqual(ok(2));
		expect((await send()).status).toBe(429);
		// a new burst while the bucket is in use applies at once, within the tokens held
		sandbox.configureChatapp({ rateLimitBurst: 1 });
		sandbox.advanceTime(10_000);
		expect((await send()).status).toBe(200);
		expect((await send()).status).toBe(429);
	});
});
