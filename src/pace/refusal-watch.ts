/** RefusalWatch: the 429s in shared turns that make a run pace alone. */

/** Pace alone after this many 429s in turns, over REFUSED_SHARE of them (a busy board: fewer). */
export const REFUSALS_TO_PACE_ALONE = 3;
const REFUSED_SHARE = 0.02;

/** Counts the refusals of requests sent in turns, but not while boards hear of each other. */
export class RefusalWatch {
	private taken = 0;
	private refusals = 0;
	private settledAt = -Infinity;

	took(): void {
		this.taken++;
	}

	/** Refusals before `until` are not counted; the count starts again. */
	settle(until: number): void {
		this.settledAt = until;
		this.refusals = this.taken = 0;
	}

	/** A refusal at `now`: why the turns do not hold the limit, once there are too many. */
	refused(now: number): string | undefined {
		if (now < this.settledAt) return undefined;
		this.refusals++;
		if (this.refusals < REFUSALS_TO_PACE_ALONE || this.refusals <= REFUSED_SHARE * this.taken)
			return undefined;
		return `the platform refused ${this.refusals} of the ${this.taken} messages sent in shared turns (429), so the turns did not hold the sender's limit (several webhook processes, or runs not sharing the pace?)`;
	}
}
