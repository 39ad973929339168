/** runInBatches: many input items sent in as few bulk requests as possible. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk } from '../../../src/base';
import { isRequestPreview } from '../../../src/http';
import { prepareRun } from './execute';
import type { Prepared, RunPlan } from './execute';
import { continuesOnFail } from './item-errors';
import { batchPreviewItems, errorItem, failedSendItem } from './items';
import { inPool } from './pool';

interface BatchEntry<V> {
	itemIndex: number;
	value: V;
}

/** Each item's `group` (prepare) is the request target (list, template). */
interface BatchPlan<V> extends RunPlan<{ group: string; value: V }> {
	/** Checks across the prepared items (duplicates), still before any request: errors by item. */
	crossCheck?: (entries: Array<BatchEntry<V> & { group: string }>) => Map<number, Error>;
	batchSize: number;
	/** Sends one batch of a group: each item's output JSON, or the Error refusing it alone. */
	send: (group: string, batch: Array<BatchEntry<V>>) => Promise<Map<number, IDataObject | Error>>;
	/** Batches sent at the same time (default 1). */
	concurrency?: number;
	/** What identifies an item whose outcome is unknown, accepted, not sent or previewed. */
	describe?: (group: string, value: V) => IDataObject;
	/** Where the body holds the items in order: this property, or the body itself (default). */
	rowsAt?: string;
}

type PreparedItems<V> = Array<Prepared<{ group: string; value: V }>>;

/**
 * Cross-check errors set on their items, as failed ones; without Continue On Fail the first stops
 * the run, nothing sent.
 */
function crossCheck<V>(
	plan: BatchPlan<V>,
	prepared: PreparedItems<V>,
	continueOnFail: boolean,
): void {
	if (!plan.crossCheck) return;
	const errors = plan.crossCheck(
		prepared.flatMap((entry, itemIndex) => (entry.ok ? [{ itemIndex, ...entry.value }] : [])),
	);
	if (errors.size && !continueOnFail) {
		let first = Infinity;
		for (const itemIndex of errors.keys()) first = Math.min(first, itemIndex);
		throw errors.get(first);
	}
	for (const [itemIndex, error] of errors) prepared[itemIndex] = { ok: false, error };
}

/**
 * The batches of the items that passed every check, by group in input order; the others get their
 * error item in `output`.
 */
function batchesOf<V>(
	prepared: PreparedItems<V>,
	batchSize: number,
	output: INodeExecutionData[],
): Array<{ group: string; batch: Array<BatchEntry<V>> }> {
	const groups = new Map<string, Array<BatchEntry<V>>>();
	for (let itemIndex = 0; itemIndex < prepared.length; itemIndex++) {
		const entry = prepared[itemIndex];
		if (!entry.ok) {
			output[itemIndex] = errorItem(entry.error, itemIndex);
			continue;
		}
		let members = groups.get(entry.value.group);
		if (!members) groups.set(entry.value.group, (members = []));
		members.push({ itemIndex, value: entry.value.value });
	}
	return [...groups].flatMap(([group, entries]) =>
		chunk(entries, batchSize).map((batch) => ({ group, batch })),
	);
}

/** Where the batches' items' outcomes go. */
interface BatchRun<V> {
	plan: BatchPlan<V>;
	continueOnFail: boolean;
	output: INodeExecutionData[];
	/** Single items refused without Continue On Fail: thrown once every batch was sent. */
	refusals: Array<{ itemIndex: number; error: Error }>;
}

/**
 * Puts each item's outcome of batch `number` (from 1) in the output; a failure without Continue
 * On Fail stops new batches.
 */
async function sendBatch<V>(
	{ plan, continueOnFail, output, refusals }: BatchRun<V>,
	{ group, batch }: { group: string; batch: Array<BatchEntry<V>> },
	number: number,
	stopRun: (error: unknown) => void,
): Promise<void> {
	let results: Map<number, IDataObject | Error>;
	try {
		results = await plan.send(group, batch);
	} catch (error) {
		const describe = (value: V) => plan.describe?.(group, value) ?? {};
		if (isRequestPreview(error)) {
			batchPreviewItems(error, batch, number, plan.rowsAt, describe).forEach(
				(item, position) => (output[batch[position].itemIndex] = item),
			);
			return;
		}
		// Maybe applied, accepted unreadably, or not sent: each item of the batch says which.
		for (const entry of batch) {
			const item = failedSendItem(error as Error, entry.itemIndex, continueOnFail, () =>
				describe(entry.value),
			);
			if (!item) {
				stopRun(error);
				break;
			}
			output[entry.itemIndex] = item;
		}
		return;
	}
	for (const { itemIndex } of batch) {
		const result = results.get(itemIndex);
		if (result instanceof Error) {
			if (continueOnFail) output[itemIndex] = errorItem(result, itemIndex);
			else refusals.push({ itemIndex, error: result });
		} else {
			output[itemIndex] = { json: result ?? {}, pairedItem: { item: itemIndex } };
		}
	}
}

/**
 * Every item is checked before the first request; items go out grouped by target, in batches, each
 * getting one output item paired to it. Without Continue On Fail a refused item stops the node,
 * but only after all batches were sent, so the others are still processed. Linear in items.
 */
export async function runInBatches<V>(
	context: IExecuteFunctions,
	plan: BatchPlan<V>,
): Promise<INodeExecutionData[][]> {
	const continueOnFail = continuesOnFail(context);
	const prepared = await prepareRun(context, plan);
	const output: INodeExecutionData[] = new Array(prepared.length);
	crossCheck(plan, prepared, continueOnFail);
	const batches = batchesOf(prepared, plan.batchSize, output);
	const batchRun: BatchRun<V> = { plan, continueOnFail, output, refusals: [] };
	const run = await inPool(batches.length, plan.concurrency, (job, stopRun) =>
		sendBatch(batchRun, batches[job], job + 1, stopRun),
	);
	if ('failure' in run) throw run.failure;
	const { refusals } = batchRun;
	if (refusals.length)
		throw refusals.reduce((first, refusal) =>
			refusal.itemIndex < first.itemIndex ? refusal : first,
		).error;
	return [output];
}
