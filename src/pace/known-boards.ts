import { MAX_PEERS, PEER_TTL_MS } from './board';

/** How often a run that knows several boards asks out of turn to reach one it did not lately. */
export const LOOK_EVERY_MS = PEER_TTL_MS / 5;

/**
 * The boards (webhook processes) that gave a run turns, and when each last did. The run names them
 * to every board it asks (src/pace/board.ts: a board shares the sender's rate with the boards
 * named), and asks out of turn now and then to reach the ones it did not lately: behind a
 * round-robin balancer, runs asking in step reach the same board every time, and boards no run
 * names any more forget each other.
 */
export class KnownBoards {
	private readonly boards = new Map<string, number>();
	/** When the run may next ask out of turn. */
	private lookAfter = -Infinity;

	constructor(private readonly random: () => number) {}

	/** The boards that gave the run turns within PEER_TTL_MS, the latest MAX_PEERS. */
	recent(now: number): string[] {
		return [...this.boards]
			.filter(([, at]) => at >= now - PEER_TTL_MS)
			.slice(-MAX_PEERS)
			.map(([board]) => board);
	}

	/** A grant came from `board` at `now`; true when the board is new to the run. */
	heard(board: string, now: number): boolean {
		const other = !this.boards.has(board);
		// Re-inserted: the Map's order is the order of the last grants.
		this.boards.delete(board);
		this.boards.set(board, now);
		return other;
	}

	/**
	 * Whether the run should ask out of turn now: it knows several boards, one of them gave it
	 * nothing for LOOK_EVERY_MS, and it did not look lately. The next look comes at a random time
	 * (runs looking in step would reach the same boards again).
	 */
	look(now: number): boolean {
		if (now < this.lookAfter) return false;
		const known = [...this.boards.values()].filter((at) => at >= now - PEER_TTL_MS);
		if (known.length < 2 || Math.min(...known) >= now - LOOK_EVERY_MS) return false;
		this.lookAfter = now + LOOK_EVERY_MS * (0.5 + this.random());
		return true;
	}
}
