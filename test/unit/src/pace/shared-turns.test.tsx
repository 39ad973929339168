/**
 * Share Pace Across Workers is never worse than not sharing (issue 40): a run whose turns do not
 * hold the sender's limit (two boards, a board that changed, refusals) paces alone; its waits for
 * turns and for the board count against its wait budget; a board that fails once is asked again, a
 * board that schedules too far ahead is not followed. In virtual time.
 */
import { RateGate, senderPace } from '../../../../src/pace/gate';
import { TurnBoard } from '../../../../src/pace/board';
import type { TurnRequest } from '../../../../src/pace/board';
import { ASK_TIMEOUT_MS, SharedTurns, TurnsUnavailable } from '../../../../src/pace/shared-turns';
import type { AskTurns } from '../../../../src/pace/shared-turns';
import type { Pace } from '../../../../src/pace/gate';
import { simulateSharedLimit, VirtualClock } from '../../../helpers/virtual-time';

/** A run's gate at the sender's rateLimit 10 taking turns asked with `ask`. */
function sharing(clock: VirtualClock, ask: AskTurns, budgetMs = 60_000) {
	const gate = new RateGate(senderPace(10, undefined), clock);
	gate.waitBudgetMs = budgetMs;
	const reasons: string[] = [];
	gate.turns = new SharedTurns(ask, 'sender', 10, clock, (reason) => reasons.push(reason));
	return { gate, reasons };
}

/** Runs `acquire` to its end in virtual time. */
async function settle<T>(clock: VirtualClock, work: Promise<T>): Promise<T> {
	await clock.runAll();
	return await work;
}

describe('a run whose turns do not hold the limit paces alone, and says why', () => {
	it('turns from two boards (two webhook processes behind a load balancer)', async () => {
		const clock = new VirtualClock();
		const boards = [new TurnBoard(() => clock.now()), new TurnBoard(() => clock.now())];
		let asks = 0;
		const { gate, reasons } = sharing(clock, async (request) => boards[asks++ % 2].take(request));
		for (let i = 0; i < 12; i++) await settle(clock, gate.acquire());
		expect(asks).toBe(2);
		expect(gate.turns?.shared).toBe(false);
		expect(reasons).toEqual([expect.stringMatching(/^the turns came from two boards/)]);
		// Alone, a 429 slows the whole run, as with the option off.
		expect(gate.pausesRequestOnly).toBe(false);
	});

	it('a board that changed its identity (its process restarted)', async () => {
		const clock = new VirtualClock();
		let board = new TurnBoard(() => clock.now());
		const { gate, reasons } = sharing(clock, async (request) => board.take(request));
		await settle(clock, gate.acquire());
		board = new TurnBoard(() => clock.now());
		for (let i = 0; i < 20 && gate.turns?.shared; i++) await settle(clock, gate.acquire());
		expect(reasons).toEqual([expect.stringMatching(/two boards/)]);
	});

	it('three refusals (429) while taking turns: the third slows the whole run, as without sharing', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const { gate, reasons } = sharing(clock, async (request) => board.take(request));
		for (let i = 0; i < 10; i++) await settle(clock, gate.acquire());
		for (let refusal = 1; refusal <= 2; refusal++) {
			expect(gate.backOff(1000, gate.pacer.backOffs)).toBe(true);
			expect(gate.pausesRequestOnly).toBe(true);
			expect(gate.pacer.backOffs).toBe(0);
		}
		expect(gate.backOff(1000, gate.pacer.backOffs)).toBe(true);
		expect(gate.turns?.shared).toBe(false);
		expect(gate.pacer.backOffs).toBe(1);
		expect(gate.pacer.pausedUntil).toBeGreaterThan(clock.now());
		expect(reasons).toEqual([
			expect.stringMatching(/^the platform refused 3 of the 10 messages sent in shared turns/),
		]);
	});
});

describe('waits for turns and for the board are bounded', () => {
	it('a turn wait past Max Wait ends the run at once, not after the wait', async () => {
		const clock = new VirtualClock();
		// Another run holds the next 9 s of turns (within the board's bound).
		const board = new TurnBoard(() => clock.now());
		board.take({ key: 'sender', perSecond: 10, count: 85 });
		const { gate } = sharing(clock, async (request) => board.take(request), 3000);
		const ticket = await settle(clock, gate.acquire());
		expect(ticket).toBeUndefined();
		expect(gate.budgetSpent).toBe(true);
		expect(clock.now()).toBeLessThanOrEqual(3300);
	});

	it('sharing the rate with three other runs costs only the first wait of a run that joins them: less than the 429s of the same runs pacing alone', async () => {
		for (const seed of [1, 2, 3].map((n) => n * 7919)) {
			const scenario = {
				pace: senderPace(10, undefined) as Pace,
				runs: 4,
				messagesPerRun: 200,
				parallel: 10,
				limit: 10,
				seed,
				waitBudgetMs: 5000,
			};
			const shared = await simulateSharedLimit({ ...scenario, sharedTurns: { rttMs: 40 } });
			expect(shared).toMatchObject({ accepted: 800, notSent: 0, refused: 0, pacedAlone: [] });
			const alone = await simulateSharedLimit(scenario);
			expect(alone.refused).toBeGreaterThan(0);
		}
	});

	it('a grant far ahead (an hour) is not followed: the run paces alone at once', async () => {
		const clock = new VirtualClock();
		const { gate, reasons } = sharing(clock, async (request) => ({
			delayMs: 3_600_000,
			spacingMs: 105,
			count: request.count,
			board: 'b',
		}));
		expect(await settle(clock, gate.acquire())).toBe(0);
		// At its own pace: the next slot, one spacing (105 ms at 95 % of 10/s) on.
		expect(clock.now()).toBeLessThanOrEqual(1000 / 9.5 + 1);
		expect(reasons).toEqual([expect.stringMatching(/36\d\d s ahead, beyond the 10 s it may/)]);
	});

	it('a board that fails once is asked again shortly: sharing stays on; each ask waits 5 s at most', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const asks: Array<{ at: number; timeoutMs: number }> = [];
		const { gate, reasons } = sharing(clock, async (request: TurnRequest, timeoutMs) => {
			asks.push({ at: clock.now(), timeoutMs });
			if (asks.length === 1) {
				await clock.sleep(timeoutMs);
				throw new TurnsUnavailable('the trigger could not be reached (timeout)', true);
			}
			return board.take(request);
		});
		for (let i = 0; i < 5; i++) await settle(clock, gate.acquire());
		expect(reasons).toEqual([]);
		expect(gate.turns?.shared).toBe(true);
		expect(asks[0].timeoutMs).toBe(ASK_TIMEOUT_MS);
		expect(ASK_TIMEOUT_MS).toBe(5000);
		expect(asks[1].at).toBe(5000 + 250);
		// The wait for the board that failed counts against the budget, beyond the run's due share.
		expect(gate.lostMs()).toBeGreaterThan(4000);
		expect(gate.lostMs()).toBeLessThan(5250);
	});

	it('a board that keeps failing is asked three times in all, then the run paces alone', async () => {
		const clock = new VirtualClock();
		let asks = 0;
		const { gate, reasons } = sharing(clock, async () => {
			asks++;
			throw new TurnsUnavailable('the trigger answered HTTP 503', true);
		});
		await settle(clock, gate.acquire());
		expect(asks).toBe(3);
		expect(reasons).toEqual(['the trigger answered HTTP 503']);
		expect(clock.now()).toBe(250 + 1000);
	});

	it('a board asked with the budget nearly spent waits only what is left of it (1 s at least)', async () => {
		const clock = new VirtualClock();
		const timeouts: number[] = [];
		const { gate } = sharing(
			clock,
			async (_request, timeoutMs) => {
				timeouts.push(timeoutMs);
				await clock.sleep(timeoutMs);
				throw new TurnsUnavailable('the trigger could not be reached (timeout)', true);
			},
			2000,
		);
		await settle(clock, gate.acquire());
		expect(timeouts[0]).toBe(2000);
		expect(clock.now()).toBeLessThanOrEqual(2200);
	});
});
