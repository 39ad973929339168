// A pace (requests per second), the headroom runs keep under it, and a sender's pace: its limit,
// shared by every run that sends from it.

/**
 * Runs are paced at this share of the rate they are given: a request's way to the platform varies
 * by a few ms, and at exactly the platform's rate that puts one request too many into one of its
 * windows now and then, each refusal slowing the run.
 */
export const RATE_HEADROOM = 0.95;

/** A pace: requests per second. */
export interface Pace {
	perSecond: number;
	/** The slowest a 429 backs the run off to, per second (default: one request per 10 s). */
	floor?: number;
}

/**
 * A sender's limit is the platform's, shared by every run sending from it: a run paced at it backs
 * off to no less than this share of it. Below that, a run that lost the race for a few seconds to
 * another run crawled on at a request every few seconds after the other had finished.
 */
export const SENDER_SHARERS = 8;

/**
 * The pace of a run whose sender says `rateLimit` messages per second (Sender › Get). A missing,
 * zero or unreadable rateLimit leaves the run at `fallback`.
 */
export function senderPace(
	rateLimit: unknown,
	fallback: number | undefined,
): Pace | number | undefined {
	const rate =
		typeof rateLimit === 'number' || typeof rateLimit === 'string' ? Number(rateLimit) : NaN;
	if (!Number.isFinite(rate) || rate <= 0) return fallback;
	return { perSecond: rate, floor: (rate * RATE_HEADROOM) / SENDER_SHARERS };
}
