import { sleep as n8nSleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: async (ms) => await n8nSleep(ms) };

/** Paced at this share of the sender's rateLimit: network jitter can otherwise put one message too many into a second. */
export const SENDER_RATE_SHARE = 0.95;

/** A pace: requests per second, and how many may start together (default: the rate, rounded up). */
export interface Pace {
	perSecond: number;
	burst?: number;
	/** The slowest a 429 backs the run off to, in requests per second (default: one request per 10 s). */
	floor?: number;
}

/**
 * A sender's limit is the platform's, shared by every run sending from it: a run paced at it backs
 * off to no less than this share of it. Below that, a run that lost the race for a few seconds to
 * another run crawled on at a request every few seconds after the other had finished (simulated:
 * two runs at one sender's full rate reached 15 % of it).
 */
export const SENDER_SHARERS = 8;

/**
 * The pace of a run whose sender says `rateLimit` messages per second (Sender › Get): a little under
 * it, in bursts of the whole rateLimit, each window a little over a second (50/s: 50 in any
 * 1,053 ms), so that a burst's requests may arrive up to about 25 ms late or early before two
 * bursts share one of the platform's seconds. A missing, zero or unreadable rateLimit leaves the
 * run at `fallback`.
 */
export function senderPace(rateLimit: unknown, fallback: number | undefined): Pace | number | undefined {
	const rate = typeof rateLimit === 'number' || typeof rateLimit === 'string' ? Number(rateLimit) : NaN;
	if (!Number.isFinite(rate) || rate <= 0) return fallback;
	return { perSecond: rate * SENDER_RATE_SHARE, burst: Math.max(1, Math.floor(rate)), floor: (rate * SENDER_RATE_SHARE) / SENDER_SHARERS };
}

/** The slowest pace a run is backed off to: one request per 10 s. */
const MIN_RATE = 0.1;
/** After a back-off's pause, the rate at least doubles in this time without another 429 (up to the configured rate). */
const RECOVERY_DOUBLING_MS = 1000;
/** The first back-off of an unpaced run, or of a faster one, brings it to this many requests per second. */
const FIRST_BACKOFF_RATE = 10;
/** An unpaced run that recovered beyond this many requests per second is unpaced again. */
const UNPACED_RATE = 1000;
/** The most requests one window may let start (the start times kept). */
const MAX_BURST = 1000;

/** A run waits at most this long in all because of rate limits, when its operation does not say. */
export const DEFAULT_WAIT_BUDGET_MS = 60_000;

/**
 * One pace for all the requests of a run, however many are in flight, counted the way a rate
 * limit of "R per second" is: at most `burst` requests start in any window of burst/R seconds,
 * never under 1 s (R = 20: 20 in any second, which may start together, as n8n's HTTP Request
 * with Batching sends them; a sender's 50/s at 95 %: 50 in any 1,053 ms). At a whole R, evenly
 * spaced starts (one every 1000/R ms) put one near every boundary of the platform's seconds,
 * where a few ms of jitter puts R + 1 into one of them; a burst lies across such a boundary far
 * more rarely, and the window's extra length over a second is the jitter a burst tolerates.
 * A fractional R is evenly spaced (2.5/s: one every 400 ms; 0.5/s: one every 2 s): it is a
 * share of a limit, as several runs sharing a sender are advised to take, and their bursts pile
 * up in one second (four runs at 2.5/s in bursts of 3 reached 52–72 % of a 10/s limit; evenly
 * spaced, 100 %).
 *
 * A 429 pauses every request of the run (not only the refused one) for the time the platform
 * asked, then halves the rate (to at most 10/s, and to no less than the pace's floor: an eighth
 * of a sender's rateLimit, see SENDER_SHARERS); the rate comes back toward the configured one by
 * 10 % per success or by doubling each second after the pause, whichever is faster (additive
 * increase is too slow for short runs; per success alone, a run cut to a request every few
 * seconds took minutes to come back). Simulated with runs sharing a sender
 * (test/bench/shared-sender.bench.tsx), this took four runs at its full rate from 23–66 % of its
 * limit to 76–80 %, two from 27–79 % to 82–87 %, for more 429s (each resent, none lost).
 * From the first 429 on, the run no longer starts in bursts but evenly spaced:
 * a refusal says the limit is shared with other runs, or nearer than the run was told, and the
 * bursts of several runs sharing a sender pile up in one of its seconds.
 */
export class RateGate {
	private readonly baseRate: number;
	private readonly baseBurst: number;
	private readonly floor: number;
	/** Requests per second now; 0: unpaced. */
	private rate: number;
	/** The start times given out last, `MAX_BURST` at most, in a ring ending before `head`. */
	private readonly starts: number[] = new Array<number>(MAX_BURST);
	private head = 0;
	private kept = 0;
	private lastStart = 0;
	private pausedUntil = 0;
	/** Counts back-offs: a request whose slot was given out before one waits for a new slot. */
	private backOffs = 0;
	/** The rate the last back-off set, and when its pause ended: the rate grows back from there. */
	private cutRate = 0;
	private cutEnds = 0;
	/** Time lost to rate limits so far (see lostMs), counted up to `lostAt`. */
	private lost = 0;
	private lostAt = 0;
	/** Requests waiting in acquire() now: time counts as lost only while one waits. */
	private waiting = 0;
	/** Once the budget is spent, no request of the run is sent any more. */
	private spent = false;
	/** The run's wait budget (ms); see lostMs. */
	waitBudgetMs = DEFAULT_WAIT_BUDGET_MS;

	constructor(
		pace: Pace | number | undefined,
		private readonly clock: Clock = realClock,
	) {
		const { perSecond, burst, floor } = typeof pace === 'object' ? pace : { perSecond: pace ?? 0, burst: undefined, floor: undefined };
		this.floor = Math.max(MIN_RATE, floor ?? 0);
		this.baseRate = perSecond > 0 ? perSecond : 0;
		// A whole rate starts in bursts of itself; a fractional one evenly spaced (a burst of 3 would put 3 into a second of a 2.5/s run).
		const whole = Number.isInteger(this.baseRate) ? this.baseRate : 1;
		this.baseBurst = this.baseRate ? Math.min(MAX_BURST, Math.max(1, Math.floor(burst ?? whole))) : MAX_BURST;
		this.rate = this.baseRate;
	}

	/**
	 * The wall-clock time the run has lost to rate limits: every moment a request of the run waits
	 * during a 429's pause counts in full, and every moment one waits for a slot while the run is
	 * paced below its rate counts in part (at half its rate: half; an unpaced run slowed down: in
	 * full). Waiting at the configured pace is not lost, nor is time when no request waits. A
	 * platform that answers 429 forever makes the run lose time as fast as the clock runs.
	 */
	lostMs(now = this.clock.now()): number {
		this.account(now);
		return this.lost;
	}

	/** Whether the run's wait budget is spent: no request of the run is sent any more. */
	get budgetSpent(): boolean {
		return this.spent;
	}

	/** The share of waiting time lost when not paused: 0 at the configured rate. */
	private get slowedShare(): number {
		if (this.backOffs === 0) return 0;
		if (this.baseRate) return this.rate < this.baseRate ? 1 - this.rate / this.baseRate : 0;
		return this.rate ? 1 : 0;
	}

	private account(now: number): void {
		if (now <= this.lostAt) return;
		if (this.waiting > 0) {
			const pauseEnds = Math.min(now, Math.max(this.lostAt, this.pausedUntil));
			this.lost += pauseEnds - this.lostAt + (now - pauseEnds) * this.slowedShare;
		}
		this.lostAt = now;
	}

	/** The time lost by `at` if nothing changes until then and a request waits all along. */
	private projectedLost(now: number, at: number): number {
		const pauseEnds = Math.min(at, Math.max(now, this.pausedUntil));
		return this.lost + (pauseEnds - now) + (at - pauseEnds) * this.slowedShare;
	}

	/** The mean spacing between two request starts, in ms (0: unpaced). */
	get spacingMs(): number {
		return this.rate ? 1000 / this.rate : 0;
	}

	/** How many requests may start in any one window, and the window, in ms (unpaced: no limit). */
	get limit(): { burst: number; windowMs: number } {
		if (!this.rate) return { burst: Infinity, windowMs: 0 };
		// After a refusal, evenly spaced: the platform's limit is shared or nearer than thought, and bursts of several runs pile up in one second.
		if (this.backOffs > 0) return { burst: 1, windowMs: 1000 / this.rate };
		// A burst of at most the rate: the window is then at least 1 s.
		return { burst: this.baseBurst, windowMs: this.baseBurst === 1 ? 1000 / this.rate : Math.max(1000, (this.baseBurst * 1000) / this.rate) };
	}

	/**
	 * Waits for this request's slot: after any back-off pause, and one window after the start
	 * `burst` places back. The ticket it returns goes to backOff() if the request is refused.
	 * Undefined, at once, when the run's wait budget is spent or would be before the slot comes:
	 * the request must not be sent.
	 */
	async acquire(): Promise<number | undefined> {
		this.account(this.clock.now());
		this.waiting++;
		try {
			return await this.nextSlot();
		} finally {
			this.account(this.clock.now());
			this.waiting--;
		}
	}

	private async nextSlot(): Promise<number | undefined> {
		for (;;) {
			if (this.spent) return undefined;
			const backOffs = this.backOffs;
			const now = this.clock.now();
			this.account(now);
			const { burst, windowMs } = this.limit;
			const windowOpens = burst <= this.kept ? this.starts[(this.head - burst + MAX_BURST) % MAX_BURST] + windowMs : 0;
			const start = Math.max(now, this.lastStart, this.pausedUntil, windowOpens);
			// Waiting for a slot past the budget is not waiting: the run stops sending now.
			if (start > now && this.projectedLost(now, start) > this.waitBudgetMs) {
				this.spent = true;
				return undefined;
			}
			this.starts[this.head] = start;
			this.head = (this.head + 1) % MAX_BURST;
			this.kept = Math.min(MAX_BURST, this.kept + 1);
			this.lastStart = start;
			if (start > now) await this.clock.sleep(start - now);
			// A 429 that arrived while this request waited: its slot was given at the old rate, or lies in the pause; it takes a new one.
			if (this.backOffs === backOffs && this.pausedUntil <= Math.max(start, this.clock.now())) return backOffs;
		}
	}

	/**
	 * The platform refused a request (429): nobody starts before `pauseMs` from now, and the rate
	 * halves, once per refusal of a request that started at the current rate: the refusals of
	 * requests already in flight at the first one (`ticket` from acquire(), older than the last
	 * back-off) are the same event, and extend the pause only. Halving for each of them would
	 * take a run with 10 in flight down to a tenth of a request per second at once.
	 * Returns false, and pauses nothing, when the pause would take the run past its wait budget:
	 * the budget is then spent and no request of the run is sent any more.
	 */
	backOff(pauseMs: number, ticket?: number): boolean {
		const now = this.clock.now();
		this.account(now);
		// A pause longer than what is left of the budget is not waited: the run stops sending.
		if (this.spent || this.projectedLost(now, now + pauseMs) > this.waitBudgetMs) {
			this.spent = true;
			return false;
		}
		this.pausedUntil = Math.max(this.pausedUntil, now + pauseMs);
		if (ticket !== undefined && ticket < this.backOffs) return true;
		this.backOffs++;
		// The slots still ahead are given out again (their requests wait for new ones): they count no more.
		while (this.kept > 0 && this.starts[(this.head - 1 + MAX_BURST) % MAX_BURST] > now) {
			this.head = (this.head - 1 + MAX_BURST) % MAX_BURST;
			this.kept--;
		}
		this.lastStart = Math.min(this.lastStart, now);
		this.rate = Math.max(this.floor, Math.min((this.rate || Infinity) / 2, FIRST_BACKOFF_RATE));
		this.cutRate = this.rate;
		this.cutEnds = this.pausedUntil;
		return true;
	}

	/**
	 * A request went through: the rate recovers toward the configured one, by 10 % or to twice the
	 * back-off's rate for each second since its pause ended, whichever is more. Per success alone,
	 * a run backed off to a request every few seconds took minutes to come back.
	 */
	succeeded(): void {
		if (!this.rate || (this.baseRate && this.rate >= this.baseRate)) return;
		this.account(this.clock.now());
		const regrown = this.cutRate * 2 ** (Math.max(0, this.clock.now() - this.cutEnds) / RECOVERY_DOUBLING_MS);
		const rate = Math.max(this.rate / 0.9, regrown);
		if (this.baseRate) this.rate = Math.min(this.baseRate, rate);
		else this.rate = rate > UNPACED_RATE ? 0 : rate;
	}
}
