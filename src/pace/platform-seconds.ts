/**
 * What the answers' `Date` headers tell a run about a limit the platform counts per second of its
 * own clock (a fixed window; the platform's spec shows neither the window nor a header but `Date`,
 * which an HTTP server with a clock sends on every answer).
 *
 * One refusal leaves such a limit unknown within a factor of two: a run that started late in one of
 * the platform's seconds gets part of its first burst through in that second and the whole limit in
 * the next, so what went through before the refusal is anywhere from the limit to twice it (see
 * docs/benchmarks.md). The answers' `Date` names the second each was counted in: the accepted
 * answers dated like the 429 are the limit, if the platform counts per second of its clock. A
 * sliding window or a token bucket can give the same count once by chance, so the count is taken
 * only when a second refusal, in another second, counts the same: then the run holds that limit
 * (RATE_HEADROOM of it) and, the platform's second being full, waits only until the next one.
 */
import { RecentMoments } from './recent-moments';

/** A platform answer: when its request started (run's clock), and the second its `Date` names. */
export interface PlatformAnswer {
	sentAt: number;
	/** Whole seconds since the epoch, platform clock; undefined without a readable Date header. */
	second?: number;
}

/** The second a `Date` header names (whole seconds since the epoch), or undefined. */
export function platformSecond(date: unknown): number | undefined {
	const value = Array.isArray(date) ? date[0] : date;
	if (typeof value !== 'string' || !value) return undefined;
	const ms = Date.parse(value);
	return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** The accepted answers kept to count a second's (more than any limit this counts is plausible). */
const KEPT = 2048;
/** Two refusals' counts agree within this (a request at a second's edge may bear either Date). */
const SAME_COUNT = 1;
/** A Date fits the clocks' difference when it lies within this of what the answers before told. */
const FITS_MS = 1000;

/**
 * What the `Date` headers of a run's answers tell: the platform seconds its accepted requests were
 * counted in (the last KEPT), and how far the platform's clock is from the run's. It keeps them so
 * that after a 429 the run can tell the limit per platform second (two refusals in different
 * seconds that agree on the count) and when the platform's next second starts on the run's clock.
 */
export class PlatformSeconds {
	/** The platform's clock minus the run's, in ms: known to lie in (lo, hi]. */
	private lo = -Infinity;
	private hi = Infinity;
	/** The platform seconds of the last KEPT accepted answers. */
	private readonly seconds = new RecentMoments(KEPT);
	/** The count of the last refusal's second, when no other recent second held more. */
	private candidate: number | undefined;
	/** The limit per platform second two refusals agreed on. */
	limit: number | undefined;

	/** A request went through: its answer names the platform second it was counted in. */
	accepted(answer: PlatformAnswer, answeredAt: number): void {
		if (answer.second === undefined) return;
		this.bound(answer, answeredAt);
		this.seconds.add(answer.second);
	}

	/**
	 * A refusal starting a back-off: the limit when its second holds as many accepted answers as
	 * the last refusal's (and no recent second more), else undefined (the count kept for the next).
	 */
	refused(answer: PlatformAnswer | undefined, answeredAt: number): number | undefined {
		if (answer?.second === undefined) {
			this.candidate = this.limit = undefined;
			return undefined;
		}
		this.bound(answer, answeredAt);
		const count = this.countIn(answer.second);
		const previous = this.limit ?? this.candidate;
		const agrees =
			count !== undefined && previous !== undefined && Math.abs(count - previous) <= SAME_COUNT;
		this.limit = agrees ? Math.min(count, previous) : undefined;
		this.candidate = count;
		return this.limit;
	}

	/**
	 * From when, on the run's clock, a request lands in the platform second after `second` (or
	 * later), by the least clock difference the answers allow; undefined until one bounds it.
	 */
	nextSecondAt(second: number): number | undefined {
		return Number.isFinite(this.lo) ? (second + 1) * 1000 - this.lo : undefined;
	}

	/**
	 * Whether the Date fits the clocks' difference earlier answers tell (within FITS_MS; any while
	 * none has): one far off is not a second to wait for.
	 */
	fits({ sentAt, second }: PlatformAnswer, answeredAt: number): boolean {
		if (second === undefined) return false;
		return (
			second * 1000 - answeredAt < this.hi + FITS_MS &&
			second * 1000 + 1000 - sentAt > this.lo - FITS_MS
		);
	}

	/**
	 * The answer was dated while its request was at the platform, after it started (`sentAt`) and
	 * before the answer came (`answeredAt`): the platform's clock minus the run's was then in
	 * (second·1000 − answeredAt, second·1000 + 1000 − sentAt).
	 */
	private bound({ sentAt, second }: PlatformAnswer, answeredAt: number): void {
		if (second === undefined) return;
		const lo = second * 1000 - answeredAt;
		const hi = second * 1000 + 1000 - sentAt;
		// Clocks that moved (or a Date at odds with the others): start over from this answer.
		if (lo >= this.hi || hi <= this.lo) {
			this.lo = lo;
			this.hi = hi;
			return;
		}
		this.lo = Math.max(this.lo, lo);
		this.hi = Math.min(this.hi, hi);
	}

	/** The accepted answers dated `second`, or undefined when a second just before held more. */
	private countIn(second: number): number | undefined {
		const counts = new Map<number, number>();
		// The latest first; -Infinity past the ones kept ends the walk.
		for (let i = 1; ; i++) {
			const at = this.seconds.latest(i);
			if (at < second - 3) break;
			if (at <= second) counts.set(at, (counts.get(at) ?? 0) + 1);
		}
		const count = counts.get(second) ?? 0;
		if (count === 0) return undefined;
		for (const other of counts.values()) if (other > count) return undefined;
		return count;
	}
}
