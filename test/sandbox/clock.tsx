/** The sandbox's clock (moved or frozen by tests), and real timers cancelled all at once. */
import { badRequest } from './http';

/** What `clock.state()` and the admin clock endpoints answer. */
export interface ClockState {
	/** The sandbox's current time, ISO 8601 UTC with milliseconds and `Z`. */
	now: string;
	/** How far the sandbox clock runs ahead of the real clock, in ms. */
	offsetMs: number;
	frozen: boolean;
}

/**
 * The sandbox's notion of "now": the real clock plus an offset that only grows (`advance`), and
 * optionally frozen. Every time rule (conversation window, quota day, rate-limit second) and every
 * date the messaging part writes reads it. Real delays (callback pacing, retries) use real timers.
 */
export class SandboxClock {
	private offsetMs = 0;
	private frozenAt: number | undefined;

	nowMs(): number {
		return (this.frozenAt ?? Date.now()) + this.offsetMs;
	}

	now(): Date {
		return new Date(this.nowMs());
	}

	/** ISO 8601 UTC with milliseconds and `Z`. */
	iso(): string {
		return this.now().toISOString();
	}

	/** Moves the clock forward by `ms` (a finite number >= 0); answers the new time. */
	advance(ms: number): Date {
		if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
			throw badRequest(
				`advanceMs must be a finite number of milliseconds >= 0 (got ${JSON.stringify(ms)})`,
			);
		}
		this.offsetMs += ms;
		return this.now();
	}

	/** Stops the clock at its current time: only `advance` moves it until `unfreeze`. */
	freeze(): void {
		if (this.frozenAt === undefined) this.frozenAt = Date.now();
	}

	/** Lets the clock run again from the time it showed. */
	unfreeze(): void {
		if (this.frozenAt === undefined) return;
		this.offsetMs += this.frozenAt - Date.now();
		this.frozenAt = undefined;
	}

	get frozen(): boolean {
		return this.frozenAt !== undefined;
	}

	state(): ClockState {
		return { now: this.iso(), offsetMs: this.offsetMs, frozen: this.frozen };
	}

	/** Back to the real time, running. */
	reset(): void {
		this.offsetMs = 0;
		this.frozenAt = undefined;
	}
}

/**
 * Real-time timers that can all be cancelled at once (reset, close); unref'd so they never hold a
 * process open.
 */
export class TimerSet {
	private readonly pending = new Map<NodeJS.Timeout, () => void>();

	/** Resolves true after `ms`, or false as soon as `cancelAll` runs. */
	sleep(ms: number): Promise<boolean> {
		return new Promise((resolve) => {
			const timer = setTimeout(
				() => {
					this.pending.delete(timer);
					resolve(true);
				},
				Math.max(0, ms),
			);
			timer.unref();
			this.pending.set(timer, () => resolve(false));
		});
	}

	cancelAll(): void {
		for (const [timer, cancel] of this.pending) {
			clearTimeout(timer);
			cancel();
		}
		this.pending.clear();
	}
}
