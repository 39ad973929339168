import { RateGate, SENDER_SHARERS, senderPace } from '../../src/pacing';
import { simulateSharedLimit, VirtualClock as FakeClock } from '../helpers/virtual-time';

/** Starts `count` acquires at once (as parallel requests would) and records when each was let through. */
async function starts(gate: RateGate, clock: FakeClock, count: number, during?: (index: number) => void): Promise<number[]> {
	const times: number[] = [];
	const all = Array.from({ length: count }, async (_, index) => {
		await gate.acquire();
		times.push(clock.now());
		during?.(index);
	});
	await clock.runAll();
	await Promise.all(all);
	return times;
}

describe('RateGate', () => {
	it("lets a second's worth of requests start together, then the next second's, however many wait at once", async () => {
		const clock = new FakeClock();
		const gate = new RateGate(10, clock);
		expect(await starts(gate, clock, 25)).toEqual([...Array(10).fill(0), ...Array(10).fill(1000), ...Array(5).fill(2000)]);
		expect(gate.limit).toEqual({ burst: 10, windowMs: 1000 });
	});

	it('spaces a fractional rate evenly: its bursts would put more than the rate into a second', async () => {
		const clock = new FakeClock();
		const gate = new RateGate(2.5, clock);
		expect(gate.limit).toEqual({ burst: 1, windowMs: 400 });
		expect(await starts(gate, clock, 4)).toEqual([0, 400, 800, 1200]);
		const slower = new FakeClock();
		expect(await starts(new RateGate(0.5, slower), slower, 3)).toEqual([0, 2000, 4000]);
		const fast = new FakeClock();
		const times = await starts(new RateGate(47.5, fast), fast, 100);
		expect(Math.max(...times.map((from) => times.filter((time) => time >= from && time < from + 1000).length))).toBe(48);
		expect(Math.max(...times)).toBeCloseTo((99 * 1000) / 47.5, 0);
	});

	it('without a rate lets everything start at once', async () => {
		const clock = new FakeClock();
		expect(await starts(new RateGate(0, clock), clock, 4)).toEqual([0, 0, 0, 0]);
	});

	it('a 429 pauses every waiting request, not only the refused one, and halves the pace', async () => {
		const clock = new FakeClock();
		const gate = new RateGate(2, clock);
		// The first request is refused at once with Retry-After 1.5 s: the four behind the first second's two wait out the pause.
		const times = await starts(gate, clock, 6, (index) => {
			if (index === 0) gate.backOff(1500);
		});
		expect(times.slice(0, 2)).toEqual([0, 0]);
		expect(times.slice(2).every((time) => time >= 1500)).toBe(true);
		expect(gate.limit).toEqual({ burst: 1, windowMs: 1000 });
		expect(gate.spacingMs).toBe(1000);
		// At the halved rate: one start per second, however many wait.
		const later = times.slice(2);
		expect(later.slice(1).map((time, index) => time - later[index])).toEqual([1000, 1000, 1000]);
	});

	it('after a 429 the run starts evenly spaced, at the halved rate', async () => {
		const clock = new FakeClock();
		const gate = new RateGate(20, clock);
		expect(gate.limit).toEqual({ burst: 20, windowMs: 1000 });
		gate.backOff(0);
		expect(gate.limit).toEqual({ burst: 1, windowMs: 100 });
		gate.backOff(0);
		gate.backOff(0);
		expect(gate.limit).toEqual({ burst: 1, windowMs: 400 });
		expect(await starts(gate, clock, 3)).toEqual([0, 400, 800]);
		// Recovered to the configured rate, still evenly spaced: the refusal said the limit is shared or nearer.
		for (let i = 0; i < 50; i++) gate.succeeded();
		expect(gate.limit).toEqual({ burst: 1, windowMs: 50 });
	});

	it('the refusals of requests already in flight at the first 429 are one event: the rate halves once, the pause holds for all', async () => {
		const clock = new FakeClock();
		const gate = new RateGate(40, clock);
		const tickets = await Promise.all(Array.from({ length: 10 }, async () => await gate.acquire()));
		// All ten were refused: the first halves the rate (to at most 10/s), the other nine only extend the pause.
		for (const [index, ticket] of tickets.entries()) {
			clock.time = index * 10;
			gate.backOff(1000, ticket);
		}
		expect(gate.spacingMs).toBe(100);
		const resent = await starts(gate, clock, 3);
		expect(Math.min(...resent)).toBeGreaterThanOrEqual(1090);
		// A request that started after the back-off and is refused again halves the rate again.
		const [ticket] = await Promise.all([gate.acquire(), clock.runAll()]);
		gate.backOff(0, ticket);
		expect(gate.spacingMs).toBe(200);
		// Without a ticket (a caller that does not know when its request started) every refusal counts.
		gate.backOff(0);
		expect(gate.spacingMs).toBe(400);
	});

	it('recovers the configured pace after successes, never beyond it', () => {
		const gate = new RateGate(10, new FakeClock());
		gate.backOff(0);
		gate.backOff(0);
		expect(gate.spacingMs).toBe(400);
		for (let i = 0; i < 50; i++) gate.succeeded();
		expect(gate.spacingMs).toBe(100);
	});

	it('an unpaced run gets a pace after a 429 and loses it again', () => {
		const gate = new RateGate(undefined, new FakeClock());
		gate.backOff(1000);
		expect(gate.spacingMs).toBe(100);
		for (let i = 0; i < 100; i++) gate.succeeded();
		expect(gate.spacingMs).toBe(0);
	});

	it('never backs off slower than one request per 10 s', () => {
		const gate = new RateGate(1, new FakeClock());
		for (let i = 0; i < 10; i++) gate.backOff(0);
		expect(gate.spacingMs).toBe(10_000);
	});

	it("backs a run paced at its sender's rate off to no less than an eighth of it: the limit is shared by the runs sending from it", () => {
		const gate = new RateGate(senderPace(10, undefined), new FakeClock());
		for (let i = 0; i < 10; i++) gate.backOff(0);
		expect(gate.spacingMs).toBeCloseTo(1000 / (9.5 / 8), 6);
		// A rate the user typed may be far above the platform's: such a run still backs off to one request per 10 s.
		const typed = new RateGate(50, new FakeClock());
		for (let i = 0; i < 10; i++) typed.backOff(0);
		expect(typed.spacingMs).toBe(10_000);
	});

	it("after a back-off's pause the rate at least doubles each second without a 429, not only by 10 % per success", () => {
		const clock = new FakeClock();
		const gate = new RateGate(20, clock);
		gate.backOff(1000);
		for (let i = 0; i < 3; i++) gate.backOff(0);
		expect(gate.spacingMs).toBe(800);
		// Within the pause: 10 % per success.
		clock.time = 500;
		gate.succeeded();
		expect(gate.spacingMs).toBeCloseTo(720, 6);
		// Two seconds after the pause ended: 1.25/s × 2² = 5/s.
		clock.time = 3000;
		gate.succeeded();
		expect(gate.spacingMs).toBe(200);
		// Never beyond the configured rate.
		clock.time = 10_000;
		gate.succeeded();
		expect(gate.spacingMs).toBe(50);
	});
});

/**
 * Executions on queue-mode workers share one sender's limit without knowing of each other. In
 * virtual time, against a platform counting per second of its clock (80–90 ms away, Retry-After
 * 1 s), each run paced by its own gate as the node paces it; seeds vary start offsets and latency.
 */
describe('several runs sharing one sender', () => {
	const seeds = [1, 2, 3, 4, 5].map((seed) => seed * 7919);

	it('whole shares of its limit are never refused (four runs at 3/s, a 12/s sender)', async () => {
		for (const seed of seeds) {
			const result = await simulateSharedLimit({ pace: 3, runs: 4, messagesPerRun: 60, parallel: 10, limit: 12, seed });
			expect(result).toMatchObject({ accepted: 240, refused: 0, duplicates: 0 });
			expect(result.utilization).toBeGreaterThan(0.95);
		}
	});

	it.each([2, 4, 8])("%i runs each paced at the sender's full rate lose nothing, send nothing twice, and together reach most of its limit", async (runs) => {
		for (const seed of seeds) {
			const result = await simulateSharedLimit({ pace: senderPace(10, undefined)!, runs, messagesPerRun: 400 / runs, parallel: 10, limit: 10, seed });
			expect(result).toMatchObject({ accepted: 400, duplicates: 0 });
			expect(result.refused).toBeGreaterThan(0);
			// Backed off to a crawl, one run of two reached 15 % of the limit, four 23 %.
			expect(result.utilization).toBeGreaterThan(0.65);
			// Far from the 60 refusals of one message that Rate Limit Wait allows (60 s of Retry-After 1 s).
			expect(result.mostRefusalsOfOne).toBeLessThan(20);
		}
	});

	it('a fractional share of its limit reaches at least 90 % of it (four runs at 2.5/s, a 10/s sender)', async () => {
		for (const seed of seeds) {
			const result = await simulateSharedLimit({ pace: 2.5, runs: 4, messagesPerRun: 100, parallel: 10, limit: 10, seed });
			expect(result).toMatchObject({ accepted: 400, duplicates: 0 });
			expect(result.utilization).toBeGreaterThan(0.9);
		}
	});
});

describe("senderPace: the run's pace from the sender's rateLimit", () => {
	it("paces at 95 % of the sender's rate in bursts of the whole rate, each window a little over a second", async () => {
		expect(senderPace(10, 100)).toEqual({ perSecond: 9.5, burst: 10, floor: 9.5 / SENDER_SHARERS });
		expect(senderPace('20', 100)).toEqual({ perSecond: 19, burst: 20, floor: 19 / SENDER_SHARERS });
		expect(senderPace(2.5, 100)).toEqual({ perSecond: 2.375, burst: 2, floor: 2.375 / SENDER_SHARERS });
		const clock = new FakeClock();
		const gate = new RateGate(senderPace(50, undefined), clock);
		expect(gate.limit.burst).toBe(50);
		expect(gate.limit.windowMs).toBeCloseTo(1052.6, 1);
		const times = await starts(gate, clock, 120);
		// No second holds more than 50, and two bursts are 52 ms further apart than a second: the jitter they tolerate.
		expect(Math.max(...times.map((from) => times.filter((time) => time >= from && time < from + 1052).length))).toBe(50);
		expect(times[50] - times[0]).toBeCloseTo(1052.6, 1);
		// A fractional limit: whole requests per second under it, never a window under a second.
		expect(new RateGate(senderPace(2.5, undefined), new FakeClock()).limit).toEqual({ burst: 2, windowMs: 1000 });
	});

	it('keeps the run at Messages per Second when the sender gives no usable rate', () => {
		for (const missing of [undefined, null, '', 0, -5, 'fast', Number.NaN, true, {}]) expect(senderPace(missing, 8)).toBe(8);
		expect(senderPace(undefined, undefined)).toBeUndefined();
	});
});
