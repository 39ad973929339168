import { realClock } from './clock';
import type { Clock } from './clock';
import { PlatformSeconds } from './platform-seconds';
import type { PlatformAnswer } from './platform-seconds';
import { RecentMoments } from './recent-moments';
import { RATE_HEADROOM } from './pace';
import type { Pace } from './pace';

/** The slowest pace a run is backed off to: one request per 10 s. */
const MIN_RATE = 0.1;
/** An unpaced run's first back-off with no request through: to this many requests per second. */
const FIRST_BACKOFF_RATE = 10;
/** An unpaced run that probed its way beyond this many requests per second is unpaced again. */
const UNPACED_RATE = 1000;
/** After a back-off's pause, the run holds its rate this long (up to 1.5 times, at random). */
const PROBE_AFTER_MS = 20_000;
/** The longest a run holds its rate before it probes again. */
const MAX_HOLD_MS = 120_000;
/** Each second of probing without a refusal adds this share of the rate, twice that next. */
const PROBE_STEP = 0.02;
const PROBE_INTERVAL_MS = 1000;
const MAX_PROBE_STEP = 0.16;
/** A run held below this share of its pace probes after SHARED_HOLD_MS. */
const SHARED_BELOW = 0.4;
const SHARED_HOLD_MS = 5000;
/** What went through is measured over this long at most. */
const MEASURE_MS = 2000;

/**
 * One pace for all the requests of a run (or, for a sender's rate, of every run of this n8n
 * process sending from that sender: see sharedPacer), however many are in flight: starts evenly
 * spaced, at RATE_HEADROOM of the rate given, so that no second of the platform holds more than
 * the rate whether it counts per second of its clock (a fixed window), over any 1,000 ms (a sliding
 * window) or with a token bucket. Slots missed while the process was
 * busy (a store call, a garbage collection) are caught up no faster than that (freeAt).
 *
 * A 429 pauses every request of the run (not only the refused one) for the time the platform
 * asked, and sets the rate from what the platform let through: the run's requests answered per
 * second over the last two seconds before the refusal (over the time since the last pause, when
 * that is shorter) are what the platform's window holds, or the run's share of it when other runs
 * send from the same sender; the run holds RATE_HEADROOM of that. Waiting at that rate is not
 * lost time (see lostMs). With nothing through, the rate halves (to at most 10/s). The rate never
 * falls below the pace's floor (an eighth of a sender's rateLimit, see SENDER_SHARERS) nor one
 * request per 10 s. The refusals of requests already in flight at the first one are the same
 * event (`ticket` from acquire()): they extend the pause only.
 *
 * After a refusal the run holds its rate for 20–30 s (5–7.5 s when it holds less than 40 % of its
 * pace: it likely shares the limit with runs that will end), then probes for more, faster the
 * longer nothing is refused (2 % of the rate after a second, 4 % more after two, up to 16 % a
 * second), up to the rate given: the platform's limit may be higher than measured, or the other
 * runs done. A probe refused sends the run back to the rate it held, and the next probe comes
 * twice as late. Runs of one process sharing a Pacer are one run to the platform; runs with pacers
 * of their own (other workers) learn their shares only from refusals, unless Share Pace Across
 * Workers gives them turns from the trigger's board (src/pace/shared-turns.ts).
 */
export class Pacer {
	private readonly target: number;
	private readonly floor: number;
	/** Requests per second now; 0: unpaced. */
	private rate: number;
	/** When the next request may start. */
	nextStart = 0;
	/** Nobody starts before this. */
	pausedUntil = 0;
	/** Counts back-offs: a request whose slot was given out before one waits for a new slot. */
	backOffs = 0;
	/** The rate the last back-off set, and whether the run has probed above it since. */
	private heldRate = 0;
	private probed = false;
	/**
	 * The rate the run is due: the configured one (0: unpaced), or the one it set from what went
	 * through at its last back-off. Waiting below it is lost time (see RateGate.lostMs); waiting at
	 * a rate the platform was seen to allow is not, else a run told twice the platform's limit
	 * would spend its budget holding the platform's limit.
	 */
	private entitled: number;
	/** How long the run holds its rate after a back-off: longer after each refused probe. */
	private holdMs = PROBE_AFTER_MS;
	/** When the current stretch without a refusal began (the last pause's end). */
	private stretchFrom: number;
	/** When the rate grows next, and by what share. */
	private probeAt = Infinity;
	private probeStep = PROBE_STEP;
	/** When the last answers that went through arrived. */
	private readonly answers = new RecentMoments();
	/** When the last requests started (see freeAt). */
	private readonly starts = new RecentMoments();
	/** What the answers' Date headers tell of a limit per second of the platform's clock. */
	private readonly seconds = new PlatformSeconds();

	constructor(
		pace: Pace | number | undefined,
		readonly clock: Clock = realClock,
		/** For the probes' jitter (the simulations pass a seeded one). */
		private readonly random: () => number = Math.random,
	) {
		const { perSecond, floor } =
			typeof pace === 'object' ? pace : { perSecond: pace ?? 0, floor: undefined };
		this.floor = Math.max(MIN_RATE, floor ?? 0);
		this.target = perSecond > 0 ? perSecond * RATE_HEADROOM : 0;
		this.rate = this.entitled = this.target;
		this.stretchFrom = clock.now();
	}

	/**
	 * The share of waiting time lost when not paused: 0 at the configured rate, or at the rate the
	 * run measured the platform lets through.
	 */
	get slowedShare(): number {
		if (this.backOffs === 0) return 0;
		if (this.entitled) return this.rate < this.entitled ? 1 - this.rate / this.entitled : 0;
		return this.rate ? 1 : 0;
	}

	/** The spacing between two request starts, in ms (0: unpaced). */
	get spacingMs(): number {
		return this.rate ? 1000 / this.rate : 0;
	}

	/** Requests per second now (0: unpaced). */
	get currentRate(): number {
		return this.rate;
	}

	/**
	 * The earliest a request may start, from `now` on: the starts of a second's worth of slots (at
	 * least one) span that many spacings, however late their slots came, and two starts are half a
	 * spacing apart at least (else a stall of the process gives two starts in one millisecond, that
	 * pair again every second, and a 429 under a sliding window). A back-off's pause starts anew.
	 */
	freeAt(now: number): number {
		if (!this.rate) return now;
		const slots = Math.max(1, Math.floor(this.rate + 1e-9));
		const caughtUp = this.starts.latest(slots) + (slots * 1000) / this.rate;
		return Math.max(now, caughtUp, this.starts.latest(1) + 500 / this.rate);
	}

	/** A request starts now (see freeAt). */
	started(at: number): void {
		this.starts.add(at);
	}

	/**
	 * The rate grows by a step for each probe interval passed since the hold ended, each step twice
	 * the last.
	 */
	probe(now: number): void {
		while (now >= this.probeAt && this.rate) {
			this.rate = this.target
				? Math.min(this.target, this.rate * (1 + this.probeStep))
				: this.rate * (1 + this.probeStep);
			this.probed = true;
			this.probeStep = Math.min(MAX_PROBE_STEP, this.probeStep * 2);
			this.probeAt += PROBE_INTERVAL_MS;
			if (this.target && this.rate >= this.target) this.probeAt = Infinity;
			if (!this.target && this.rate > UNPACED_RATE) {
				this.rate = 0;
				this.probeAt = Infinity;
			}
		}
	}

	/**
	 * The platform refused a request (429): nobody starts before `pauseMs` from now, and the rate
	 * is set from what went through (see RateGate), once per refusal of a request that started
	 * after the last back-off: the refusals of requests already in flight at the first one
	 * (`ticket` from acquire(), older than the last back-off) are the same event, and extend the
	 * pause only. When two refusals found the same number of answers dated in their platform
	 * second (`answer`, src/pace/platform-seconds.ts), that is the limit: the run holds RATE_HEADROOM
	 * of it and waits only for the platform's next second (the refused request itself still waits
	 * `pauseMs`, RateGate.ownWaitMs).
	 */
	backOff(pauseMs: number, ticket?: number, answer?: PlatformAnswer): void {
		const now = this.clock.now();
		const sameEvent = ticket !== undefined && ticket < this.backOffs;
		const limit = sameEvent ? this.seconds.limit : this.seconds.refused(answer, now);
		// A Date at odds with the answers before (a clock an hour off) tells no second.
		const nextSecond =
			limit !== undefined && answer?.second !== undefined && this.seconds.fits(answer, now)
				? this.seconds.nextSecondAt(answer.second)
				: undefined;
		// The platform's second may end the pause sooner, never later than the refusal asked.
		this.pausedUntil = Math.max(this.pausedUntil, Math.min(nextSecond ?? Infinity, now + pauseMs));
		this.probeAt = Math.max(this.probeAt, this.pausedUntil);
		if (sameEvent) return;
		const probeRefused = this.backOffs > 0 && this.probed;
		this.backOffs++;
		// The slots still ahead are given out again (their requests wait for new ones), from the
		// pause's end as the run's start.
		this.nextStart = Math.min(this.nextStart, now);
		this.starts.clear();
		// Per second: over the last two seconds when the stretch is that long (a second's count is
		// coarse at a few per second), else over the stretch.
		const span = Math.min(MEASURE_MS, Math.max(0, now - this.stretchFrom));
		const through = this.answers.within(now, span) / Math.max(1, span / 1000);
		const measured = limit ?? (through > 0 ? through : undefined);
		let rate = measured
			? measured * RATE_HEADROOM
			: Math.min((this.rate || Infinity) / 2, FIRST_BACKOFF_RATE);
		// A probe refused: back to the rate held before it (what went through, if more), and the next
		// probe comes later.
		if (probeRefused) {
			rate = Math.max(rate, this.heldRate);
			if (!this.target || this.heldRate >= this.target * SHARED_BELOW)
				this.holdMs = Math.min(MAX_HOLD_MS, this.holdMs * 2);
		}
		this.rate = this.heldRate = Math.max(
			this.floor,
			this.target ? Math.min(this.target, rate) : rate,
		);
		if (measured) this.entitled = this.rate;
		// Held far below its pace, the run likely shares the limit with other runs: their shares free
		// up when they end.
		if (!probeRefused && this.target && this.rate < this.target * SHARED_BELOW)
			this.holdMs = Math.min(this.holdMs, SHARED_HOLD_MS);
		this.probed = false;
		this.stretchFrom = this.pausedUntil;
		this.probeStep = PROBE_STEP;
		this.probeAt = this.pausedUntil + this.holdMs * (1 + this.random() / 2);
	}

	/**
	 * A request went through: counted for the next back-off's measure (`answer`: its platform
	 * second).
	 */
	succeeded(answer?: PlatformAnswer): void {
		if (answer) this.seconds.accepted(answer, this.clock.now());
		this.answers.add(this.clock.now());
	}
}
