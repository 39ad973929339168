/**
 * The turns a run of Share Pace Across Workers holds, from one board or several: in time order, and
 * thinned out when a board turns out to share the rate with more boards than it knew (issue 40).
 */
import { HeldTurns } from '../../../../src/pace/held-turns';

describe('HeldTurns', () => {
	const grant = (board: string, boards: number, delayMs: number, count: number) => ({
		board,
		boards,
		delayMs,
		count,
		spacingMs: (boards * 1000) / 9.5,
	});

	it('keeps the turns of two boards in time order', () => {
		const held = new HeldTurns(1000 / 9.5);
		held.add(grant('a', 2, 0, 3), 0);
		held.add(grant('b', 2, 100, 3), 10);
		const times: number[] = [];
		while (held.count > 0) times.push(held.take());
		expect(times.map(Math.round)).toEqual([0, 110, 211, 321, 421, 531]);
	});

	it('thins the turns given for fewer boards once a grant says more: one in two of each board, the others kept', () => {
		const held = new HeldTurns(1000 / 9.5);
		// Ten turns at the whole rate from a board that had not heard of the other yet.
		held.add(grant('a', 1, 0, 10), 0);
		held.add(grant('b', 2, 50, 2), 0);
		const times: number[] = [];
		while (held.count > 0) times.push(held.take());
		// a's ten turns 105 ms apart become five 211 ms apart; b's two stay.
		expect(times.map(Math.round)).toEqual([0, 50, 211, 261, 421, 632, 842]);
	});

	it('drops the turns gone by more than a spacing ago', () => {
		const held = new HeldTurns(100);
		held.add(grant('a', 1, 0, 5), 0);
		held.dropPast(250);
		expect(held.count).toBe(3);
		expect(held.next).toBeCloseTo((1000 / 9.5) * 2, 6);
		expect(held.last).toBeCloseTo((1000 / 9.5) * 4, 6);
	});
});
