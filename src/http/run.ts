import { RateGate, sharedPacer } from '../pace/gate';
import type { Pace } from '../pace/gate';
import type { RequestContext } from './endpoints';

/** What every request of one node run shares: one pace and one wait budget for rate limits. */
export interface RunState {
	gate: RateGate;
	/** The option that sets the budget, as the editor labels it, when the operation has one. */
	waitOption?: string;
	/** Options › Preview Without Sending: no write of the run is sent (RequestPreview). */
	preview?: boolean;
}

const runStates = new WeakMap<object, RunState>();

export function runState(context: RequestContext): RunState {
	let state = runStates.get(context);
	if (!state) runStates.set(context, (state = { gate: new RateGate(undefined) }));
	return state;
}

/**
 * Sets how the requests of this run are paced and how long the run may wait in all because of
 * rate limits (429): every request of the run goes through one RateGate, so a 429 slows the whole
 * run and every second it loses to rate limits counts against one budget (see RateGate.lostMs).
 * A new pace keeps the budget already set. With a `shareKey` (an object pace only), the run shares
 * its pacer with every run of this process given the same key and pace (sharedPacer): call the
 * gate's `release` when the run ends.
 */
export function configureRun(
	context: RequestContext,
	settings: {
		pace?: Pace | number;
		shareKey?: string;
		waitBudgetMs?: number;
		waitOption?: string;
		preview?: boolean;
	},
): RateGate {
	const state = runState(context);
	if (settings.pace !== undefined) {
		const { pace, shareKey } = settings;
		const gate = new RateGate(
			shareKey && typeof pace === 'object' ? { shared: sharedPacer(shareKey, pace) } : pace,
		);
		gate.waitBudgetMs = state.gate.waitBudgetMs;
		state.gate = gate;
	}
	if (settings.waitBudgetMs !== undefined) state.gate.waitBudgetMs = settings.waitBudgetMs;
	if (settings.waitOption !== undefined) state.waitOption = settings.waitOption;
	if (settings.preview !== undefined) state.preview = settings.preview;
	return state.gate;
}
