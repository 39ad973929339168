import { sleep as n8nSleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: async (ms) => await n8nSleep(ms) };

/** Paced at this share of the sender's rateLimit: network jitter can otherwise put one message too many into a second. */
export const SENDER_RATE_SHARE = 0.95;

/**
 * The pace of a run whose sender says `rateLimit` messages per second (Sender › Get): a little under
 * it. A missing, zero or unreadable rateLimit leaves the run at `fallback`.
 */
export function senderPace(rateLimit: unknown, fallback: number | undefined): number | undefined {
	const rate = typeof rateLimit === 'number' || typeof rateLimit === 'string' ? Number(rateLimit) : NaN;
	return Number.isFinite(rate) && rate > 0 ? rate * SENDER_RATE_SHARE : fallback;
}

/** The slowest pace a run is backed off to: one request per 10 s. */
const MAX_INTERVAL_MS = 10_000;
/** The first back-off of an unpaced run spaces requests by this much. */
const FIRST_BACKOFF_INTERVAL_MS = 100;

/**
 * One pace for all the requests of a run, however many are in flight: at most `ratePerSecond`
 * requests start per second, and a 429 pauses every request of the run (not only the refused
 * one) for the time the platform asked, then halves the pace; each success brings the pace back
 * up by 10 % toward the configured rate (additive-increase is too slow for short runs, so both
 * moves are multiplicative).
 */
export class RateGate {
	private readonly baseInterval: number;
	private interval: number;
	private nextSlot = 0;
	private pausedUntil = 0;

	constructor(
		ratePerSecond: number | undefined,
		private readonly clock: Clock = realClock,
	) {
		this.baseInterval = ratePerSecond && ratePerSecond > 0 ? 1000 / ratePerSecond : 0;
		this.interval = this.baseInterval;
	}

	/** The current spacing between two request starts, in ms. */
	get spacingMs(): number {
		return this.interval;
	}

	/** Waits for this request's slot: after any back-off pause, and one interval after the previous slot. */
	async acquire(): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			const start = Math.max(now, this.nextSlot, this.pausedUntil);
			this.nextSlot = start + this.interval;
			if (start > now) await this.clock.sleep(start - now);
			// A 429 that arrived while this request waited pushes it behind the new pause.
			if (this.pausedUntil <= Math.max(start, this.clock.now())) return;
		}
	}

	/** The platform refused a request (429): nobody starts before `pauseMs` from now, and the pace halves. */
	backOff(pauseMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + pauseMs);
		this.interval = Math.min(MAX_INTERVAL_MS, Math.max(this.interval * 2, this.baseInterval * 2, FIRST_BACKOFF_INTERVAL_MS));
	}

	/** A request went through: the pace recovers toward the configured rate. */
	succeeded(): void {
		if (this.interval > this.baseInterval) this.interval = Math.max(this.baseInterval, this.interval * 0.9);
		if (this.interval < 1) this.interval = this.baseInterval;
	}
}
