import { rateLimitPauseMs, retryAfterMs } from '../../../../src/http/retry';
import { RateGate } from '../../../../src/pace/gate';
import { PlatformSeconds, platformSecond } from '../../../../src/pace/platform-seconds';
import { simulateSharedLimit, VirtualClock } from '../../../helpers/virtual-time';

/**
 * A limit counted per second of the platform's clock, read from the answers' Date headers
 * (src/pace/platform-seconds.ts): the count of one refusal's second is only a candidate; two
 * refusals that count the same give the limit, and the run then waits for the platform's next
 * second only.
 */

/**
 * The platform's clock runs this far ahead of the run's; a request takes RTT there and back, dated
 * halfway.
 */
const AHEAD_MS = 300;
const RTT = 80;
const dated = (sentAt: number) => ({
	sentAt,
	second: Math.floor((sentAt + RTT / 2 + AHEAD_MS) / 1000),
});

describe('platformSecond', () => {
	it('reads the second an HTTP Date names, and nothing from a missing or unreadable one', () => {
		expect(platformSecond('Wed, 25 Nov 2026 19:33:34 GMT')).toBe(
			Date.UTC(2026, 10, 25, 19, 33, 34) / 1000,
		);
		expect(platformSecond(['Wed, 25 Nov 2026 19:33:34 GMT'])).toBe(
			Date.UTC(2026, 10, 25, 19, 33, 34) / 1000,
		);
		for (const value of [undefined, '', 'yesterday', 42, null])
			expect(platformSecond(value)).toBeUndefined();
	});
});

describe('PlatformSeconds', () => {
	/**
	 * `count` requests accepted at `spacing` ms from `from`, then one refused: what the refusal
	 * gives.
	 */
	function burst(seconds: PlatformSeconds, from: number, count: number, spacing = 25) {
		for (let i = 0; i < count; i++)
			seconds.accepted(dated(from + i * spacing), from + i * spacing + RTT);
		const refusedAt = from + count * spacing;
		return seconds.refused(dated(refusedAt), refusedAt + RTT);
	}
	// Platform second 1 starts at the run's 700 ms: requests sent from 700 − 40 ms on are counted in
	// it.
	const SECOND_1 = 1000 - AHEAD_MS - RTT / 2;

	it('takes a count as the limit only when a second refusal, in another second, counts the same', () => {
		const seconds = new PlatformSeconds();
		expect(burst(seconds, SECOND_1, 20)).toBeUndefined();
		expect(seconds.limit).toBeUndefined();
		expect(burst(seconds, SECOND_1 + 2000, 20)).toBe(20);
		// One more or one fewer (a request at a second's edge may carry the other second's Date) still
		// agrees: the lower is kept.
		expect(burst(seconds, SECOND_1 + 4000, 21)).toBe(20);
	});

	it('takes no limit from two refusals that count differently (a sliding window, a token bucket, other runs)', () => {
		const seconds = new PlatformSeconds();
		burst(seconds, SECOND_1, 20);
		expect(burst(seconds, SECOND_1 + 2000, 25, 20)).toBeUndefined();
		// The last count is the new candidate.
		expect(burst(seconds, SECOND_1 + 4000, 25, 20)).toBe(25);
	});

	it('takes no count from a refusal whose second holds fewer accepted answers than a second before it: not a limit per second', () => {
		const seconds = new PlatformSeconds();
		burst(seconds, SECOND_1, 20);
		// 30 in second 3 (spacing 30 ms: 900 ms), then 5 in second 4 and a refusal there.
		for (let i = 0; i < 30; i++)
			seconds.accepted(dated(SECOND_1 + 2000 + i * 30), SECOND_1 + 2000 + i * 30 + RTT);
		expect(burst(seconds, SECOND_1 + 3000, 5)).toBeUndefined();
		expect(burst(seconds, SECOND_1 + 5000, 5)).toBeUndefined();
	});

	it('forgets what it counted when a refusal has no Date', () => {
		const seconds = new PlatformSeconds();
		burst(seconds, SECOND_1, 20);
		expect(seconds.refused({ sentAt: SECOND_1 + 1500 }, SECOND_1 + 1580)).toBeUndefined();
		expect(burst(seconds, SECOND_1 + 2000, 20)).toBeUndefined();
	});

	it("places the platform's next second on the run's clock no earlier than it starts, and within a round trip of it", () => {
		const seconds = new PlatformSeconds();
		expect(seconds.nextSecondAt(5)).toBeUndefined();
		for (let sentAt = 0; sentAt < 3000; sentAt += 37) seconds.accepted(dated(sentAt), sentAt + RTT);
		for (const second of [1, 2, 7]) {
			const starts = (second + 1) * 1000 - AHEAD_MS;
			const at = seconds.nextSecondAt(second)!;
			// A request started then arrives in the next second or later, never in the full one.
			expect(at).toBeGreaterThanOrEqual(starts - RTT / 2);
			expect(at).toBeLessThanOrEqual(starts + RTT);
		}
	});
});

/**
 * `count` requests answered 25 ms apart, each dated by the platform's clock, then a refusal with a
 * Retry-After of 1 s: what backOff() answers.
 */
function refusing(clock: VirtualClock, gate: RateGate) {
	return (count: number) => {
		const from = clock.time;
		for (let i = 0; i < count; i++) {
			clock.time = from + i * 25 + RTT;
			gate.succeeded(dated(from + i * 25));
		}
		clock.time = from + count * 25 + RTT;
		return gate.backOff(1000, gate.pacer.backOffs, dated(from + count * 25));
	};
}

describe('a run whose refusals agree on a limit per platform second', () => {
	it("holds 95 % of that limit and, the platform's second being full, waits for its next second only; the refused request still waits its Retry-After", () => {
		const clock = new VirtualClock();
		const gate = new RateGate(40, clock);
		const refuse = refusing(clock, gate);
		clock.time = 1000 - AHEAD_MS - RTT / 2;
		expect(refuse(20)).toBe(true);
		// The first refusal: the whole run waits the Retry-After.
		expect(gate.pacer.pausedUntil).toBe(clock.time + 1000);
		clock.time = 3000 - AHEAD_MS - RTT / 2;
		const refusedAt = clock.time + 20 * 25 + RTT;
		expect(refuse(20)).toBe(true);
		// Platform second 3 (the run's 2,700–3,700 ms) held 20 when the second refusal came: the run
		// waits for second 4 only.
		expect(gate.pacer.pausedUntil).toBeGreaterThanOrEqual(3700 - RTT / 2);
		expect(gate.pacer.pausedUntil).toBeLessThanOrEqual(3700 + RTT);
		expect(gate.pacer.pausedUntil).toBeLessThan(refusedAt + 1000);
		expect(gate.currentRate).toBeCloseTo(19, 6);
		// The refused request itself is not sent again before its Retry-After.
		expect(gate.ownWaitMs(refusedAt + 1000)).toBe(refusedAt + 1000 - gate.pacer.pausedUntil);
	});

	it("pauses no longer than a refusal's Retry-After when its Date is an hour ahead (issue 40): the Date is checked before it sets a pause", () => {
		const clock = new VirtualClock();
		const gate = new RateGate(40, clock);
		gate.waitBudgetMs = 60_000;
		const refuse = refusing(clock, gate);
		// Two refusals agree on a limit of 20 per platform second.
		clock.time = 1000 - AHEAD_MS - RTT / 2;
		refuse(20);
		clock.time = 3000 - AHEAD_MS - RTT / 2;
		refuse(20);
		// A request in flight at that refusal is refused too (the same event), dated an hour ahead.
		clock.time += 20;
		const skewed = { sentAt: clock.time - RTT, second: dated(clock.time).second + 3600 };
		expect(gate.backOff(1000, gate.pacer.backOffs - 1, skewed)).toBe(true);
		expect(gate.pacer.pausedUntil).toBeLessThanOrEqual(clock.time + 1000);
		// A refusal of its own, dated an hour ahead, later.
		clock.time = 8000;
		const own = { sentAt: clock.time - RTT, second: dated(clock.time).second + 3600 };
		expect(gate.backOff(1000, gate.pacer.backOffs, own)).toBe(true);
		expect(gate.pacer.pausedUntil).toBeLessThanOrEqual(clock.time + 1000);
		expect(gate.budgetSpent).toBe(false);
		// Retry-After given as a date is read against the answer's own Date, not this machine's clock.
		const date = new Date(Date.UTC(2026, 10, 25, 20, 33, 34));
		const header = (ms: number) => new Date(date.getTime() + ms).toUTCString();
		const hourBehind = date.getTime() - 3_600_000;
		expect(retryAfterMs(header(2000), hourBehind, header(0))).toBe(2000);
		expect(rateLimitPauseMs(header(2000), hourBehind, () => 0, header(0))).toBe(2000);
	});

	// Simulated as the bench does (80–90 ms away, Retry-After 1 s, seeds varying the phase of the
	// platform's seconds).
	it.each([
		{
			date: 'aligned' as const,
			kept: 0.9,
			refused: 0.02,
			why: "its answers' Date names the seconds it counts: the second refusal gives the limit",
		},
		{
			date: 'unaligned' as const,
			kept: 0.72,
			refused: 0.04,
			why: 'it counts seconds other than its Date: the counts never agree, the run measures as without Date',
		},
		{
			date: 'none' as const,
			kept: 0.72,
			refused: 0.04,
			why: 'no Date header: the run measures what went through',
		},
	])(
		'one run told twice the limit of a fixed window, when $why',
		async ({ date, kept, refused }) => {
			for (const seed of [1, 2, 3, 4, 5, 6, 7, 8].map((n) => n * 7919)) {
				const result = await simulateSharedLimit({
					pace: 40,
					runs: 1,
					messagesPerRun: 400,
					parallel: 10,
					limit: 20,
					window: 'second',
					seed,
					date,
				});
				expect(result).toMatchObject({ accepted: 400, duplicates: 0 });
				expect(result.refusedShare).toBeLessThanOrEqual(refused);
				expect(result.utilization).toBeGreaterThan(kept);
			}
		},
	);
});
