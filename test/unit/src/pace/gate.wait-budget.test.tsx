/**
 * The run's wait budget for rate limits (RateGate.lostMs, waitBudgetMs), in virtual time: every
 * moment a request waits in a 429's pause counts in full, waiting at a pace below the configured
 * one counts in part, waiting at the configured pace does not count, and once the budget is
 * spent no request of the run is sent.
 */
import { rateLimitWaitOption } from '../../../../nodes/AudienceMessaging/runner/descriptions';
import { DEFAULT_WAIT_BUDGET_MS, RateGate } from '../../../../src/pace/gate';
import { VirtualClock } from '../../../helpers/virtual-time';

/**
 * Runs `count` requests through `gate` with `parallel` in flight against a platform answering
 * with `answer(now)` (true: accepted, false: 429 with `retryAfterMs`), each taking `latencyMs`.
 * Resolves with each request's fate and the virtual time the run ended.
 */
async function simulate(
	gate: RateGate,
	clock: VirtualClock,
	options: {
		count: number;
		parallel: number;
		latencyMs: number;
		retryAfterMs: number;
		answer: (now: number) => boolean;
	},
): Promise<{ fates: Array<'sent' | 'notSent'>; endedAt: number; attempts: number }> {
	const fates: Array<'sent' | 'notSent'> = new Array(options.count);
	let next = 0;
	let attempts = 0;
	const worker = async () => {
		while (next < options.count) {
			const index = next++;
			for (;;) {
				const ticket = await gate.acquire();
				if (ticket === undefined) {
					fates[index] = 'notSent';
					break;
				}
				attempts++;
				await clock.sleep(options.latencyMs);
				if (options.answer(clock.now())) {
					gate.succeeded();
					fates[index] = 'sent';
					break;
				}
				if (!gate.backOff(options.retryAfterMs, ticket)) {
					fates[index] = 'notSent';
					break;
				}
			}
		}
	};
	const done = Promise.all(Array.from({ length: options.parallel }, worker));
	await clock.runAll();
	await done;
	return { fates, endedAt: clock.now(), attempts };
}

describe("the run's wait budget", () => {
	it('a platform that answers 429 forever: the run ends when its budget is spent, whatever the pace, every request not sent', async () => {
		for (const [pace, parallel] of [
			[10, 10],
			[0, 4],
			[0.5, 1],
			[{ perSecond: 20, floor: 2.4 }, 10],
		] as const) {
			const clock = new VirtualClock();
			const gate = new RateGate(pace, clock);
			gate.waitBudgetMs = 30_000;
			const { fates, endedAt } = await simulate(gate, clock, {
				count: 1000,
				parallel,
				latencyMs: 80,
				retryAfterMs: 1000,
				answer: () => false,
			});
			expect(fates.every((fate) => fate === 'notSent')).toBe(true);
			// Within the budget (+10 %); it may stop up to one slot early (10 s at the slowest pace)
			// rather than wait past it.
			expect(endedAt).toBeLessThanOrEqual(30_000 * 1.1);
			expect(endedAt).toBeGreaterThanOrEqual(20_000);
			expect(gate.budgetSpent).toBe(true);
			expect(gate.lostMs()).toBeLessThanOrEqual(30_000);
		}
	});

	it('counts the slow pacing after a 429, not only the pauses: a platform that lets nothing through, the rate halved to a request per 10 s, spends it', async () => {
		const clock = new VirtualClock();
		// Retry-After 0: only the slower pacing can spend the budget.
		const gate = new RateGate(10, clock);
		gate.waitBudgetMs = 20_000;
		const { fates, endedAt } = await simulate(gate, clock, {
			count: 400,
			parallel: 10,
			latencyMs: 50,
			retryAfterMs: 0,
			answer: () => false,
		});
		expect(fates.every((fate) => fate === 'notSent')).toBe(true);
		expect(endedAt).toBeLessThanOrEqual(22_000);
		expect(gate.budgetSpent).toBe(true);
		expect(gate.lostMs()).toBeGreaterThan(10_000);
	});

	it('a platform refusing every other request: the pauses spend the budget, the run holds the rate it measured and stops when the budget is spent', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate(10, clock);
		gate.waitBudgetMs = 20_000;
		let answers = 0;
		const { fates, endedAt } = await simulate(gate, clock, {
			count: 400,
			parallel: 10,
			latencyMs: 50,
			retryAfterMs: 1000,
			answer: () => ++answers % 2 === 0,
		});
		const sent = fates.filter((fate) => fate === 'sent').length;
		expect(sent).toBeGreaterThan(0);
		// At 10/s all 400 would have gone in 40 s.
		expect(sent).toBeLessThan(200);
		expect(fates.filter((fate) => fate === 'notSent').length).toBe(400 - sent);
		expect(gate.budgetSpent).toBe(true);
		// Counted until the budget is spent (a slot beyond it is not waited for).
		expect(gate.lostMs()).toBeGreaterThan(12_000);
		// The pauses are the lost time, and about half the run (between them it sends): it ends well
		// before three times its budget.
		expect(endedAt).toBeGreaterThan(20_000);
		expect(endedAt).toBeLessThan(60_000);
	});

	it('waiting at the configured pace is not lost time: 300 requests at 10/s take 30 s with a budget of 1 s', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate(10, clock);
		gate.waitBudgetMs = 1000;
		const { fates, endedAt } = await simulate(gate, clock, {
			count: 300,
			parallel: 10,
			latencyMs: 80,
			retryAfterMs: 1000,
			answer: () => true,
		});
		expect(fates.every((fate) => fate === 'sent')).toBe(true);
		expect(endedAt).toBeGreaterThanOrEqual(29_000);
		expect(gate.lostMs()).toBe(0);
	});

	it('a few 429s cost their pauses and the slower pacing, and the run goes on within its budget', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate(10, clock);
		gate.waitBudgetMs = 10_000;
		// Three refusals, at 2 s, 6 s and 10 s.
		const refuseAt = [2000, 6000, 10_000];
		const { fates } = await simulate(gate, clock, {
			count: 200,
			parallel: 10,
			latencyMs: 50,
			retryAfterMs: 1000,
			answer: (now) => {
				const index = refuseAt.findIndex((at) => now >= at);
				if (index === -1) return true;
				refuseAt.splice(index, 1);
				return false;
			},
		});
		expect(fates.every((fate) => fate === 'sent')).toBe(true);
		const lost = gate.lostMs();
		// At least the three pauses; less than the budget.
		expect(lost).toBeGreaterThanOrEqual(3000);
		expect(lost).toBeLessThan(10_000);
	});

	it('a budget of 0 stops at the first 429; a Retry-After longer than what is left stops at once', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate(0, clock);
		gate.waitBudgetMs = 0;
		const first = await simulate(gate, clock, {
			count: 5,
			parallel: 1,
			latencyMs: 10,
			retryAfterMs: 1000,
			answer: () => false,
		});
		expect(first.fates).toEqual(['notSent', 'notSent', 'notSent', 'notSent', 'notSent']);
		expect(first.attempts).toBe(1);

		const longClock = new VirtualClock();
		const patient = new RateGate(0, longClock);
		patient.waitBudgetMs = 60_000;
		const long = await simulate(patient, longClock, {
			count: 3,
			parallel: 1,
			latencyMs: 10,
			retryAfterMs: 3_600_000,
			answer: () => false,
		});
		expect(long.fates).toEqual(['notSent', 'notSent', 'notSent']);
		expect(long.attempts).toBe(1);
		expect(long.endedAt).toBeLessThan(1000);
	});

	it('an unpaced run whose requests do not wait loses nothing while its rate grows back', async () => {
		const clock = new VirtualClock();
		const gate = new RateGate(0, clock);
		gate.waitBudgetMs = 5000;
		let refused = false;
		// One batch request at a time, each 2 s long; one 429 at the start.
		const { fates } = await simulate(gate, clock, {
			count: 10,
			parallel: 1,
			latencyMs: 2000,
			retryAfterMs: 1000,
			answer: () => {
				if (refused) return true;
				refused = true;
				return false;
			},
		});
		expect(fates.every((fate) => fate === 'sent')).toBe(true);
		expect(gate.lostMs()).toBeLessThanOrEqual(1300);
	});

	it("the option's default in the editor is the budget a run without it gets", () => {
		expect(rateLimitWaitOption().default).toBe(DEFAULT_WAIT_BUDGET_MS / 1000);
		expect(new RateGate(10).waitBudgetMs).toBe(DEFAULT_WAIT_BUDGET_MS);
	});
});
