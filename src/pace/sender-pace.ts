import { RATE_HEADROOM } from './pacer';
import type { Pace } from './pacer';

// A sender's pace: its limit, shared by every run that sends from it.

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
