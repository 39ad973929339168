/** A pace (requests per second), the headroom kept under it, and a sender's shared pace. */

/** Runs go at this share of their rate: network jitter at exactly the limit overfills windows. */
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
 * A sender's limit is shared by every run sending from it: a run paced at it backs off to no less
 * than 1 / SENDER_SHARERS of its pace, lest one that briefly lost the race crawl on after the rest.
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
