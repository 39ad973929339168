/** A run's rate gate: its pacer, its wait budget, and its turns shared across processes. */
import { realClock } from './clock';
import type { Clock } from './clock';
import { Pacer } from './pacer';
import type { Pace } from './pace';
import type { PlatformAnswer } from './platform-seconds';
import { SharedTurns } from './shared-turns';
import type { SharingFailed } from './shared-turns';
import type { RunBudget } from './turn-budget';
import type { AskTurns } from './turn-grant';

/** A run waits at most this long in all because of rate limits, when its operation does not say. */
export const DEFAULT_WAIT_BUDGET_MS = 60_000;

/**
 * What a run's requests pass before they go out: the run's pace (its Pacer, shared by the runs of
 * this process that send from one sender), the time the run may lose to rate limits in all (its
 * wait budget, Max Wait When Rate Limited), and, with Share Pace Across Workers, the turns other
 * n8n processes' runs share (SharedTurns). It keeps the time lost so far, because a run that keeps
 * meeting 429s must stop at a bound the user set rather than wait for ever; once that budget is
 * spent, no request of the run is sent any more and the rest come out `notSent`.
 */
export class RateGate {
	readonly pacer: Pacer;
	/** Time lost to rate limits so far (see lostMs), counted up to `lostAt`. */
	private lost = 0;
	private lostAt = 0;
	/** Requests of the run waiting in acquire() now: time counts as lost only while one waits. */
	private waiting = 0;
	/** Until when refused requests wait out their own pauses (pausesRequestOnly), counted. */
	private ownPausesUntil = 0;
	private spent = false;
	/** The run's wait budget (ms); see lostMs. */
	waitBudgetMs = DEFAULT_WAIT_BUDGET_MS;
	/** Gives a shared pacer back (see sharedPacer); nothing for the run's own. */
	readonly release: () => void;
	/** Turns shared across processes (shareTurns), each waited for after a request's slot. */
	turns?: SharedTurns;
	private readonly budget: RunBudget = {
		leftMs: () => this.waitBudgetMs - this.lostMs(),
		lose: (ms) => (this.lost += ms),
	};

	constructor(
		pace: Pace | number | undefined | { shared: { pacer: Pacer; release: () => void } },
		clock: Clock = realClock,
		random: () => number = Math.random,
	) {
		if (typeof pace === 'object' && 'shared' in pace) {
			this.pacer = pace.shared.pacer;
			this.release = pace.shared.release;
		} else {
			this.pacer = new Pacer(pace, clock, random);
			this.release = () => undefined;
		}
	}

	/**
	 * Takes turns from the boards shared with runs on other processes (SharedTurns). When sharing
	 * fails, the run paces alone at the share SharedTurns names, and `onFail` is told why.
	 */
	shareTurns(
		ask: AskTurns,
		key: string,
		perSecond: number,
		onFail: SharingFailed,
		wanted?: () => number,
		random?: () => number,
	): void {
		const failed: SharingFailed = (reason, share) => {
			this.pacer.capAt(share.perSecond);
			this.pacer.nextStart = Math.max(this.pacer.nextStart, share.from);
			onFail(reason, share);
		};
		this.turns = new SharedTurns(ask, key, perSecond, this.clock, failed, wanted, random);
	}

	private get clock(): Clock {
		return this.pacer.clock;
	}

	/**
	 * The wall-clock time the run has lost to rate limits: every moment a request of the run waits
	 * during a 429's pause counts in full, and every moment one waits for a slot while the run is
	 * paced below its due rate counts in part (at half that rate: half; an unpaced run slowed down:
	 * in full). Waiting at the configured pace (or at a rate the platform was seen to allow) is not
	 * lost, nor is waiting for slots other runs sharing the pacer took, nor time when no request
	 * waits; a shared turn costs only past the run's due share (TurnBudget). A platform that answers
	 * 429 forever makes the run lose time as fast as the clock runs, so the budget ends the run.
	 */
	lostMs(now = this.clock.now()): number {
		this.account(now);
		return this.lost;
	}

	/** Whether the run's wait budget is spent: no request of the run is sent any more. */
	get budgetSpent(): boolean {
		return this.spent;
	}

	private account(now: number): void {
		if (now <= this.lostAt) return;
		// Once the budget is spent, the requests still asleep wait for nothing: no time is lost.
		if (this.waiting > 0 && !this.spent) {
			const pauseEnds = Math.min(now, Math.max(this.lostAt, this.pacer.pausedUntil));
			this.lost += pauseEnds - this.lostAt + (now - pauseEnds) * this.pacer.slowedShare;
		}
		this.lostAt = now;
	}

	/** The time lost by `at` if nothing changes until then and a request waits all along. */
	private projectedLost(now: number, at: number): number {
		const pauseEnds = Math.min(at, Math.max(now, this.pacer.pausedUntil));
		return this.lost + (pauseEnds - now) + (at - pauseEnds) * this.pacer.slowedShare;
	}

	get spacingMs(): number {
		return this.pacer.spacingMs;
	}

	get currentRate(): number {
		return this.pacer.currentRate;
	}

	/**
	 * Waits for this request's slot: after any back-off pause, and one spacing after the slot
	 * before (and, sharing turns, for its turn too). The ticket it returns goes to backOff() if the
	 * request is refused. Undefined, at once, when the run's wait budget is spent or would be before
	 * the slot comes: the request must not be sent, as waiting longer would break the user's bound.
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
		const pacer = this.pacer;
		for (;;) {
			if (this.spent) return undefined;
			const backOffs = pacer.backOffs;
			const shared = this.turns?.shared;
			const now = this.clock.now();
			this.account(now);
			pacer.probe(now);
			const start = Math.max(now, pacer.pausedUntil, pacer.nextStart);
			// Waiting for a slot past the budget is not waiting: the run stops sending now.
			if (start > now && this.projectedLost(now, start) > this.waitBudgetMs) return this.spend();
			pacer.nextStart = start + pacer.spacingMs;
			if (start > now) await this.clock.sleep(start - now);
			// A slot that passed while the process was busy: caught up no faster than the rate.
			for (let at = this.clock.now(); pacer.freeAt(at) > at; at = this.clock.now()) {
				if (this.spent || this.projectedLost(at, pacer.freeAt(at)) > this.waitBudgetMs)
					return this.spend();
				await this.clock.sleep(pacer.freeAt(at) - at);
			}
			if (this.turns && !(await this.turns.take(this.budget))) return this.spend();
			// Sharing given up while this request waited for its slot or a turn: a slot at the run's
			// own pace.
			if (shared && !this.turns?.shared) continue;
			// A 429 came while it waited: its slot, at the old rate or in the pause, is taken anew.
			if (pacer.backOffs === backOffs && pacer.pausedUntil <= Math.max(start, this.clock.now())) {
				pacer.started(this.clock.now());
				return backOffs;
			}
		}
	}

	private spend(): undefined {
		this.spent = true;
		return undefined;
	}

	/** A 429 (Pacer.backOff); false, pausing nothing, when the pause would overrun the budget. */
	backOff(pauseMs: number, ticket?: number, answer?: PlatformAnswer): boolean {
		const now = this.clock.now();
		this.account(now);
		// Told first: if this refusal makes the run pace alone, its own pacer takes it.
		this.turns?.refused();
		// A pause longer than what is left of the budget is not waited: the run stops sending.
		if (
			this.spent ||
			this.lost + Math.max(this.pacer.pausedUntil, now + pauseMs) - now > this.waitBudgetMs
		) {
			this.spent = true;
			return false;
		}
		if (this.pausesRequestOnly) {
			// Only the refused request waits; the pause counts in full, each moment once for all.
			this.lost += Math.max(0, now + pauseMs - Math.max(now, this.ownPausesUntil));
			this.ownPausesUntil = Math.max(this.ownPausesUntil, now + pauseMs);
			return true;
		}
		this.pacer.backOff(pauseMs, ticket, answer);
		return true;
	}

	/**
	 * How much longer than the run a refused request waits, after backOff(): it is never sent again
	 * before `resendAt` (the refusal's time plus its pause), though the run may start others sooner
	 * (taking shared turns; or when the platform's full second ends first, Pacer.backOff).
	 */
	ownWaitMs(resendAt: number): number {
		return Math.max(
			0,
			resendAt - Math.max(this.clock.now(), this.pausesRequestOnly ? 0 : this.pacer.pausedUntil),
		);
	}

	/**
	 * Whether a 429 pauses only the refused request, which the caller then waits out itself: so
	 * while the run takes shared turns. The board paces the runs of every process together, so a
	 * refusal there is a request that came late on a busy machine, not a run above its share, and a
	 * pause of the whole run would leave its turns unused.
	 */
	get pausesRequestOnly(): boolean {
		return this.turns?.shared === true;
	}

	/** A request went through, for the next back-off's measure (`answer`: see PlatformAnswer). */
	succeeded(answer?: PlatformAnswer): void {
		this.pacer.succeeded(answer);
	}
}
