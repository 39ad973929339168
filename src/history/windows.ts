/** The windows of claims: how many keys each write of the history claims ahead of sending. */

/** Most messages claimed in one write, however fast the run or slow the store. */
export const MAX_CLAIM_AHEAD = 10_000;

/** How long a window of claims lasts at the run's measured pace. */
const WINDOW_MS = 5000;

/** Claim windows and confirmation waits span at least this many last writes (writes: ~1/10). */
export const WRITE_SHARE = 10;

/** What the recent pace sends in WINDOW_MS (or WRITE_SHARE last writes), first..MAX_CLAIM_AHEAD. */
export function nextWindowSize(run: {
	first: number;
	settled: number;
	elapsedMs: number;
	lastWriteMs: number;
}): number {
	const perMs = run.settled / Math.max(1, run.elapsedMs);
	const lasting = Math.max(WINDOW_MS, WRITE_SHARE * run.lastWriteMs);
	return Math.min(MAX_CLAIM_AHEAD, Math.max(run.first, Math.ceil(perMs * lasting)));
}

export class ClaimWindows {
	/** Keys claimed in one write now (at least 1). */
	size: number;
	private lastAt?: number;
	/** Messages settled in all, and by the last window's claim. */
	private settled = 0;
	private settledAtLast = 0;

	/** `first`: the first window's size (claimAhead). */
	constructor(private readonly first: number) {
		this.size = Math.max(1, first);
	}

	settle(): void {
		this.settled++;
	}

	/** A window claimed at `now` (ms), the last write having taken `lastWriteMs`: its size. */
	next(now: number, lastWriteMs: number): number {
		if (this.lastAt !== undefined)
			this.size = nextWindowSize({
				first: this.first,
				settled: this.settled - this.settledAtLast,
				elapsedMs: now - this.lastAt,
				lastWriteMs,
			});
		this.lastAt = now;
		this.settledAtLast = this.settled;
		return this.size;
	}
}
