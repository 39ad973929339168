/** Most messages claimed in one write, however fast the run or slow the store. */
export const MAX_CLAIM_AHEAD = 10_000;

/** How long a window of claims lasts at the run's measured pace. */
const WINDOW_MS = 5000;

/**
 * Writes of the history take at most about 1 / WRITE_SHARE of a run's time: windows of claims and
 * writes of confirmations come no oftener than WRITE_SHARE times the last write's duration.
 */
export const WRITE_SHARE = 10;

/**
 * The size of the next window of claims: what the run sends in WINDOW_MS at the pace measured since
 * the last window (`settled` messages in `elapsedMs`), or in WRITE_SHARE times the last write when
 * the store is that slow; from the first window's size to MAX_CLAIM_AHEAD.
 */
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

/** A run's windows of claims: how many keys the next one claims, from the pace since the last. */
export class ClaimWindows {
	/** Keys claimed in one write now (at least 1). */
	size: number;
	private lastAt?: number;
	/** Messages settled in all, and when the last window was claimed. */
	private settled = 0;
	private settledAtLast = 0;

	/** `first`: the first window's size (claimAhead). */
	constructor(private readonly first: number) {
		this.size = Math.max(1, first);
	}

	settle(): void {
		this.settled++;
	}

	/** A window claimed at `now` (ms), the store's last write having taken `lastWriteMs`: its size. */
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
