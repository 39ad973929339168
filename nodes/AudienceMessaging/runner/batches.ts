/** runInBatches: many input items sent in as few bulk requests as possible. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk } from '../../../src/base';
import { isRequestPreview } from '../../../src/http';
import type { FieldLabels } from '../../../src/base';
import { configureRunOptions, prepareAll } from './execute';
import type { Prepared } from './execute';
import { continuesOnFail } from './item-errors';
import { batchPreviewItems, errorItem, failedSendItem } from './items';
import { inPool } from './pool';

interface BatchEntry<V> {
	itemIndex: number;
	value: V;
}

interface BatchPlan<V> {
	/** The run's Options when the operation read them already (runOptions): not read again. */
	options?: Record<string, unknown>;
	labels: FieldLabels;
	/** Reads and checks one item; `group` is the request target (list, template). No request. */
	prepare: (
		itemIndex: number,
	) => Promise<{ group: string; value: V }> | { group: string; value: V };
	/** Checks across the prepared items (duplicates), still before any request: errors by item. */
	crossCheck?: (entries: Array<BatchEntry<V> & { group: string }>) => Map<number, Error>;
	batchSize: number;
	/** Sends one batch of a group: each item's output JSON, or the Error refusing it alone. */
	send: (group: string, batch: Array<BatchEntry<V>>) => Promise<Map<number, IDataObject | Error>>;
	/** Batches sent at the same time (default 1). */
	concurrency?: number;
	/** Whether the operation's Options hold "Max Wait When Rate Limited" (the wait budget). */
	rateLimitWaitOption?: boolean;
	/** What identifies an item whose outcome is unknown, accepted, not sent or previewed. */
	describe?: (group: string, value: V) => IDataObject;
	/** Where the body holds the items in order: this property, or the body itself (default). */
	rowsAt?: string;
}

type PreparedItems<V> = Array<Prepared<{ group: string; value: V }>>;

/** Cross-check errors by item; without Continue On Fail the first stops the run, nothing sent. */
function crossCheckErrors<V>(
	plan: BatchPlan<V>,
	prepared: PreparedItems<V>,
	continueOnFail: boolean,
): Map<number, Error> {
	if (!plan.crossCheck) return new Map();
	const entries: Array<BatchEntry<V> & { group: string }> = [];
	prepared.forEach((entry, itemIndex) => {
		if (entry.ok) entries.push({ itemIndex, group: entry.value.group, value: entry.value.value });
	});
	const errors = plan.crossCheck(entries);
	if (errors.size && !continueOnFail) {
		let first = Infinity;
		for (const itemIndex of errors.keys()) first = Math.min(first, itemIndex);
		throw errors.get(first);
	}
	return errors;
}

/** The items that passed every check, by group in input order; the others get their error item. */
function groupedEntries<V>(
	prepared: PreparedItems<V>,
	crossErrors: Map<number, Error>,
	fail: (itemIndex: number, error: Error) => void,
): Map<string, Array<BatchEntry<V>>> {
	const groups = new Map<string, Array<BatchEntry<V>>>();
	for (let itemIndex = 0; itemIndex < prepared.length; itemIndex++) {
		const entry = prepared[itemIndex];
		if (!entry.ok) {
			fail(itemIndex, entry.error);
			continue;
		}
		const crossError = crossErrors.get(itemIndex);
		if (crossError) {
			fail(itemIndex, crossError);
			continue;
		}
		let members = groups.get(entry.value.group);
		if (!members) groups.set(entry.value.group, (members = []));
		members.push({ itemIndex, value: entry.value.value });
	}
	return groups;
}

/** One batch's send, with where its items' outcomes go. */
interface BatchJob<V> {
	plan: BatchPlan<V>;
	group: string;
	batch: Array<BatchEntry<V>>;
	number: number;
	continueOnFail: boolean;
	output: INodeExecutionData[];
	/** Single items refused without Continue On Fail: thrown once every batch was sent. */
	refusals: Array<{ itemIndex: number; error: Error }>;
}

/** Puts each item's outcome in the output; a failure without Continue On Fail stops new batches. */
async function sendBatch<V>(job: BatchJob<V>, stopRun: (error: unknown) => void): Promise<void> {
	const { plan, group, batch, output, continueOnFail } = job;
	let results: Map<number, IDataObject | Error>;
	try {
		results = await plan.send(group, batch);
	} catch (error) {
		if (isRequestPreview(error)) {
			const describe = (value: V) => plan.describe?.(group, value) ?? {};
			batchPreviewItems(error, batch, job.number, plan.rowsAt, describe).forEach(
				(item, position) => (output[batch[position].itemIndex] = item),
			);
			return;
		}
		// Maybe applied, accepted unreadably, or not sent: each item of the batch says which.
		for (const entry of batch) {
			const item = failedSendItem(
				error as Error,
				entry.itemIndex,
				continueOnFail,
				plan.describe && (() => plan.describe!(group, entry.value)),
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
			else job.refusals.push({ itemIndex, error: result });
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
	configureRunOptions(context, plan.labels, plan.rateLimitWaitOption ?? false, plan.options);
	const prepared = await prepareAll(context, plan.labels, plan.prepare);
	const output: INodeExecutionData[] = new Array(prepared.length);
	const fail = (itemIndex: number, error: Error) => {
		output[itemIndex] = errorItem(error, itemIndex);
	};
	const crossErrors = crossCheckErrors(plan, prepared, continueOnFail);
	const groups = groupedEntries(prepared, crossErrors, fail);
	const refusals: BatchJob<V>['refusals'] = [];
	const batches = [...groups].flatMap(([group, groupEntries]) =>
		chunk(groupEntries, plan.batchSize).map((batch) => ({ group, batch })),
	);
	const jobs: Array<BatchJob<V>> = batches.map(({ group, batch }, index) => ({
		plan,
		group,
		batch,
		number: index + 1,
		continueOnFail,
		output,
		refusals,
	}));
	const run = await inPool(jobs.length, plan.concurrency, (job, stopRun) =>
		sendBatch(jobs[job], stopRun),
	);
	if ('failure' in run) throw run.failure;
	if (refusals.length)
		throw refusals.reduce((first, refusal) =>
			refusal.itemIndex < first.itemIndex ? refusal : first,
		).error;
	return [output];
}
