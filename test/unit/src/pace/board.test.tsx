/**
 * The board of turns the Audience Messaging Trigger keeps for Share Pace Across Workers, and a
 * run's side of it (SharedTurns), in virtual time.
 */
import { RequestRejection as CallbackRejection } from '../../../../src/base/rejection';
import {
	MAX_PEERS,
	MAX_TURNS_PER_REQUEST,
	PEER_TTL_MS,
	parseTurnRequest,
	SILENT_MS,
	TurnBoard,
} from '../../../../src/pace/board';
import { SharedTurns } from '../../../../src/pace/shared-turns';
import { turnGrant } from '../../../../src/pace/turn-grant';
import type { TurnRequest } from '../../../../src/pace/board';
import { VirtualClock } from '../../../helpers/virtual-time';

describe('TurnBoard', () => {
	it("hands out one sender's turns in the order asked, spaced at 95 % of its rate, from now when none is held", () => {
		let now = 1000;
		const board = new TurnBoard(() => now);
		const ask = (count: number) => board.take({ key: 'k', perSecond: 20, count });
		expect(ask(5)).toEqual({
			delayMs: 0,
			at: 1000,
			spacingMs: 1000 / 19,
			count: 5,
			board: board.id,
			boards: 1,
			runs: 1,
		});
		// Another run asking at once gets the turns after the first's five.
		expect(ask(3).delayMs).toBeCloseTo((5 * 1000) / 19);
		now += 100;
		expect(ask(1).delayMs).toBeCloseTo((8 * 1000) / 19 - 100);
		// Once the turns held have gone by, the next starts now.
		now += 10_000;
		expect(ask(2).delayMs).toBe(0);
	});

	it('counts the runs that asked for a sender lately, each once, and forgets them after 15 s', () => {
		let now = 0;
		const board = new TurnBoard(() => now);
		const ask = (run?: string, key = 'k') => board.take({ key, perSecond: 20, count: 1, run }).runs;
		expect([ask('a'), ask('a'), ask('b'), ask('c'), ask('b'), ask(undefined)]).toEqual([
			1, 1, 2, 3, 3, 3,
		]);
		// Another sender's runs are its own.
		expect(ask('a', 'other')).toBe(1);
		now += PEER_TTL_MS - 1;
		expect(ask('c')).toBe(3);
		now += 2;
		// a and b asked last over 15 s ago; c just now.
		expect(ask('c')).toBe(1);
	});

	it("keeps the share of a run gone silent with messages left out of the others' turns, while it may be sending them alone", () => {
		let now = 0;
		const board = new TurnBoard(() => now);
		const ask = (run: string, left?: number) =>
			board.take({ key: 'k', perSecond: 10, count: 1, run, ...(left ? { left } : {}) });
		ask('b');
		// a's turn comes after b's (105 ms in); it is one of two runs: its share, half the rate.
		expect(ask('a', 20)).toMatchObject({ delayMs: 1000 / 9.5, runs: 2 });
		// Asking again before its last turn and 5 s after: nothing kept.
		now = 1000 / 9.5 + SILENT_MS - 1;
		expect(ask('b')).toMatchObject({ spacingMs: 1000 / 9.5, runs: 2 });
		// Silent 5 s past its last turn: b's turns at the other half.
		now += 2;
		expect(ask('b').spacingMs).toBeCloseTo(1000 / 4.75, 9);
		// For 75 s (a run still asking before it paces alone) and the 4 s its 20 messages take at
		// half of 10/s, counted among the runs all along.
		now = 1000 / 9.5 + SILENT_MS + 75_000 + 4000 - 1;
		expect(ask('b')).toMatchObject({ spacingMs: expect.closeTo(1000 / 4.75, 9), runs: 2 });
		now += 2;
		expect(ask('b')).toMatchObject({ spacingMs: 1000 / 9.5, runs: 1 });
		// A run that asks again is not silent; one that had no message left keeps nothing.
		ask('a', 20);
		ask('c');
		now += 30_000;
		expect(ask('b')).toMatchObject({ spacingMs: expect.closeTo(1000 / 4.75, 9), runs: 2 });
		ask('a', 20);
		now += 6000;
		expect(ask('b')).toMatchObject({ spacingMs: expect.closeTo(1000 / 4.75, 9), runs: 2 });
		ask('a');
		now += 6000;
		expect(ask('b')).toMatchObject({ spacingMs: 1000 / 9.5, runs: 2 });
	});

	it('leaves at least an eighth of the rate to give, whatever the runs gone silent keep', () => {
		let now = 0;
		const board = new TurnBoard(() => now);
		board.take({ key: 'k', perSecond: 10, count: 1, run: 'a', left: 100 });
		now = 10_000;
		// a, alone when it last asked, may be taking the whole rate: the board still gives an eighth.
		expect(board.take({ key: 'k', perSecond: 10, count: 1, run: 'b' }).spacingMs).toBeCloseTo(
			(8 * 1000) / 9.5,
			9,
		);
	});

	it('gives no turn sooner than afterMs after the ask, when none is held', () => {
		let now = 0;
		const board = new TurnBoard(() => now);
		expect(board.take({ key: 'k', perSecond: 20, count: 2, afterMs: 300 })).toMatchObject({
			delayMs: 300,
			at: 0,
			count: 2,
		});
		// Held turns end later than that: the next follow them.
		now = 100;
		expect(board.take({ key: 'k', perSecond: 20, count: 1, afterMs: 50 }).delayMs).toBeCloseTo(
			300 + (2 * 1000) / 19 - 100,
		);
	});

	it('keeps senders, and one sender at two rates, apart', () => {
		const board = new TurnBoard(() => 0);
		board.take({ key: 'a', perSecond: 10, count: 50 });
		expect(board.take({ key: 'b', perSecond: 10, count: 1 }).delayMs).toBe(0);
		expect(board.take({ key: 'a', perSecond: 20, count: 1 }).delayMs).toBe(0);
		expect(board.take({ key: 'a', perSecond: 10, count: 1 }).delayMs).toBeCloseTo(
			(50 * 1000) / 9.5,
		);
	});

	it('forgets the sender asked for longest ago past 1,000 senders, not one still in use', () => {
		const board = new TurnBoard(() => 0);
		board.take({ key: 'first', perSecond: 1, count: 5 });
		for (let i = 0; i < 999; i++) board.take({ key: `s${i}`, perSecond: 1, count: 1 });
		// "first" asked again: the oldest is now s0.
		expect(board.take({ key: 'first', perSecond: 1, count: 1 }).delayMs).toBeCloseTo(5000 / 0.95);
		board.take({ key: 'one more', perSecond: 1, count: 1 });
		expect(board.size).toBe(1000);
		expect(board.take({ key: 's0', perSecond: 1, count: 1 }).delayMs).toBe(0);
		expect(board.take({ key: 'first', perSecond: 1, count: 1 }).delayMs).toBeCloseTo(6000 / 0.95);
	});

	it('never schedules further ahead than 10 s: fewer turns than asked, then none until one fits', () => {
		let now = 0;
		const board = new TurnBoard(() => now);
		const ask = (count: number) => board.take({ key: 'k', perSecond: 1, count });
		// At 0.95/s a turn every 1,052.6 ms: ten fit within 10 s (the last at 9,474 ms).
		const first = ask(100);
		expect(first).toMatchObject({ delayMs: 0, count: 10 });
		expect(first.delayMs + (first.count - 1) * first.spacingMs).toBeLessThanOrEqual(10_000);
		// The next free turn (10,526 ms) lies beyond the bound: none, ask again when it fits.
		const none = ask(1);
		expect(none.count).toBe(0);
		expect(none.delayMs).toBeCloseTo(10_000 / 0.95 - 10_000);
		now += none.delayMs;
		expect(ask(5)).toMatchObject({ delayMs: 10_000, count: 1 });
	});

	it('names itself in every grant, each board apart', () => {
		const one = new TurnBoard(() => 0);
		const other = new TurnBoard(() => 0);
		const grant = one.take({ key: 'k', perSecond: 10, count: 1 });
		expect(grant.board).toBe(one.id);
		expect(one.take({ key: 'k', perSecond: 10, count: 1 }).board).toBe(one.id);
		expect(other.take({ key: 'k', perSecond: 10, count: 1 }).board).toBe(other.id);
		expect(one.id).not.toBe(other.id);
		expect(one.id).toMatch(/^[\w-]{12}$/);
	});
});

describe('boards that hear of each other through the runs', () => {
	it("share a sender's rate: each hands out half while a run names the other, the whole again 15 s after the last naming", () => {
		let now = 0;
		const one = new TurnBoard(() => now);
		const other = new TurnBoard(() => now);
		const ask = (board: TurnBoard, boards?: string[]) =>
			board.take({ key: 'k', perSecond: 10, count: 10, ...(boards ? { boards } : {}) });
		// Nobody named another board yet: the whole rate, 9.5/s.
		expect(ask(one)).toMatchObject({ spacingMs: 1000 / 9.5, boards: 1, count: 10 });
		// A run that got those turns asks the other board, naming the first: half the rate each, as
		// soon as each hears of the other.
		expect(ask(other, [one.id])).toMatchObject({ spacingMs: 2000 / 9.5, boards: 2 });
		now += 1000;
		const half = ask(one, [one.id, other.id]);
		expect(half).toMatchObject({ spacingMs: 2000 / 9.5, boards: 2 });
		// The next turn comes after the ten given at the whole rate (1,053 ms), then every 211 ms.
		expect(half.delayMs).toBeCloseTo((10 * 1000) / 9.5 - 1000, 6);
		// Another sender's rate is its own.
		expect(one.take({ key: 'other sender', perSecond: 10, count: 1 }).boards).toBe(1);
		// Named again within 15 s: still half.
		now += PEER_TTL_MS - 1;
		expect(ask(one).boards).toBe(2);
		// Nobody named it for 15 s (its process stopped, or no run reaches it): the whole rate again.
		now += 2;
		expect(ask(one)).toMatchObject({ spacingMs: 1000 / 9.5, boards: 1 });
	});

	it('ignore their own name, and share with at most 8 boards', () => {
		const board = new TurnBoard(() => 0);
		expect(board.take({ key: 'k', perSecond: 10, count: 1, boards: [board.id] }).boards).toBe(1);
		const others = Array.from({ length: MAX_PEERS }, (_, i) => `board${i}`);
		const grant = board.take({ key: 'k', perSecond: 10, count: 1, boards: others });
		expect(grant.boards).toBe(MAX_PEERS);
		expect(grant.spacingMs).toBeCloseTo((MAX_PEERS * 1000) / 9.5, 6);
	});
});

describe('parseTurnRequest', () => {
	const parse = (body: unknown) =>
		parseTurnRequest(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
	it('takes { key, perSecond, count } and the boards the run names', () => {
		expect(
			parse({ key: 'https://api.example.com sndr', perSecond: 12.5, count: 3, other: 1 }),
		).toEqual({ key: 'https://api.example.com sndr', perSecond: 12.5, count: 3 });
		expect(parse({ key: 'k', perSecond: 1, count: 1, boards: ['a-B_9', 'x'] })).toEqual({
			key: 'k',
			perSecond: 1,
			count: 1,
			boards: ['a-B_9', 'x'],
		});
		expect(parse({ key: 'k', perSecond: 1, count: 1, boards: [] })).toEqual({
			key: 'k',
			perSecond: 1,
			count: 1,
		});
		expect(parse({ key: 'k', perSecond: 1, count: 1, run: 'r-1_x' })).toEqual({
			key: 'k',
			perSecond: 1,
			count: 1,
			run: 'r-1_x',
		});
		expect(parse({ key: 'k', perSecond: 1, count: 1, afterMs: 250.5 })).toEqual({
			key: 'k',
			perSecond: 1,
			count: 1,
			afterMs: 250.5,
		});
		expect(parse({ key: 'k', perSecond: 1, count: 1, afterMs: 0 })).toEqual({
			key: 'k',
			perSecond: 1,
			count: 1,
		});
		expect(parse({ key: 'k', perSecond: 1, count: 1, left: 40 })).toMatchObject({ left: 40 });
		expect(() => parse({ key: 'k', perSecond: 1, count: 1, run: 'a b' })).toThrow(
			'run must be 1 to 32 letters, digits, - or _',
		);
	});

	it.each<[string, unknown, number, RegExp]>([
		['an empty body', '', 400, /JSON object/],
		['malformed JSON', '{"key":', 400, /Malformed JSON/],
		['an array', [{ key: 'k', perSecond: 1, count: 1 }], 400, /JSON object/],
		['no key', { perSecond: 1, count: 1 }, 400, /key must be/],
		[
			'a key of 513 characters',
			{ key: 'k'.repeat(513), perSecond: 1, count: 1 },
			400,
			/key must be/,
		],
		['a rate of 0', { key: 'k', perSecond: 0, count: 1 }, 400, /perSecond/],
		['a rate as text', { key: 'k', perSecond: '10', count: 1 }, 400, /perSecond/],
		['a fractional count', { key: 'k', perSecond: 1, count: 1.5 }, 400, /count/],
		['too many turns', { key: 'k', perSecond: 1, count: MAX_TURNS_PER_REQUEST + 1 }, 400, /count/],
		[
			'boards as text',
			{ key: 'k', perSecond: 1, count: 1, boards: 'a' },
			400,
			/webhook processes named must/,
		],
		[
			'nine boards',
			{ key: 'k', perSecond: 1, count: 1, boards: 'abcdefghi'.split('') },
			400,
			/^the webhook processes named must be a list of at most 8 names \(letters, digits, - and _\)$/,
		],
		[
			'a board of 33 characters',
			{ key: 'k', perSecond: 1, count: 1, boards: ['b'.repeat(33)] },
			400,
			/webhook processes named must/,
		],
		[
			'a board with a space',
			{ key: 'k', perSecond: 1, count: 1, boards: ['a b'] },
			400,
			/webhook processes named must/,
		],
		[
			'a board as a number',
			{ key: 'k', perSecond: 1, count: 1, boards: [7] },
			400,
			/webhook processes named must/,
		],
		['afterMs over 5 s', { key: 'k', perSecond: 1, count: 1, afterMs: 5001 }, 400, /afterMs/],
		['afterMs below 0', { key: 'k', perSecond: 1, count: 1, afterMs: -1 }, 400, /afterMs/],
		['afterMs as text', { key: 'k', perSecond: 1, count: 1, afterMs: '9' }, 400, /afterMs/],
		['left below 0', { key: 'k', perSecond: 1, count: 1, left: -1 }, 400, /left must/],
		['left not whole', { key: 'k', perSecond: 1, count: 1, left: 1.5 }, 400, /left must/],
		['left as text', { key: 'k', perSecond: 1, count: 1, left: '3' }, 400, /left must/],
		['left over 10 million', { key: 'k', perSecond: 1, count: 1, left: 1e8 }, 400, /left must/],
		[
			'a body over 4 KB',
			{ key: 'k', perSecond: 1, count: 1, pad: 'x'.repeat(5000) },
			413,
			/over 4096 bytes/,
		],
	])('refuses %s', (_name, body, status, message) => {
		let error: unknown;
		try {
			parse(body);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(CallbackRejection);
		expect((error as CallbackRejection).httpStatus).toBe(status);
		expect((error as Error).message).toMatch(message);
	});
});

describe('turnGrant', () => {
	it.each<[string, unknown]>([
		['no answer', undefined],
		['a negative delay', { delayMs: -1, spacingMs: 50, count: 1, board: 'b' }],
		['a spacing of 0', { delayMs: 0, spacingMs: 0, count: 1, board: 'b' }],
		['more turns than asked', { delayMs: 0, spacingMs: 50, count: 6, board: 'b' }],
		['a count as text', { delayMs: 0, spacingMs: 50, count: '5', board: 'b' }],
		['no board', { delayMs: 0, spacingMs: 50, count: 1, boards: 1 }],
		['no count of boards', { delayMs: 0, spacingMs: 50, count: 1, board: 'b' }],
		['boards of 0', { delayMs: 0, spacingMs: 50, count: 1, board: 'b', boards: 0 }],
		['boards of 9', { delayMs: 0, spacingMs: 50, count: 1, board: 'b', boards: 9 }],
		['boards as text', { delayMs: 0, spacingMs: 50, count: 1, board: 'b', boards: '2' }],
		['fractional boards', { delayMs: 0, spacingMs: 50, count: 1, board: 'b', boards: 1.5 }],
	])('refuses %s', (_name, answer) => {
		expect(() => turnGrant(answer, 5)).toThrow(/pace answer/);
	});

	it.each<[string, unknown, string]>([
		['no board', { delayMs: 0, spacingMs: 50, count: 1, boards: 1 }, 'it names no webhook process'],
		[
			'boards of 9',
			{ delayMs: 0, spacingMs: 50, count: 1, board: 'b', boards: 9 },
			'its count of webhook processes is not a whole number from 1 to 8',
		],
		[
			'no time',
			{ delayMs: 0, spacingMs: 50, count: 1, board: 'b', boards: 1, at: '2026-11-28' },
			'no at, the time it gave them',
		],
	])('says why it refuses %s, in words a user knows', (_name, answer, detail) => {
		expect(() => turnGrant(answer, 5)).toThrow(
			`the trigger's pace answer is not one this version reads (${detail}): run the same version of this package on every n8n process`,
		);
	});

	it.each<[string, unknown]>([
		[
			'a first turn an hour ahead',
			{ delayMs: 3_600_000, spacingMs: 50, count: 1, board: 'b', boards: 1, at: 0 },
		],
		[
			'a first turn 10.5 s ahead',
			{ delayMs: 10_500, spacingMs: 50, count: 1, board: 'b', boards: 1, at: 0 },
		],
		[
			'turns that reach 10.5 s ahead',
			{ delayMs: 9_000, spacingMs: 500, count: 4, board: 'b', boards: 1, at: 0 },
		],
	])('does not follow %s (beyond the 10 s a board schedules)', (_name, answer) => {
		expect(() => turnGrant(answer, 5)).toThrow(
			/^the trigger gave turns \d+ s ahead, beyond the 10 s it may$/,
		);
	});

	it('takes fewer turns than asked, or none for now', () => {
		expect(
			turnGrant(
				{ delayMs: 10, spacingMs: 50, count: 2, board: 'b', boards: 2, at: 7, extra: 1 },
				5,
			),
		).toEqual({ delayMs: 10, spacingMs: 50, count: 2, board: 'b', boards: 2, at: 7 });
		expect(
			turnGrant({ delayMs: 30, spacingMs: 50, count: 0, board: 'b', boards: 1, at: 7 }, 5).count,
		).toBe(0);
	});
});

describe('SharedTurns', () => {
	/** A run's turns from `board`, `rttMs` away there and back, with the times its requests start. */
	function runOn(
		clock: VirtualClock,
		board: TurnBoard,
		rttMs: number,
		perSecond = 20,
		wanted = Infinity,
		/** How long each answer takes back (half the rttMs unless said). */
		backMs = () => rttMs / 2,
	) {
		const asked: Array<{ at: number; request: TurnRequest }> = [];
		const failures: string[] = [];
		const ask = async (request: TurnRequest) => {
			asked.push({ at: clock.now(), request });
			await clock.sleep(rttMs / 2);
			const grant = board.take(request);
			await clock.sleep(backMs());
			return grant;
		};
		const turns = new SharedTurns(
			ask,
			'sender',
			perSecond,
			clock,
			(reason) => failures.push(reason),
			() => wanted,
			// The asks' jitter in the middle: asks ahead of need wait half a spacing.
			() => 0.5,
		);
		const starts: number[] = [];
		const send = async (count: number, parallel: number) => {
			let next = 0;
			await Promise.all(
				Array.from({ length: parallel }, async () => {
					while (next++ < count) {
						await turns.take();
						starts.push(clock.now());
						await clock.sleep(80);
					}
				}),
			);
		};
		return { turns, asked, failures, starts, send };
	}

	/** Sends `count` from each run at once (10 in flight each): every start of them all, in order. */
	async function together(
		clock: VirtualClock,
		runs: Array<ReturnType<typeof runOn>>,
		count: number,
	): Promise<number[]> {
		const done = Promise.all(runs.map(async (run) => await run.send(count, 10)));
		await clock.runAll();
		await done;
		return runs.flatMap((run) => run.starts).sort((a, b) => a - b);
	}

	/** The most starts in any second that begins at a start. */
	const mostInASecond = (all: number[]) =>
		Math.max(...all.map((start) => all.filter((at) => at >= start && at < start + 1000).length));

	it('asks a second at a time, before it runs out, so its requests keep the spacing', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const run = runOn(clock, board, 10, 20, 60);
		const done = run.send(60, 10);
		await clock.runAll();
		await done;
		expect(
			run.asked.every(({ request }) => request.perSecond === 20 && request.key === 'sender'),
		).toBe(true);
		// 60 turns: the first eight asks for a quarter of a second's worth (5; behind a load balancer,
		// the boards are hearing of each other; a second's worth, 19, after them), never more than the
		// run has requests for.
		expect(run.asked.map(({ request }) => request.count)).toEqual([5, 5, 5, 5, 5, 5, 5, 5, 19, 1]);
		// The turns are timed by the board's clock (it gave the first at 5 ms): the first starts when
		// the answer comes (10 ms), every later one on the board's schedule, one spacing after the
		// last turn. The run never waits for the board.
		expect(run.starts[0]).toBe(10);
		run.starts
			.slice(1)
			.forEach((start, i) => expect(start).toBeCloseTo(5 + ((i + 1) * 1000) / 19, 6));
		expect(run.failures).toEqual([]);
	});

	it('shares the rate with a run of another process: together never more than the rate in any second', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const all = await together(
			clock,
			[runOn(clock, board, 4, 20, 60), runOn(clock, board, 30, 20, 60)],
			60,
		);
		expect(all).toHaveLength(120);
		expect(mostInASecond(all)).toBeLessThanOrEqual(20);
		// Each got about half while both ran: together at the board's pace, 19 a second.
		expect((all.length - 1) / ((all[all.length - 1] - all[0]) / 1000)).toBeGreaterThan(18.5);
	});

	it("times its turns by the board's clock: answers slow and uneven on the way back make no turn late, into another run's", async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		// One run's answers take 0 to 400 ms back, by turns; the other's 2 ms.
		let answers = 0;
		const uneven = () => [0, 400, 150, 300][answers++ % 4];
		const slow = runOn(clock, board, 4, 20, 80, uneven);
		const all = await together(clock, [slow, runOn(clock, board, 4, 20, 80)], 80);
		expect(all).toHaveLength(160);
		// Timed from each answer's arrival instead, the slow run's turns fall on the other's: 25
		// starts in a second.
		expect(mostInASecond(all)).toBeLessThanOrEqual(20);
		// The slow run asks for turns no sooner than its answers take back: it was not held up.
		expect(slow.asked.at(-1)?.request.afterMs).toBe(400);
		expect((all.length - 1) / ((all[all.length - 1] - all[0]) / 1000)).toBeGreaterThan(18);
	});

	it('asks its turns no sooner than its answers take back: each comes in time, and starts at the moment the board gave', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		// The moments of every turn the board gave, on its clock.
		const given = new Set<number>();
		const recording = {
			take: (request: TurnRequest) => {
				const grant = board.take(request);
				for (let i = 0; i < grant.count; i++)
					given.add(grant.at + grant.delayMs + i * grant.spacingMs);
				return grant;
			},
		} as TurnBoard;
		// Answers 300 ms back, the spacing 53 ms: a turn given for "now" is gone when it comes, and
		// would be taken from the answer's arrival, 300 ms late, among the turns of other runs.
		const run = runOn(clock, recording, 20, 20, 30, () => 300);
		const done = run.send(30, 30);
		await clock.runAll(60_000);
		await done;
		expect(run.asked.slice(1).every(({ request }) => request.afterMs === 300)).toBe(true);
		// The first grant (5 turns) was gone when it came: the run did not know yet. Every start after
		// it is at a moment the board gave.
		expect(run.asked[0].request.count).toBe(5);
		expect(run.starts.filter((start) => !given.has(start))).toHaveLength(5);
		expect(run.starts).toHaveLength(30);
	});

	it('asks for twice the time the board took to answer, so a slow board does not slow the run', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const run = runOn(clock, board, 600, 20, 200);
		const done = run.send(200, 10);
		await clock.runAll();
		await done;
		// After the first answer (600 ms): 1.2 s of turns at a time, 23 at 19/s (the first asks too,
		// which are for a quarter of a second's worth, 5, unless the board takes longer to answer).
		expect(run.asked.slice(0, 6).map(({ request }) => request.count)).toEqual([
			5, 23, 23, 23, 23, 23,
		]);
		// Once the first answer told how long the board takes (the first 5 turns wait for it), 98 % of
		// 19/s:
		const starts = run.starts.slice(10);
		expect((starts.length - 1) / ((starts[starts.length - 1] - starts[0]) / 1000)).toBeGreaterThan(
			18.6,
		);
	});

	it('asks for no more turns than the run has requests for, and one more at a time for resends', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const run = runOn(clock, board, 10, 20, 7);
		const done = run.send(9, 3);
		await clock.runAll();
		await done;
		// A quarter of a second's worth first (5), then one turn (the second ask, while the run holds
		// turns, looks for another board), then one at a time for what is left and the resends.
		expect(run.asked.map(({ request }) => request.count)).toEqual([5, 1, 1, 1, 1]);
	});

	it('drops a turn gone by instead of taking it late', async () => {
		const clock = new VirtualClock();
		const board = new TurnBoard(() => clock.now());
		const run = runOn(clock, board, 0);
		const first = run.turns.take();
		await clock.runAll();
		await first;
		// The run had nothing to send for 200 ms: the turns of that time are gone.
		await Promise.all([clock.sleep(200), clock.runAll()]);
		const at = clock.now();
		const next = run.turns.take();
		await clock.runAll();
		await next;
		expect(clock.now() - at).toBeLessThan(1000 / 19);
		expect(clock.now()).toBeGreaterThan(at - 1000 / 19);
	});

	it('when the board cannot be asked, says why once and lets every request go at once (the run paces itself)', async () => {
		const clock = new VirtualClock();
		const failures: string[] = [];
		let asks = 0;
		const turns = new SharedTurns(
			async () => {
				asks++;
				throw new Error('the trigger answered HTTP 404');
			},
			'sender',
			20,
			clock,
			(reason) => failures.push(reason),
		);
		await Promise.all([turns.take(), turns.take(), turns.take()]);
		await turns.take();
		expect(failures).toEqual(['the trigger answered HTTP 404']);
		expect(asks).toBe(1);
		expect(turns.shared).toBe(false);
		expect(clock.now()).toBe(0);
	});
});
