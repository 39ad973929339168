/** The run's set-up (its Options, prepareRun) and the per-item runner, runPerItem. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { configureRun, isRequestPreview } from '../../../src/http';
import { record } from '../../../src/base';
import type { FieldLabels } from '../../../src/base';
import { RATE_LIMIT_WAIT_NAME, previewOf, rateLimitWaitOf } from './descriptions';
import { asFieldError, continuesOnFail, validated, withNothingSent } from './item-errors';
import { errorItem, failedSendItem, previewItem } from './items';
import { inPool } from './pool';

/** The first item's Options, read once and checked: what holds for the run comes from them. */
export function runOptions(
	context: IExecuteFunctions,
	labels: FieldLabels,
): Record<string, unknown> {
	return validated(context, 0, labels, () =>
		record(context.getNodeParameter('options', 0, {}), 'options'),
	);
}

export type Prepared<P> = { ok: true; value: P } | { ok: false; error: Error };

/** What sets up a run and reads its items (prepareRun). */
export interface RunPlan<P> {
	/** The run's Options when the operation read them already (runOptions): not read again. */
	options?: Record<string, unknown>;
	/** Labels of the fields, keyed by the dotted paths used in InputError and zod issues. */
	labels: FieldLabels;
	/** The items to run, the first ones (default: every input item). */
	itemCount?: number;
	/** Reads and checks one item; throws InputError/ZodError for bad input. No request here. */
	prepare: (itemIndex: number) => P | Promise<P>;
	/** Whether the operation's Options hold "Max Wait When Rate Limited" (the wait budget). */
	rateLimitWaitOption?: boolean;
}

/**
 * Phase one of every operation: the run's wait budget and preview set from its Options, then each
 * item read and checked, all before any request. Without Continue On Fail the first bad item stops
 * the node, nothing sent; with it, bad items are set aside.
 */
export async function prepareRun<P>(
	context: IExecuteFunctions,
	plan: RunPlan<P>,
): Promise<Array<Prepared<P>>> {
	const { labels, options = runOptions(context, labels), prepare } = plan;
	const preview = validated(context, 0, labels, () => previewOf(options));
	const waitBudget = plan.rateLimitWaitOption
		? {
				waitBudgetMs: validated(context, 0, labels, () => rateLimitWaitOf(options)),
				waitOption: RATE_LIMIT_WAIT_NAME,
			}
		: {};
	configureRun(context, { preview, ...waitBudget });
	const continueOnFail = continuesOnFail(context);
	const itemCount = plan.itemCount ?? context.getInputData().length;
	const prepared: Array<Prepared<P>> = new Array(itemCount);
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const value = prepare(itemIndex);
			// No await for a value prepared synchronously: it costs a microtask turn per item.
			prepared[itemIndex] = { ok: true, value: isPromise(value) ? await value : value };
		} catch (raw) {
			const error = asFieldError(context, itemIndex, labels, raw);
			if (!continueOnFail) throw withNothingSent(error);
			prepared[itemIndex] = { ok: false, error };
		}
	}
	return prepared;
}

function isPromise<P>(value: P | Promise<P>): value is Promise<P> {
	return typeof (value as { then?: unknown } | null)?.then === 'function';
}

interface ItemOperation<P> extends RunPlan<P> {
	/** Sends one prepared item; returns its output item(s), each paired to the input item. */
	send: (prepared: P, itemIndex: number) => Promise<IDataObject | IDataObject[]>;
	/** Items sent at the same time (default 1: one after the other). Output order never changes. */
	concurrency?: number;
	/** What identifies an item whose outcome is unknown, accepted or not sent (recipient, ID). */
	describe?: (prepared: P) => IDataObject;
	/**
	 * Once all are prepared, before any request: a decision over all items (Message › Send's daily
	 * quota, messages sent before). Items it returns are not sent but output as given (JSON, or an
	 * error item with its outcome), with or without Continue On Fail. Throwing stops the run.
	 */
	beforeSend?: (
		prepared: Array<{ itemIndex: number; value: P }>,
	) => Promise<Map<number, Error | IDataObject>>;
}

/**
 * Every item prepared, then sent, `concurrency` at a time; output in input order, paired. With
 * Continue On Fail each item yields at least one output item; without it the first error starts
 * no further item, those in flight finish, and the lowest failed item's error is thrown.
 */
export async function runPerItem<P>(
	context: IExecuteFunctions,
	operation: ItemOperation<P>,
): Promise<INodeExecutionData[][]> {
	const prepared = await prepareRun(context, operation);
	const held = await operation.beforeSend?.(
		prepared.flatMap((entry, itemIndex) => (entry.ok ? [{ itemIndex, value: entry.value }] : [])),
	);
	const continueOnFail = continuesOnFail(context);
	const results: INodeExecutionData[][] = new Array(prepared.length);
	const run = await inPool(prepared.length, operation.concurrency, async (itemIndex, fail) => {
		const entry = prepared[itemIndex];
		if (!entry.ok) {
			results[itemIndex] = [errorItem(entry.error, itemIndex)];
			return;
		}
		const describe = () => operation.describe?.(entry.value) ?? {};
		const notSent = held?.get(itemIndex);
		if (notSent) {
			results[itemIndex] = [
				notSent instanceof Error
					? errorItem(notSent, itemIndex, describe())
					: { json: notSent, pairedItem: { item: itemIndex } },
			];
			return;
		}
		try {
			const result = await operation.send(entry.value, itemIndex);
			results[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({
				json,
				pairedItem: { item: itemIndex },
			}));
		} catch (error) {
			if (isRequestPreview(error)) {
				results[itemIndex] = [previewItem(error.request, itemIndex, describe())];
				return;
			}
			const item = failedSendItem(error as Error, itemIndex, continueOnFail, describe);
			if (item) results[itemIndex] = [item];
			else fail(error);
		}
	});
	if ('failure' in run) throw run.failure;
	return [results.flat()];
}
