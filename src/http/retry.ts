/** When a refused or failed request is sent again: the pauses of apiRequest (api-request.ts). */

/** A 429 is never resent sooner than this, whatever Retry-After says (0, a past date, nothing). */
const MIN_RETRY_PAUSE_MS = 1_000;

const jitter = (ms: number, random: () => number = Math.random) => Math.round(ms * 0.2 * random());

/** Pause before resend n of an idempotent request: 1 s, then 2 s, plus jitter. */
export function backoffMs(attempt: number): number {
	const base = MIN_RETRY_PAUSE_MS * 2 ** (attempt - 1);
	return base + jitter(base);
}

/**
 * The pause a 429 asks for: Retry-After, at least MIN_RETRY_PAUSE_MS, plus up to 20 % jitter so
 * parallel runs do not resend together (`random`: seeded in simulations). `date`: retryAfterMs.
 */
export function rateLimitPauseMs(
	header: unknown,
	now = Date.now(),
	random: () => number = Math.random,
	date?: unknown,
): number {
	const asked = Math.max(MIN_RETRY_PAUSE_MS, retryAfterMs(header, now, date) ?? MIN_RETRY_PAUSE_MS);
	return asked + jitter(asked, random);
}

const first = (header: unknown) =>
	String(Array.isArray(header) ? header[0] : (header ?? '')).trim();

/**
 * Retry-After (seconds or an HTTP date) in ms, undefined when absent or unreadable. A date counts
 * from the answer's own Date when given, so a platform clock an hour ahead makes no hour's pause.
 */
export function retryAfterMs(
	header: unknown,
	now = Date.now(),
	date?: unknown,
): number | undefined {
	const value = first(header);
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
	const until = Date.parse(value);
	if (Number.isNaN(until)) return undefined;
	const answered = Date.parse(first(date));
	return Math.max(0, until - (Number.isNaN(answered) ? now : answered));
}
