/**
 * Share Pace Across Workers is never worse than not sharing (issue 40): a run whose turns do not
 * hold the sender's limit (two boards, a board that changed, refusals) paces alone; its waits for
 * turns and for the board count against its wait budget; a board that fails once is asked again, a
 * board that schedules too far ahead is not followed. In virtual time.
 */
import { RateGate } from '../../../../src/pace/gate';
import { senderPace } from '../../../../src/pace/pace';
import { PEER_TTL_MS, TurnBoard } from '../../../../src/pace/board';
import type { TurnRequest } from '../../../../src/pace/board';
import {
	ASK_MAX_TIMEOUT_MS,
	ASK_TIMEOUT_MS,
	TurnsUnavailable,
} from '../../../../src/pace/turn-grant';
import type { AskTurns } from '../../../../src/pace/turn-grant';
import type { Pace } from '../../../../src/pace';
import { simulateSharedLimit, VirtualClock } from '../../../helpers/virtual-time';
import type { LimitWindow } from '../../../helpers/virtual-time';

/** A run's gate at the sender's rateLimit 10 taking turns asked with `ask`. */
function sharing(clock: VirtualClock, ask: AskTurns, budgetMs = 60_000) {
	const gate = new RateGate(senderPace(10, undefined), clock);
	gate.waitBudgetMs = budgetMs;
	const reasons: string[] = [];
	gate.shareTurns(ask, 'sender', 10, (reason) => reasons.push(reason));
	return { gate, reasons };
}

/** Runs `acquire` to its end in virtual time. */
async function settle<T>(clock: VirtualClock, work: Promise<T>): Promise<T> {
	await clock.runAll();
	return await work;
}

describe('boards behind a load balancer share the rate through the runs', () => {
	/** Two boards behind a balancer that sends each ask to the next in turn; the asks, recorded. */
	function twoBoards(clock: VirtualClock) {
		const boards = [new TurnBoard(() => clock.now()), new TurnBoard(() => clock.now())];
		const asked: Array<{ board: number; request: TurnRequest }> = [];
		const ask: AskTurns = async (request) => {
			const board = asked.length % 2;
			asked.push({ board, request });
			return boards[board].take(request);
		};
		return { boards, asked, ask };
	}

	it('a run names each board to the other: both hand out half the rate, and the run keeps sharing', async () => {
		const clock = new VirtualClock();
		const { boards, asked, ask } = twoBoards(clock);
		const { gate, reasons } = sharing(clock, ask);
		const starts: number[] = [];
		for (let i = 0; i < 40; i++) {
			await settle(clock, gate.acquire());
			starts.push(clock.now());
		}
		expect(reasons).toEqual([]);
		expect(gate.turns?.shared).toBe(true);
		// The first ask names no board; the second, to the other board, names the first; from then on
		// every ask names both.
		expect(asked[0].request.boards).toBeUndefined();
		expect(asked[1].request.boards).toEqual([boards[0].id]);
		expect(asked.slice(2).every(({ request }) => request.boards?.length === 2)).toBe(true);
		// Once each board heard of the other, each gives half the rate: together the whole, 9.5/s.
		const later = starts.slice(20);
		const rate = (later.length - 1) / ((later[later.length - 1] - later[0]) / 1000);
		expect(rate).toBeGreaterThan(9);
		expect(rate).toBeLessThanOrEqual(9.5 + 1e-6);
		// In any second, at most the rate (10) once the boards know of each other.
		const mostInASecond = Math.max(
			...later.map(
				(start) => later.filter((other) => other >= start && other < start + 1000).length,
			),
		);
		expect(mostInASecond).toBeLessThanOrEqual(10);
	});

	it('a board that does not count the others beside another: the run paces alone', async () => {
		const clock = new VirtualClock();
		const boards = [new TurnBoard(() => clock.now()), new TurnBoard(() => clock.now())];
		let asks = 0;
		// The second board counts only itself, whatever the run tells it.
		const { gate, reasons } = sharing(clock, async (request) => {
			const grant = boards[asks % 2].take(request);
			if (asks++ % 2 === 1) grant.boards = 1;
			return grant;
		});
		for (let i = 0; i < 12; i++) await settle(clock, gate.acquire());
		expect(asks).toBe(2);
		expect(gate.turns?.shared).toBe(false);
		expect(reasons).toEqual([
			expect.stringMatching(
				/^the turns came from 2 webhook processes behind a load balancer, one of which does not share the sender's rate/,
			),
		]);
		// Alone, a 429 slows the whole run, as with the option off.
		expect(gate.pausesRequestOnly).toBe(false);
	});

	it('a board that restarted (a new identity) is told of the old one: half the rate until the old one is forgotten (the run names it 15 s after its last turns, the board 15 s after that)', async () => {
		const clock = new VirtualClock();
		let board = new TurnBoard(() => clock.now());
		const grants: Array<{ boards: number; board: string }> = [];
		const grantTimes: number[] = [];
		const { gate, reasons } = sharing(clock, async (request) => {
			const grant = board.take(request);
			grants.push(grant);
			grantTimes.push(clock.now());
			return grant;
		});
		await settle(clock, gate.acquire());
		const old = board.id;
		board = new TurnBoard(() => clock.now());
		while (clock.now() < 2 * PEER_TTL_MS + 2000) await settle(clock, gate.acquire());
		expect(reasons).toEqual([]);
		const fromNew = grants.filter((grant) => grant.board !== old);
		expect(fromNew[0].boards).toBe(2);
		expect(fromNew[fromNew.length - 1].boards).toBe(1);
		// Half until 15 s after the run last named the old board (15 s after its last grant).
		const halfUntil = grantTimes[grants.lastIndexOf(fromNew.filter((g) => g.boards === 2).pop()!)];
		expect(halfUntil).toBeLessThanOrEqual(2 * PEER_TTL_MS + 1000);
		expect(halfUntil).toBeGreaterThan(PEER_TTL_MS);
	});

	it('three refusals (429) while taking turns, once the boards have heard of each other: the third slows the whole run, as without sharing', async () => {
		const clock = new VirtualClock();
		const { ask } = twoBoards(clock);
		const { gate, reasons } = sharing(clock, ask);
		// Refusals within a second of a second board's first grant are of the time the boards were
		// hearing of each other: not counted.
		await settle(clock, gate.acquire());
		await settle(clock, gate.acquire());
		for (let refusal = 1; refusal <= 3; refusal++) gate.backOff(1000, gate.pacer.backOffs);
		expect(gate.turns?.shared).toBe(true);
		while (clock.now() < 1100) await settle(clock, gate.acquire());
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
			expect.stringMatching(/^the platform refused 3 of the \d+ messages sent in shared turns/),
		]);
	});

	it('one board, the only one the run reaches: its refusals count from the first turn (a balancer that keeps the run on one process hears of no other)', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const { gate, reasons } = sharing(clock, async (request) => board.take(request));
		await settle(clock, gate.acquire());
		for (let refusal = 1; refusal <= 2; refusal++) {
			expect(gate.backOff(1000, gate.pacer.backOffs)).toBe(true);
			expect(gate.turns?.shared).toBe(true);
		}
		expect(gate.backOff(1000, gate.pacer.backOffs)).toBe(true);
		expect(gate.turns?.shared).toBe(false);
		expect(gate.pacer.backOffs).toBe(1);
		expect(reasons).toEqual([
			expect.stringMatching(/^the platform refused 3 of the 1 messages sent in shared turns/),
		]);
	});
});

describe('a busy process', () => {
	it('a request woken over 26 ms after its turn (a busy process) lets it go for the next: the requests waiting for turns do not go together', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		// Another run holds the next second of turns: the run's requests wait for theirs together.
		board.take({ key: 'sender', perSecond: 10, count: 10 });
		const { gate, reasons } = sharing(clock, async (request) => board.take(request));
		const times: number[] = [];
		const all = Array.from({ length: 40 }, async (_, index) => {
			await gate.acquire();
			times.push(clock.now());
			// The process busy for 600 ms at the 11th start: five turns pass meanwhile.
			if (index === 10) clock.time += 600;
		});
		await clock.runAll();
		await Promise.all(all);
		expect(times).toHaveLength(40);
		expect(reasons).toEqual([]);
		// At most the sender's 10 in any second, and no two at once (every start in a turn of its own).
		const most = Math.max(
			...times.map((from) => times.filter((t) => t >= from && t < from + 1000).length),
		);
		expect(most).toBeLessThanOrEqual(10);
		expect(new Set(times).size).toBe(40);
	});
});

describe('a worker always late', () => {
	it('still sends: a request lets one turn go at most', async () => {
		/** Every sleep ends 40 ms late. */
		class LateClock extends VirtualClock {
			async sleep(ms: number): Promise<void> {
				await super.sleep(ms + 40);
			}
		}
		const clock = new LateClock();
		const board = new TurnBoard(() => clock.now());
		// Two runs: each one's turns lie among the other's, ahead of it.
		const gates = [1, 2].map(() => sharing(clock, async (request) => board.take(request)).gate);
		let sent = 0;
		const all = gates.flatMap((gate) =>
			Array.from({ length: 20 }, async () => {
				if ((await gate.acquire()) !== undefined) sent++;
			}),
		);
		await clock.runAll(30_000);
		expect(sent).toBe(40);
		await Promise.all(all);
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
			boards: 1,
			at: clock.now(),
		}));
		expect(await settle(clock, gate.acquire())).toBe(0);
		// At its own pace: the next slot, one spacing (105 ms at 95 % of 10/s) on.
		expect(clock.now()).toBeLessThanOrEqual(1000 / 9.5 + 1);
		expect(reasons).toEqual([expect.stringMatching(/36\d\d s ahead, beyond the 10 s it may/)]);
	});

	it('a board that fails once is asked again shortly: sharing stays on; the first ask waits 5 s', async () => {
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
		expect(asks[1].at).toBe(5000 + 1000);
		// The wait for the board that failed counts against the budget, beyond the run's due share.
		expect(gate.lostMs()).toBeGreaterThan(4000);
		expect(gate.lostMs()).toBeLessThan(6000);
	});

	it('a slow board is given time: each ask waits four times its slowest recent answer, 5 to 20 s, and each attempt twice the last', async () => {
		// How long the board takes for each ask (the last repeats), and the waits the run allows.
		for (const [tookMs, allowed] of [
			[[2000], [ASK_TIMEOUT_MS, 8000, 8000]],
			[[500], [ASK_TIMEOUT_MS, ASK_TIMEOUT_MS, ASK_TIMEOUT_MS]],
			// Slower than 5 s from the first ask: the second attempt waits 10 s and hears it.
			[[8000], [ASK_TIMEOUT_MS, 2 * ASK_TIMEOUT_MS, ASK_MAX_TIMEOUT_MS]],
			// A busier trigger: 12 s is within four times the first 4 s; then the bound.
			[
				[4000, 12_000],
				[ASK_TIMEOUT_MS, 16_000, ASK_MAX_TIMEOUT_MS],
			],
		]) {
			const clock = new VirtualClock();
			const board = new TurnBoard(() => clock.now());
			const timeouts: number[] = [];
			const { gate, reasons } = sharing(
				clock,
				async (request: TurnRequest, timeoutMs) => {
					const took = tookMs[Math.min(timeouts.length, tookMs.length - 1)];
					timeouts.push(Math.round(timeoutMs));
					await clock.sleep(Math.min(took, timeoutMs));
					if (took > timeoutMs)
						throw new TurnsUnavailable('the trigger could not be reached (timeout)', true);
					return board.take(request);
				},
				600_000,
			);
			for (let i = 0; i < 30; i++) await settle(clock, gate.acquire());
			expect({
				tookMs,
				timeouts: timeouts.slice(0, 3),
				reasons,
				shared: gate.turns?.shared,
			}).toEqual({ tookMs, timeouts: allowed, reasons: [], shared: true });
		}
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
		expect(clock.now()).toBe(1000 + 4000);
	});

	it('a run that has not heard a board for over 15 s keeps to an eighth of the rate, not to the share it last heard of', async () => {
		// Four runs asking (three others first); the run's next ask fails after `silentMs`.
		for (const [silentMs, share] of [
			// Alone once the board keeps its share: 5 s after its last turn (4 spacings of 1000 / 9.5 ms
			// in), and 10 s more for the turns the board had given the others before.
			[0, { perSecond: 10 / 4, runs: 4, from: expect.closeTo(15_000 + 4000 / 9.5, 6) }],
			[
				PEER_TTL_MS + 1,
				{ perSecond: 10 / 8, runs: undefined, from: expect.closeTo(15_000 + 4000 / 9.5, 6) },
			],
		] as const) {
			const clock = new VirtualClock();
			const board = new TurnBoard(() => clock.now());
			for (const run of ['a', 'b', 'c'])
				board.take({ key: 'sender', perSecond: 10, count: 1, run });
			const gate = new RateGate(senderPace(10, undefined), clock);
			gate.waitBudgetMs = 600_000;
			const shares: unknown[] = [];
			let asks = 0;
			const ask: AskTurns = async (request) => {
				if (asks++ === 0) return board.take(request);
				await clock.sleep(silentMs);
				throw new TurnsUnavailable('the trigger answered HTTP 404');
			};
			gate.shareTurns(ask, 'sender', 10, (_reason, given) => shares.push(given));
			for (let i = 0; i < 10; i++) await settle(clock, gate.acquire());
			expect(shares).toEqual([share]);
			expect(gate.currentRate).toBeCloseTo(share.perSecond * 0.95, 6);
		}
	});

	it('three runs that lose the trigger beside one that keeps it: the four together stay within the limit in every second', async () => {
		for (let seed = 1; seed <= 8; seed++) {
			let state = seed * 7919;
			const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
			const clock = new VirtualClock();
			const board = new TurnBoard(() => clock.now());
			const starts: number[] = [];
			const warned: Array<{ name: string }> = [];
			// The run that keeps the trigger sends on long after the others have gone alone.
			const run = async (name: string, messages: number, losesAfter = Infinity) => {
				let asks = 0;
				const gate = new RateGate(senderPace(8, undefined), clock, random);
				gate.waitBudgetMs = 600_000;
				gate.shareTurns(
					async (request) => {
						if (++asks > losesAfter) throw new TurnsUnavailable('the trigger answered HTTP 404');
						return board.take(request);
					},
					'sender',
					8,
					(_reason, share) => warned.push({ name, ...share }),
					() => messages,
					random,
				);
				for (let sent = 0; sent < messages; sent++) {
					await gate.acquire();
					starts.push(clock.now());
				}
				expect(gate.turns?.shared).toBe(losesAfter === Infinity);
			};
			await settle(
				clock,
				Promise.all([run('s', 40, 6), run('t', 40, 8), run('u', 200), run('v', 40, 10)]),
			);
			// Each at its share of the four (2/s), from 15 s after its last turn: the board keeps
			// that share out of the turns it gives the run still asking from 5 s after.
			expect(warned.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
				['s', 't', 'v'].map((name) =>
					expect.objectContaining({ name, perSecond: 2, runs: 4, from: expect.any(Number) }),
				),
			);
			expect(starts).toHaveLength(320);
			// Every 1,000 ms from any start (a sliding window, the strictest the platform may count).
			const most = Math.max(
				...starts.map((from) => starts.filter((at) => at >= from && at < from + 1000).length),
			);
			expect({ seed, most }).toEqual({ seed, most: Math.min(most, 8) });
		}
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

describe('two webhook processes, each with its board, behind a load balancer (simulated)', () => {
	const scenario = (runs: number, window: LimitWindow, seed: number) => ({
		pace: senderPace(10, undefined) as Pace,
		runs,
		messagesPerRun: 400 / runs,
		parallel: 4,
		limit: 10,
		window,
		seed,
		waitBudgetMs: 60_000,
	});
	const windows: LimitWindow[] = ['second', 'sliding', 'tokenBucket'];
	const seeds = [1, 2, 3, 4, 5, 6];

	it.each(windows)(
		'four runs, asks spread in turn (%s window): at least 90 % of the limit, at most 2 % answered 429, all sent, never below the same runs with the option off',
		async (window) => {
			for (const seed of seeds) {
				const shared = await simulateSharedLimit({
					...scenario(4, window, seed),
					sharedTurns: { rttMs: 5, boards: 2 },
				});
				const off = await simulateSharedLimit(scenario(4, window, seed));
				expect({ seed, notSent: shared.notSent, duplicates: shared.duplicates }).toEqual({
					seed,
					notSent: 0,
					duplicates: 0,
				});
				expect(shared.utilization).toBeGreaterThanOrEqual(0.9);
				expect(shared.refusedShare).toBeLessThanOrEqual(0.02);
				// Never below the option off, which only a token bucket's first burst lifts above the
				// pace's 95 % (with 4 % refused).
				expect(shared.utilization).toBeGreaterThanOrEqual(Math.min(off.utilization, 0.9));
				expect(shared.refused).toBeLessThanOrEqual(off.refused);
			}
		},
	);

	it('four runs, each ask to a board at random: at least 90 % of the limit over the seeds, never below the option off (or 85 %)', async () => {
		for (const window of windows) {
			let utilization = 0;
			for (const seed of seeds) {
				const shared = await simulateSharedLimit({
					...scenario(4, window, seed),
					sharedTurns: { rttMs: 5, boards: 2, balancer: 'random' },
				});
				const off = await simulateSharedLimit(scenario(4, window, seed));
				expect(shared.notSent).toBe(0);
				expect(shared.utilization).toBeGreaterThanOrEqual(Math.min(off.utilization, 0.85));
				utilization += shared.utilization / seeds.length;
			}
			expect(utilization).toBeGreaterThanOrEqual(0.9);
		}
	});

	it('four runs with Max Wait 5 s: fewer messages left not sent than the same runs with the option off', async () => {
		for (const window of ['second', 'sliding'] as const) {
			let shared = 0;
			let off = 0;
			for (const seed of seeds) {
				const budget = { ...scenario(4, window, seed), waitBudgetMs: 5000 };
				shared += (await simulateSharedLimit({ ...budget, sharedTurns: { rttMs: 5, boards: 2 } }))
					.notSent;
				off += (await simulateSharedLimit(budget)).notSent;
			}
			expect(off).toBeGreaterThan(0);
			expect(shared).toBeLessThan(off);
		}
	});

	it('one run: the two boards give it the whole rate between them (93 %; 95 % alone)', async () => {
		for (const seed of seeds) {
			const shared = await simulateSharedLimit({
				...scenario(1, 'sliding', seed),
				sharedTurns: { rttMs: 5, boards: 2 },
			});
			expect(shared).toMatchObject({ notSent: 0, refused: 0, pacedAlone: [] });
			expect(shared.utilization).toBeGreaterThanOrEqual(0.93);
		}
	});

	it('a balancer that keeps each run on one process (the boards never hear of each other): the runs notice by the 429s and pace alone, all sent', async () => {
		for (const seed of seeds.slice(0, 3)) {
			const shared = await simulateSharedLimit({
				...scenario(4, 'second', seed),
				sharedTurns: { rttMs: 5, boards: 2, balancer: 'sticky' },
			});
			expect(shared.notSent).toBe(0);
			expect(shared.pacedAlone).toHaveLength(4);
			expect(shared.pacedAlone[0]).toMatch(/^the platform refused \d+ of the \d+ messages/);
		}
	});
});
