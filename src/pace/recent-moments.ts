/** RecentMoments: the last moments something happened (answers, starts), counted over a span. */

/** The moments kept (a run of more per second counts this many in a second). */
const KEPT = 4096;

/**
 * The last KEPT moments something happened (an answer, a start), in a ring: enough for the Pacer
 * to count what went through lately (the answers of the last two seconds, after a 429) and to
 * find the n-th latest start (a busy process catches up no faster than the rate), without a list
 * that grows with the run.
 */
export class RecentMoments {
	/** A ring of up to `size` moments, the latest just before `head`. */
	private readonly moments: number[];
	private head = 0;
	private kept = 0;

	/** `size`: how many it keeps (KEPT unless told; PlatformSeconds keeps fewer). */
	constructor(private readonly size = KEPT) {
		this.moments = new Array<number>(size);
	}

	add(at: number): void {
		this.moments[this.head] = at;
		this.head = (this.head + 1) % this.size;
		this.kept = Math.min(this.size, this.kept + 1);
	}

	clear(): void {
		this.kept = 0;
	}

	/** The `k`-th latest moment (1: the latest), or -Infinity when fewer were kept. */
	latest(k: number): number {
		return k >= 1 && k <= this.kept
			? this.moments[(this.head - k + this.size) % this.size]
			: -Infinity;
	}

	/** How many happened in the `ms` before `now`. */
	within(now: number, ms: number): number {
		let count = 0;
		while (count < this.kept && this.latest(count + 1) > now - ms) count++;
		return count;
	}
}
