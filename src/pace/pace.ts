/** A pace (requests per second), the headroom kept under it, and a sender's shared pace. */

/**
 * Runs are paced at this share of the rate they are given: a request's way to the platform varies
 * by a few milliseconds, and at exactly the platform's rate that puts one request too many into one
 * of its windows now and then, each refusal slowing the run.
 */
export const RATE_HEADROOM = 0.95;
/**
 * How late a request may go after its shared turn. Running at RATE_HEADROOM leaves about 53 ms of
 * each second free; a request woken more than half of that (26 ms) after its turn (its process was
 * busy) lets the turn go, once, and takes the next one, rather than go out so late that it may meet
 * the next turn's request in one platform second.
 */
export const LATE_MS = (1000 / RATE_HEADROOM - 1000) / 2;

export interface Pace {
	perSecond: number;
	/** The slowest a 429 backs the run off to, per second (default: one request per 10 s). */
	floor?: number;
}

/**
 * A sender's limit is the platform's, shared by every run sending from it: a run paced at it backs
 * off to no less than 1 / SENDER_SHARERS of it. Below that, a run that lost the race to another run
 * for a few seconds crawled on at a request every few seconds after the other had finished.
 */
export const SENDER_SHARERS = 8;

/** The pace for a sender's `rateLimit` (Sender › Get); `fallback` if none, zero or unreadable. */
export function senderPace(
	rateLimit: unknown,
	fallback: number | undefined,
): Pace | number | undefined {
	const rate =
		typeof rateLimit === 'number' || typeof rateLimit === 'string' ? Number(rateLimit) : NaN;
	if (!Number.isFinite(rate) || rate <= 0) return fallback;
	return { perSecond: rate, floor: (rate * RATE_HEADROOM) / SENDER_SHARERS };
}
