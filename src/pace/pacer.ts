/** The Pacer: spaces a run's (or a sender's runs') requests, learning the rate from 429s. */
import { realClock } from './clock';
import type { Clock } from './clock';
import { PlatformSeconds } from './platform-seconds';
import type { PlatformAnswer } from './platform-seconds';
import { RecentMoments } from './recent-moments';
import { RATE_HEADROOM } from './pace';
import type { Pace } from './pace';

/** The slowest pace a run is backed off to: one request per 10 s. */
export const MIN_RATE = 0.1;
/** A back-off with no request through halves the rate, to at most this many per second. */
export const FIRST_BACKOFF_RATE = 10;
/** An unpaced run that probed its way beyond this many requests per second is unpaced again. */
const UNPACED_RATE = 1000;
/** After a back-off's pause, the run holds its rate this long (up to 1.5 times, at random). */
export const PROBE_AFTER_MS = 20_000;
/** The longest a run holds its rate before it probes again. */
export const MAX_HOLD_MS = 120_000;
/** Each second of probing without a refusal adds this share of the rate, twice that next. */
const PROBE_STEP = 0.02;
const PROBE_INTERVAL_MS = 1000;
const MAX_PROBE_STEP = 0.16;
/** A run held below this share of its pace probes after SHARED_HOLD_MS. */
export const SHARED_BELOW = 0.4;
export const SHARED_HOLD_MS = 5000;
/** What went through is measured over this long at most. */
const MEASURE_MS = 2000;

/**
 * One pace for all the requests of a run (or, for a sender's rate, of every run of this n8n process
 * sending from that sender: see sharedPacer), however many are in flight: starts evenly spaced, at
 * RATE_HEADROOM of the rate given, so that no second of the platform holds more than the rate
 * whether it counts per second of its clock (a fixed window), over any second (a sliding window) or
 * with a token bucket. Slots missed while the process was busy (a store call, a garbage collection)
 * are caught up no faster than that (freeAt).
 *
 * A 429 pauses every request of the run (not only the refused one; in shared turns the gate pauses
 * the refused one alone: RateGate.pausesRequestOnly) for the time the platform asked, and sets the
 * rate from what the platform let through: the run's requests answered per second over the last
 * MEASURE_MS before the refusal (over the time since the last pause, when that is shorter) are what
 * the platform's window holds, or the run's share of it when other runs send from the same sender;
 * the run holds RATE_HEADROOM of that. Waiting at that rate is not lost time (RateGate.lostMs).
 * With nothing through, the rate halves (to at most FIRST_BACKOFF_RATE). The rate never falls below
 * the pace's floor (for a sender's rate, 1 / SENDER_SHARERS of it) nor MIN_RATE.
 *
 * After a refusal the run holds its rate for PROBE_AFTER_MS to half as long again (SHARED_HOLD_MS
 * when it holds less than SHARED_BELOW of its pace: it likely shares the limit with runs that will
 * end), then probes for more, faster the longer nothing is refused, up to the rate given: the
 * platform's limit may be higher than measured, or the other runs done. A probe refused sends the
 * run back to the rate it held, and the next probe comes twice as late (up to MAX_HOLD_MS). Runs of
 * one process sharing a Pacer are one run to the platform; runs with pacers of their own (other
 * workers) learn their shares only from refusals, unless Share Pace Across Workers gives them turns
 * from the trigger's board (shared-turns.ts). More in docs/benchmarks.md, How Message › Send paces
 * a run.
 */
export class Pacer {
	private target: number;
	private readonly floor: number;
	/** Requests per second now; 0: unpaced. */
	private rate: number;
	nextStart = 0;
	pausedUntil = 0;
	/** Counts back-offs: a request whose slot was given out before one waits for a new slot. */
	backOffs = 0;
	/** The rate the last back-off set, and whether the run has probed above it since. */
	private heldRate = 0;
	private probed = false;
	/**
	 * The rate due (0: unpaced), below which waiting is lost: the configured one, or the one the
	 * last back-off measured (else a run told twice the limit spends its budget holding the limit).
	 */
	private entitled: number;
	/** How long the run holds its rate after a back-off: longer after each refused probe. */
	private holdMs = PROBE_AFTER_MS;
	/** When the current stretch without a refusal began (the last pause's end). */
	private stretchFrom: number;
	private probeAt = Infinity;
	private probeStep = PROBE_STEP;
	/** When the last answers that went through arrived. */
	private readonly answers = new RecentMoments();
	/** When the last requests started (see freeAt). */
	private readonly starts = new RecentMoments();
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

	/** The share of waiting time lost when not paused: 0 at the configured or the measured rate. */
	get slowedShare(): number {
		if (this.backOffs === 0) return 0;
		if (this.entitled) return this.rate < this.entitled ? 1 - this.rate / this.entitled : 0;
		return this.rate ? 1 : 0;
	}

	/** Paces at `perSecond` at most from now on (a run's share of a sender's rate, when alone). */
	capAt(perSecond: number): void {
		const cap = perSecond * RATE_HEADROOM;
		if (this.target && this.target <= cap) return;
		this.target = cap;
		this.rate = this.rate ? Math.min(this.rate, cap) : cap;
		this.entitled = this.entitled ? Math.min(this.entitled, cap) : cap;
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
	 * The earliest a request may start, from `now` on: the starts of a second's worth of slots (the
	 * rate rounded up, at least one) span that many spacings, however late their slots came, and two
	 * starts are half a spacing apart at least (else a stall of the process gives two starts in one
	 * millisecond, that pair again every second, and a 429 under a sliding window). A back-off
	 * forgets the starts: the count begins anew at the pause's end.
	 */
	freeAt(now: number): number {
		if (!this.rate) return now;
		const slots = Math.ceil(this.rate - 1e-9);
		const caughtUp = this.starts.latest(slots) + (slots * 1000) / this.rate;
		return Math.max(now, caughtUp, this.starts.latest(1) + 500 / this.rate);
	}

	/** A request starts now (see freeAt). */
	started(at: number): void {
		this.starts.add(at);
	}

	/** Grows the rate a step per probe interval since the hold ended, each step twice the last. */
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
	 * The platform refused a request (429): nobody starts before `pauseMs` from now, and the rate is
	 * set from what went through, once per refusal of a request that started after the last
	 * back-off: the refusals of requests already in flight at the first one (`ticket` from
	 * acquire(), older than the last back-off) are the same event, and extend the pause only. When
	 * two refusals found the same number of answers dated in their platform second (`answer`,
	 * PlatformSeconds), that is the limit: the run holds RATE_HEADROOM of it and waits only for the
	 * platform's next second (the refused request itself still waits `pauseMs`, RateGate.ownWaitMs).
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
		// Slots ahead are given out anew; freeAt counts from the pause's end as a fresh start.
		this.nextStart = Math.min(this.nextStart, now);
		this.starts.clear();
		// Over MEASURE_MS or the shorter stretch (a second's count is coarse at a few a second).
		const span = Math.min(MEASURE_MS, Math.max(0, now - this.stretchFrom));
		const through = this.answers.within(now, span) / Math.max(1, span / 1000);
		const measured = limit ?? (through > 0 ? through : undefined);
		let rate = measured
			? measured * RATE_HEADROOM
			: Math.min((this.rate || Infinity) / 2, FIRST_BACKOFF_RATE);
		// A probe refused: back to the rate held (or what went through, if more); next probe later.
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
		// Held far below its pace, the run likely shares the limit with runs that will end.
		if (!probeRefused && this.target && this.rate < this.target * SHARED_BELOW)
			this.holdMs = Math.min(this.holdMs, SHARED_HOLD_MS);
		this.probed = false;
		this.stretchFrom = this.pausedUntil;
		this.probeStep = PROBE_STEP;
		this.probeAt = this.pausedUntil + this.holdMs * (1 + this.random() / 2);
	}

	/** A request went through: counted for the next back-off's measure (`answer`: its second). */
	succeeded(answer?: PlatformAnswer): void {
		if (answer) this.seconds.accepted(answer, this.clock.now());
		this.answers.add(this.clock.now());
	}
}
