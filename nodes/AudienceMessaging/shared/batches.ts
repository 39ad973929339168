import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk } from '../../../src/batching';
import type { FieldLabels } from '../../../src/errors';
import { errorItem, prepareAll } from './execute';

export interface BatchEntry<V> {
	itemIndex: number;
	value: V;
}

export interface BatchPlan<V> {
	labels: FieldLabels;
	/** Reads and validates one item; `group` is the request target (list, template). No request here. */
	prepare: (itemIndex: number) => Promise<{ group: string; value: V }> | { group: string; value: V };
	/** Checks across all prepared items (duplicates, for example), still before any request; returns errors by item index. */
	crossCheck?: (entries: Array<BatchEntry<V> & { group: string }>) => Map<number, Error>;
	batchSize: number;
	/** Sends one batch of one group; returns each item's output JSON, or the Error that refused that item alone. */
	send: (group: string, batch: Array<BatchEntry<V>>) => Promise<Map<number, IDataObject | Error>>;
}

/**
 * Many input items in as few bulk requests as possible. Every item is validated before the
 * first request; items go out grouped by target, in batches; each input item gets exactly one
 * output item paired to it. Without Continue On Fail a refused item stops the node, but only
 * after all batches were sent, so the other items are still processed. Linear in items.
 */
export async function runInBatches<V>(context: IExecuteFunctions, plan: BatchPlan<V>): Promise<INodeExecutionData[][]> {
	const continueOnFail = context.continueOnFail();
	const prepared = await prepareAll(context, plan.labels, plan.prepare);
	const output: INodeExecutionData[] = new Array(prepared.length);
	const fail = (itemIndex: number, error: Error) => {
		output[itemIndex] = errorItem(error, itemIndex);
	};

	let entries: Array<BatchEntry<V> & { group: string }> = [];
	prepared.forEach((entry, itemIndex) => {
		if (entry.ok) entries.push({ itemIndex, group: entry.value.group, value: entry.value.value });
		else fail(itemIndex, entry.error);
	});
	const crossErrors = plan.crossCheck?.(entries) ?? new Map<number, Error>();
	if (crossErrors.size) {
		if (!continueOnFail) {
			let first = Infinity;
			for (const itemIndex of crossErrors.keys()) first = Math.min(first, itemIndex);
			throw crossErrors.get(first);
		}
		for (const [itemIndex, error] of crossErrors) fail(itemIndex, error);
		entries = entries.filter((entry) => !crossErrors.has(entry.itemIndex));
	}

	const groups = new Map<string, Array<BatchEntry<V>>>();
	for (const { group, itemIndex, value } of entries) {
		let members = groups.get(group);
		if (!members) groups.set(group, (members = []));
		members.push({ itemIndex, value });
	}
	let firstRefusal: Error | undefined;
	for (const [group, groupEntries] of groups) {
		for (const batch of chunk(groupEntries, plan.batchSize)) {
			let results: Map<number, IDataObject | Error>;
			try {
				results = await plan.send(group, batch);
			} catch (error) {
				if (!continueOnFail) throw error;
				for (const entry of batch) fail(entry.itemIndex, error as Error);
				continue;
			}
			for (const { itemIndex } of batch) {
				const result = results.get(itemIndex);
				if (result instanceof Error) {
					if (continueOnFail) fail(itemIndex, result);
					else firstRefusal ??= result;
				} else {
					output[itemIndex] = { json: result ?? {}, pairedItem: { item: itemIndex } };
				}
			}
		}
	}
	if (firstRefusal) throw firstRefusal;
	return [output];
}
