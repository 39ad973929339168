/**
 * The boards a run of Share Pace Across Workers names to each board it asks, and when it asks out
 * of turn to reach the others (issue 40).
 */
import { MAX_PEERS, PEER_TTL_MS } from '../../../../src/pace/board';
import { KnownBoards, LOOK_EVERY_MS } from '../../../../src/pace/known-boards';

describe('KnownBoards (the boards a run names)', () => {
	it('names the boards that gave turns within 15 s, the latest 8', () => {
		const known = new KnownBoards(() => 0.5);
		expect(known.heard('a', 0)).toBe(true);
		expect(known.heard('a', 100)).toBe(false);
		expect(known.heard('b', 200)).toBe(true);
		expect(known.recent(200)).toEqual(['a', 'b']);
		// a gave nothing for 15 s: no longer named.
		expect(known.recent(100 + PEER_TTL_MS + 1)).toEqual(['b']);
		for (let i = 0; i < 10; i++) known.heard(`c${i}`, 300 + i);
		expect(known.recent(400)).toHaveLength(MAX_PEERS);
		expect(known.recent(400)[MAX_PEERS - 1]).toBe('c9');
	});

	it('asks out of turn when a board it knows gave nothing for 3 s, then not again for 1.5 to 4.5 s (at random)', () => {
		let random = 0;
		const known = new KnownBoards(() => random);
		known.heard('a', 0);
		// One board: nothing to look for.
		expect(known.look(10_000)).toBe(false);
		known.heard('b', 10_000);
		known.heard('a', 11_000);
		expect(known.look(11_000)).toBe(false);
		// b gave nothing for 3 s.
		expect(known.look(10_000 + LOOK_EVERY_MS - 1)).toBe(false);
		expect(known.look(10_000 + LOOK_EVERY_MS + 1)).toBe(true);
		// The next look, 0.5 × 3 s on with this draw; 1.5 × 3 s with the highest.
		const at = 10_000 + LOOK_EVERY_MS + 1;
		expect(known.look(at + LOOK_EVERY_MS / 2 - 1)).toBe(false);
		random = 0.999;
		expect(known.look(at + LOOK_EVERY_MS / 2)).toBe(true);
		expect(known.look(at + LOOK_EVERY_MS / 2 + 1.4 * LOOK_EVERY_MS)).toBe(false);
		expect(known.look(at + LOOK_EVERY_MS / 2 + 1.5 * LOOK_EVERY_MS)).toBe(true);
		expect(LOOK_EVERY_MS).toBe(3000);
	});
});
