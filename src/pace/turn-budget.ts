/** What waiting for shared turns costs a run's wait budget. */
import { SCHEDULE_AHEAD_MS } from './board';

/** What a run's wait budget (RateGate) lends the shared turns: what is left, and the time lost. */
export interface RunBudget {
	/** What is left of the run's wait budget, in ms (Infinity: no budget). */
	leftMs(): number;
	lose(ms: number): void;
}

/** A budget that never runs out (for a caller that keeps none). */
export const NO_BUDGET: RunBudget = { leftMs: () => Infinity, lose: () => undefined };

/**
 * The share of a run's wait budget its waits for shared turns cost. A run is due its turns at
 * `floorPerSecond` at least (the floor a run pacing alone never backs off below: 1 / SENDER_SHARERS
 * of the sender's rate), as a run pacing alone is due the rate it measured: waiting for turns at
 * that rate or faster costs nothing, so sharing the rate with up to seven other runs is free. A
 * turn that comes later than due (a run among many, a board asked slowly, one that failed) costs
 * the time past due, in full, each moment counted once however many requests wait. Turns that came
 * sooner than due earn no more than SCHEDULE_AHEAD_MS of credit: a run served well waits for a turn
 * the board put at its bound at no cost, not for ten of them.
 */
export class TurnBudget {
	private readonly dueEveryMs: number;
	/** When the last turn was due (−Infinity: none yet). */
	private due = -Infinity;
	/** Time up to here is counted already. */
	private countedUntil = -Infinity;

	constructor(floorPerSecond: number) {
		this.dueEveryMs = 1000 / floorPerSecond;
	}

	/**
	 * A request that began waiting at `since` gets its turn at `at` (or, `at` being when the board
	 * failed, none): the cost is counted and returned, unless it is more than what is left of the
	 * budget, which is then left as it is (undefined: the request must not wait, the run stops
	 * sending).
	 */
	charge(since: number, at: number, budget: RunBudget): number | undefined {
		const due = Math.max(this.due, since) + this.dueEveryMs;
		const cost = Math.max(0, at - Math.max(due, this.countedUntil));
		if (cost > budget.leftMs()) return undefined;
		budget.lose(cost);
		this.countedUntil = Math.max(this.countedUntil, at);
		this.due = Math.min(due, at + SCHEDULE_AHEAD_MS);
		return cost;
	}
}
