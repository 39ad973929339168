/** The boards that gave a run turns, named in its asks, and when it asks out of turn. */
import { MAX_PEERS, PEER_TTL_MS } from './board';

/** How often a run that knows several boards asks out of turn to reach one it did not lately. */
export const LOOK_EVERY_MS = PEER_TTL_MS / 5;

/**
 * The boards (trigger processes) that gave this run turns lately, in the order of their last
 * answer. A run names them when it asks, so that each board learns how many others share the
 * sender's rate; and since a run usually reaches one board, it sometimes asks out of turn, at a
 * random moment, to reach one it has not heard from lately (else two boards would forget each
 * other and each give the whole rate).
 */
export class KnownBoards {
	private readonly boards = new Map<string, number>();
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
	 * Whether to ask out of turn (several boards known, one silent for LOOK_EVERY_MS), at random
	 * times: round robin sends runs in step to one board each; boards unnamed forget each other.
	 */
	look(now: number): boolean {
		if (now < this.lookAfter) return false;
		const known = [...this.boards.values()].filter((at) => at >= now - PEER_TTL_MS);
		if (known.length < 2 || Math.min(...known) >= now - LOOK_EVERY_MS) return false;
		this.lookAfter = now + LOOK_EVERY_MS * (0.5 + this.random());
		return true;
	}
}
