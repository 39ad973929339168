/** RefusalWatch: the 429s in shared turns that make a run pace alone. */

/**
 * Refusals (429) while taking turns that show the turns do not hold the sender's limit: at least
 * this many, and more than REFUSED_SHARE of the turns taken (one board on a busy machine lets a
 * late request through now and then, far fewer): the run then paces alone.
 */
export const REFUSALS_TO_PACE_ALONE = 3;
const REFUSED_SHARE = 0.02;

/**
 * Watches the platform's refusals of requests sent in shared turns (shared-turns.ts): too many, and
 * the turns do not hold the sender's limit (another board that does not share, or runs not sharing
 * the pace). Refusals while the boards are hearing of each other (settle()) are not counted, as the
 * boards' first turns may be too close together then, and the count starts again after them.
 */
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
