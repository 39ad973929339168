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
 * The pause a 429 asks for: Retry-After, never under MIN_RETRY_PAUSE_MS, plus up to 20 % jitter so
 * parallel runs do not resend together (`random`: the simulations pass a seeded one).
 */
export function rateLimitPauseMs(
	header: unknown,
	now = Date.now(),
	random: () => number = Math.random,
): number {
	const asked = Math.max(MIN_RETRY_PAUSE_MS, retryAfterMs(header, now) ?? MIN_RETRY_PAUSE_MS);
	return asked + jitter(asked, random);
}

/**
 * Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable.
 */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
	const value = String(Array.isArray(header) ? header[0] : (header ?? '')).trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
