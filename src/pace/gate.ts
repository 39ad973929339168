import { realClock } from './clock';
import type { Clock } from './clock';
import { Pacer } from './pacer';
import type { Pace } from './pace';
import type { PlatformAnswer } from './platform-seconds';
import type { RunBudget } from './turn-budget';

// The pacer is pacing's engine; what the runs and the tests use of it is exported from here too.
export { Pacer } from './pacer';
export { RATE_HEADROOM } from './pace';
export { sharedPacer, sharedPacerCount } from './shared-pacers';
export type { Clock } from './clock';
export type { Pace } from './pace';

/** A run waits at most this long in all because of rate limits, when its operation does not say. */
export const DEFAULT_WAIT_BUDGET_MS = 60_000;

/**
 * A run's gate: its requests wait for their slots in its pacer (its own, or one it shares), and
 * it keeps the run's own wait budget (see lostMs).
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
	/** Once the budget is spent, no request of the run is sent any more. */
	private spent = false;
	/** The run's wait budget (ms); see lostMs. */
	waitBudgetMs = DEFAULT_WAIT_BUDGET_MS;
	/** Gives a shared pacer back (see sharedPacer); nothing for the run's own. */
	readonly release: () => void;
	/**
	 * Turns shared with runs on other n8n processes (src/pace/shared-turns.ts): each request waits
	 * for its turn too, after its slot. Waiting for turns costs the budget only beyond the run's due
	 * share (src/pace/turn-budget.ts); a wait past the budget is not waited (take() gives false).
	 * Each refusal is told (refused()): the turns may give sharing up.
	 */
	turns?: {
		take(budget: RunBudget): Promise<boolean>;
		refused(): void;
		readonly shared: boolean;
	};
	/** The run's budget as the shared turns see it. */
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

	private get clock(): Clock {
		return this.pacer.clock;
	}

	/**
	 * The wall-clock time the run has lost to rate limits: every moment a request of the run waits
	 * during a 429's pause counts in full, and every moment one waits for a slot while the run is
	 * paced below its rate counts in part (at half its rate: half; an unpaced run slowed down: in
	 * full). Waiting at the configured pace is not lost, nor is waiting for slots other runs sharing
	 * the pacer took, nor time when no request waits. A platform that answers 429 forever makes the
	 * run lose time as fast as the clock runs.
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

	/** The spacing between two request starts, in ms (0: unpaced). */
	get spacingMs(): number {
		return this.pacer.spacingMs;
	}

	/** Requests per second now (0: unpaced). */
	get currentRate(): number {
		return this.pacer.currentRate;
	}

	/**
	 * Waits for this request's slot: after any back-off pause, and one spacing after the slot
	 * before. The ticket it returns goes to backOff() if the request is refused. Undefined, at
	 * once, when the run's wait budget is spent or would be before the slot comes: the request
	 * must not be sent.
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
			const shared = this.turns?.shared;
			if (this.turns && !(await this.turns.take(this.budget))) return this.spend();
			// The run gave sharing up while this request waited for its turn: a slot at its own pace.
			if (shared && !this.turns?.shared) continue;
			// A 429 that arrived while this request waited: its slot was given at the old rate, or lies
			// in the pause; it takes a new one.
			if (pacer.backOffs === backOffs && pacer.pausedUntil <= Math.max(start, this.clock.now())) {
				pacer.started(this.clock.now());
				return backOffs;
			}
		}
	}

	/** The budget is spent: no request of the run is sent any more. */
	private spend(): undefined {
		this.spent = true;
		return undefined;
	}

	/**
	 * The platform refused a request (429): the pacer pauses and sets its rate (Pacer.backOff).
	 * Returns false, and pauses nothing, when the pause would take the run past its wait budget:
	 * the budget is then spent and no request of the run is sent any more.
	 */
	backOff(pauseMs: number, ticket?: number, answer?: PlatformAnswer): boolean {
		const now = this.clock.now();
		this.account(now);
		// Told first: the refusal that shows the turns do not hold the limit is the run's own already.
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
			// The refused request waits out the pause alone (pausesRequestOnly), and the pause counts in
			// full, each moment once however many refused requests wait in it.
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

	/**
	 * A request went through: counted for the next back-off's measure (`answer`: when it started, the
	 * platform second of its Date).
	 */
	succeeded(answer?: PlatformAnswer): void {
		this.pacer.succeeded(answer);
	}
}
