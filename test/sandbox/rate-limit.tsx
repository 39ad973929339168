/**
 * How a chat-app sender's `rateLimit` (messages per second) is counted: the `rateLimitWindow` rule.
 * Only accepted messages count: `waitMs` looks, `record` takes the slot once the message is
 * accepted. Times are sandbox-clock milliseconds (the caller passes `clock.nowMs()`), so tests move
 * time.
 */

/**
 * Sandbox choice (spec: not shown): the spec gives a sender's `rateLimit` in messages per second
 * but not how it is counted; the sandbox offers three ways, `second` by default:
 * - `second`: a fixed window, at most `rateLimit` accepted per calendar second of the clock
 *   (`floor(ms / 1000)`);
 * - `sliding`: at most `rateLimit` accepted in any 1,000 ms ending now;
 * - `tokenBucket`: a bucket of `rateLimitBurst` tokens (default the sender's `rateLimit`), refilled
 *   continuously at `rateLimit` tokens per second, one token per accepted message.
 */
export const RATE_LIMIT_WINDOWS = ['second', 'sliding', 'tokenBucket'] as const;
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];

/** Sandbox choice (spec: not shown): the length of the sliding window, in ms. */
export const SLIDING_WINDOW_MS = 1000;

export interface RateLimitRules {
	window: RateLimitWindow;
	/** Token bucket capacity; null: the sender's rateLimit. */
	burst: number | null;
}

/** The limit of one sender at one moment: its rateLimit and the rules in force. */
export interface RateLimitContext extends RateLimitRules {
	rateLimit: number;
}

/**
 * Accepted times, oldest first: an array read from `head`, compacted when the read part is the
 * larger half, so push, peek and shift are O(1) amortized and memory stays linear in what is held.
 */
class TimeQueue {
	private times: number[] = [];
	private head = 0;

	get size(): number {
		return this.times.length - this.head;
	}

	/** The i-th oldest (0 = oldest). */
	at(i: number): number {
		return this.times[this.head + i];
	}

	push(ms: number): void {
		this.times.push(ms);
	}

	shift(): void {
		this.head++;
		if (this.head >= 32 && this.head * 2 >= this.times.length) {
			this.times = this.times.slice(this.head);
			this.head = 0;
		}
	}
}

type SenderRate =
	| { window: 'second'; second: number; count: number }
	| { window: 'sliding'; accepted: TimeQueue }
	/**
	 * `milli` is thousandths of a token (a token is 1000), so refills of whole ms at integer rates
	 * stay exact.
	 */
	| { window: 'tokenBucket'; milli: number; at: number };

const MILLI = 1000;

/** Per-sender counters of accepted messages. */
export class RateLimiter {
	private readonly senders = new Map<string, SenderRate>();

	reset(): void {
		this.senders.clear();
	}

	/**
	 * 0 when a message of `senderId` may be accepted at `now`; otherwise the ms until one may (> 0).
	 * Takes nothing: call `record` once the message is accepted.
	 */
	waitMs(senderId: string, now: number, limit: RateLimitContext): number {
		const state = this.state(senderId, now, limit);
		switch (state.window) {
			case 'second':
				return state.second === Math.floor(now / 1000) && state.count >= limit.rateLimit
					? 1000 - (now - state.second * 1000)
					: 0;
			case 'sliding': {
				const { accepted } = state;
				if (accepted.size < limit.rateLimit) return 0;
				// The accepted message whose leaving brings the count under rateLimit (the oldest one
				// unless rateLimit was lowered while the window held more).
				return accepted.at(accepted.size - limit.rateLimit) + SLIDING_WINDOW_MS - now;
			}
			case 'tokenBucket':
				return state.milli >= MILLI ? 0 : (MILLI - state.milli) / limit.rateLimit;
		}
	}

	/** Counts one accepted message of `senderId` at `now` (after `waitMs` answered 0). */
	record(senderId: string, now: number, limit: RateLimitContext): void {
		const state = this.state(senderId, now, limit);
		switch (state.window) {
			case 'second': {
				const second = Math.floor(now / 1000);
				if (state.second !== second) Object.assign(state, { second, count: 0 });
				state.count++;
				return;
			}
			case 'sliding':
				state.accepted.push(now);
				return;
			case 'tokenBucket':
				state.milli -= MILLI;
		}
	}

	/**
	 * The sender's counters brought to `now`: expired accepted times dropped, the bucket refilled.
	 * Counters of another window (the rule was changed) start afresh: an empty window, a full bucket.
	 */
	private state(senderId: string, now: number, limit: RateLimitContext): SenderRate {
		const capacity = (limit.burst ?? limit.rateLimit) * MILLI;
		let state = this.senders.get(senderId);
		if (!state || state.window !== limit.window) {
			state =
				limit.window === 'second'
					? { window: 'second', second: Math.floor(now / 1000), count: 0 }
					: limit.window === 'sliding'
						? { window: 'sliding', accepted: new TimeQueue() }
						: { window: 'tokenBucket', milli: capacity, at: now };
			this.senders.set(senderId, state);
		}
		if (state.window === 'sliding') {
			const { accepted } = state;
			while (accepted.size > 0 && now - accepted.at(0) >= SLIDING_WINDOW_MS) accepted.shift();
		} else if (state.window === 'tokenBucket') {
			const elapsed = Math.max(0, now - state.at);
			state.milli = Math.min(capacity, state.milli + elapsed * limit.rateLimit);
			state.at = Math.max(state.at, now);
		}
		return state;
	}
}

/** Whole seconds for Retry-After: `ms` rounded up, at least 1. */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
