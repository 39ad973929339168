/** The turns a run holds, in time order, thinned as it hears of more boards. */
import type { TurnGrant } from './board';

/** A turn a run holds: when, from which board, and how many boards that board shared with. */
interface Turn {
	at: number;
	board: string;
	boards: number;
}

/**
 * The turns a run holds, in time order (turns from several boards interleave). A board hands out
 * its share of the sender's rate (board.ts), and learns of the other boards only as runs name them:
 * turns it gave before it knew of them are too close together. A run that hears of more boards than
 * a turn it holds was given for thins those turns out to the new share, each board's apart, so that
 * turns given while the boards were learning of each other hold the limit as soon as any run knows.
 */
export class HeldTurns {
	private readonly turns: Turn[] = [];
	private head = 0;

	/** `spacingMs`: between two turns at the sender's full rate. */
	constructor(private readonly spacingMs: number) {}

	get count(): number {
		return this.turns.length - this.head;
	}

	before(until: number): number {
		let count = 0;
		for (let i = this.head; i < this.turns.length && this.turns[i].at < until; i++) count++;
		return count;
	}

	get next(): number | undefined {
		return this.count > 0 ? this.turns[this.head].at : undefined;
	}

	get last(): number | undefined {
		return this.count > 0 ? this.turns[this.turns.length - 1].at : undefined;
	}

	/** Drops turns unused over a spacing ago (taken late, two requests would be too close). */
	dropPast(now: number): void {
		while (this.head < this.turns.length && this.turns[this.head].at < now - this.spacingMs)
			this.head++;
	}

	/** Takes the next turn held (one must be: see count). */
	take(): number {
		const { at } = this.turns[this.head++];
		if (this.head > 1024) {
			this.turns.splice(0, this.head);
			this.head = 0;
		}
		return at;
	}

	/** Adds a grant's turns (`from`: when, on this clock, the board gave them), thinning others. */
	add(grant: Omit<TurnGrant, 'at' | 'runs'>, from: number): void {
		const held = this.turns.slice(this.head);
		const thinned = this.thin(held, grant.boards);
		for (let i = 0; i < grant.count; i++)
			thinned.push({
				at: from + grant.delayMs + i * grant.spacingMs,
				board: grant.board,
				boards: grant.boards,
			});
		thinned.sort((a, b) => a.at - b.at);
		this.turns.splice(this.head, Infinity, ...thinned);
	}

	/** Keeps, of each board's turns given for fewer than `boards`, one per spacing at the share. */
	private thin(held: Turn[], boards: number): Turn[] {
		if (held.every((turn) => turn.boards >= boards)) return held;
		const gap = this.spacingMs * boards - 1;
		const lastKept = new Map<string, number>();
		return held.filter((turn) => {
			if (turn.boards >= boards) return true;
			const previous = lastKept.get(turn.board);
			if (previous !== undefined && turn.at - previous < gap) return false;
			lastKept.set(turn.board, turn.at);
			turn.boards = boards;
			return true;
		});
	}
}
