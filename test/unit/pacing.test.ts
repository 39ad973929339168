import { RateGate, senderPace } from '../../src/pacing';
import type { Clock } from '../../src/pacing';

/** A clock whose time moves only when the test says, with sleepers woken in time order. */
class FakeClock implements Clock {
	time = 0;
	private sleepers: Array<{ at: number; wake: () => void }> = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((wake) => this.sleepers.push({ at: this.time + ms, wake }));
	}

	/** Runs until nobody sleeps any more, waking each sleeper at its time. */
	async runAll(): Promise<void> {
		for (;;) {
			await new Promise((resolve) => setImmediate(resolve));
			if (this.sleepers.length === 0) return;
			this.sleepers.sort((a, b) => a.at - b.at);
			const next = this.sleepers.shift()!;
			this.time = Math.max(this.time, next.at);
			next.wake();
		}
	}
}

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
	it('lets requests start at the configured rate, however many wait at once', async () => {
		const clock = new FakeClock();
		const gate = new RateGate(10, clock);
		expect(await starts(gate, clock, 5)).toEqual([0, 100, 200, 300, 400]);
	});

	it('without a rate lets everything start at once', async () => {
		const clock = new FakeClock();
		expect(await starts(new RateGate(0, clock), clock, 4)).toEqual([0, 0, 0, 0]);
	});

	it('a 429 pauses every waiting request, not only the refused one, and halves the pace', async () => {
		const clock = new FakeClock();
		const gate = new RateGate(10, clock);
		// The first request is refused at once with Retry-After 1 s: the other four wait behind the pause.
		const times = await starts(gate, clock, 5, (index) => {
			if (index === 0) gate.backOff(1000);
		});
		expect(times[0]).toBe(0);
		expect(times.slice(1).every((time) => time >= 1000)).toBe(true);
		expect(gate.spacingMs).toBe(200);
		const gaps = times.slice(2).map((time, index) => time - times[index + 1]);
		expect(gaps.every((gap) => gap >= 200)).toBe(true);
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
});

describe("senderPace: the run's pace from the sender's rateLimit", () => {
	it("paces at 95 % of the sender's rate, never at or above it", () => {
		expect(senderPace(10, 100)).toBeCloseTo(9.5);
		expect(senderPace(50, undefined)).toBeCloseTo(47.5);
		expect(senderPace('20', 100)).toBeCloseTo(19);
		expect(senderPace(1, 100)! < 1).toBe(true);
	});

	it('keeps the run at Messages per Second when the sender gives no usable rate', () => {
		for (const missing of [undefined, null, '', 0, -5, 'fast', Number.NaN, true, {}]) expect(senderPace(missing, 8)).toBe(8);
		expect(senderPace(undefined, undefined)).toBeUndefined();
	});
});
