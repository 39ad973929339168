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
 * A run is due turns at `floorPerSecond` at least (a lone run's floor, SENDER_SHARERS): turns that
 * fast cost nothing, so sharing with seven other runs is free. A later turn costs the time past
 * due, each moment once however many wait. Turns sooner than due earn at most SCHEDULE_AHEAD_MS
 * of credit: a run served well waits free for one turn at the board's bound, not for ten.
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
	 * A request waiting since `since` gets its turn at `at` (or none, the board failing then): the
	 * cost, counted and returned; undefined, counting nothing, if over what is left (stop sending).
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
