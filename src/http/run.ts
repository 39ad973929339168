/** The state all requests of one node run share: one pace, one wait budget, the preview. */
import { RateGate } from '../pace/gate';
import { sharedPacer } from '../pace/shared-pacers';
import type { Pace } from '../pace/pace';
import type { RequestContext } from './endpoints';

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
 * Sets the run's pace and its wait budget for 429s: one RateGate for all its requests, so a 429
 * slows the whole run and all time lost counts against one budget (RateGate.lostMs); a new pace
 * keeps the budget. A `shareKey` (object pace only) shares the pacer with this process's runs of
 * the same key and pace (sharedPacer): call the gate's `release` when the run ends.
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
