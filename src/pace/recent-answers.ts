/**
 * The answers kept to count how many went through in the last second (a run of more per second
 * counts this many).
 */
const ANSWERS_KEPT = 4096;

/**
 * When the last answers that went through arrived, to count how many went through in a span
 * (Pacer.backOff's measure of what the platform let through).
 */
export class RecentAnswers {
	/**
	 * When the last answers that went through arrived: a ring of ANSWERS_KEPT ending before
	 * `answersHead`.
	 */
	private readonly answers: number[] = new Array<number>(ANSWERS_KEPT);
	private answersHead = 0;
	private answersKept = 0;

	/** An answer that went through arrived at `at`. */
	add(at: number): void {
		this.answers[this.answersHead] = at;
		this.answersHead = (this.answersHead + 1) % ANSWERS_KEPT;
		this.answersKept = Math.min(ANSWERS_KEPT, this.answersKept + 1);
	}

	/** How many requests went through in the `ms` before `now`. */
	answeredWithin(now: number, ms: number): number {
		let count = 0;
		while (
			count < this.answersKept &&
			this.answers[(this.answersHead - 1 - count + ANSWERS_KEPT) % ANSWERS_KEPT] > now - ms
		)
			count++;
		return count;
	}
}
