import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk } from '../../../src/batching';
import { errorItem } from './execute';

export interface BatchEntry<V> {
	itemIndex: number;
	value: V;
}

export interface BatchPlan<V> {
	/** Reads and validates one item, naming the item and the field on error; `group` is the request target (list, template). */
	prepare: (itemIndex: number) => Promise<{ group: string; value: V }>;
	/** Checks across all prepared items (duplicates, for example), still before any request; returns errors by item index. */
	crossCheck?: (entries: Array<BatchEntry<V>>) => Map<number, Error>;
	batchSize: number;
	/** Sends one batch of one group; returns each item's output JSON, or the Error that refused that item alone. */
	send: (group: string, batch: Array<BatchEntry<V>>) => Promise<Map<number, IDataObject | Error>>;
}

/**
 * Many input items in as few bulk requests as possible. Every item is validated before the
 * first request; items go out grouped by target, in batches; each input item gets exactly one
 * output item paired to it. Without Continue On Fail a refused item stops the node, but only
 * after all batches were sent, so the other items are still processed.
 */
export async function runInBatches<V>(context: IExecuteFunctions, plan: BatchPlan<V>): Promise<INodeExecutionData[][]> {
	const itemCount = context.getInputData().length;
	const continueOnFail = context.continueOnFail();
	const output: INodeExecutionData[] = new Array(itemCount);
	const fail = (itemIndex: number, error: Error) => {
		output[itemIndex] = errorItem(error, itemIndex);
	};

	let entries: Array<BatchEntry<V> & { group: string }> = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const { group, value } = await plan.prepare(itemIndex);
			entries.push({ itemIndex, group, value });
		} catch (error) {
			if (!continueOnFail) throw error;
			fail(itemIndex, error as Error);
		}
	}
	const crossErrors = plan.crossCheck?.(entries) ?? new Map<number, Error>();
	if (crossErrors.size) {
		if (!continueOnFail) throw crossErrors.get(Math.min(...crossErrors.keys()));
		for (const [itemIndex, error] of crossErrors) fail(itemIndex, error);
		entries = entries.filter((entry) => !crossErrors.has(entry.itemIndex));
	}

	const groups = new Map<string, Array<BatchEntry<V>>>();
	for (const { group, ...entry } of entries) groups.set(group, [...(groups.get(group) ?? []), entry]);
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
