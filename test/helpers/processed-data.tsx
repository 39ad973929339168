/**
 * n8n's store for what nodes processed (`this.helpers.checkProcessedAndRecord` and its siblings),
 * in memory, for the node harness: the same rules as n8n's own DeduplicationHelper (n8n 2.40.7,
 * packages/cli/src/deduplication/deduplication-helper.ts) in mode `entries`, which the e2e tests
 * run for real. One row per workflow and context (`n:<node id>` for scope `node`, '' for
 * `workflow`) holding the md5 hashes (base64) of the values, oldest first; a record adds the values
 * not held (without checking the call's own values against each other), then drops the oldest
 * beyond `maxEntries`; a removal drops the first equal hash of each value. Each call reads the
 * row, waits a tick as a database would, then writes the whole row: two calls at once lose one's
 * writes, as in n8n (the store has no lock).
 */
import { createHash } from 'node:crypto';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

const hash = (value: DeduplicationItemTypes) =>
	createHash('md5').update(value.toString()).digest('base64');

const contextOf = (scope: DeduplicationScope, data: ICheckProcessedContextData) => {
	if (scope !== 'node') return '';
	if (!data.node)
		throw new Error("No node information has been provided and so cannot use scope 'node'");
	return `n:${data.node.id}`;
};

const tick = async () => await new Promise((resolve) => setImmediate(resolve));

export class MemoryProcessedData implements IDataDeduplicator {
	/** Rows by `<workflow id> <context>`: the hashes held, oldest first. */
	readonly rows = new Map<string, string[]>();
	/** Calls made, by method (to see batching). */
	readonly calls: Record<string, number> = {};
	/** Makes the next calls fail with this error (a database that is down). */
	failWith?: Error;

	private rowKey(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
		if (!data.workflow.id)
			throw new Error('The expression evaluated to a falsy value: contextData.workflow.id');
		return `${data.workflow.id} ${contextOf(scope, data)}`;
	}

	private async read(method: string, key: string): Promise<string[] | undefined> {
		this.calls[method] = (this.calls[method] ?? 0) + 1;
		if (this.failWith) throw this.failWith;
		const row = this.rows.get(key);
		await tick();
		return row && [...row];
	}

	reset(): void {
		this.rows.clear();
		for (const method of Object.keys(this.calls)) delete this.calls[method];
		this.failWith = undefined;
	}

	/** The values a node's row holds, among `values` (the test knows what it looks for). */
	held(workflowId: string, nodeId: string, values: string[]): string[] {
		const row = new Set(this.rows.get(`${workflowId} n:${nodeId}`) ?? []);
		return values.filter((value) => row.has(hash(value)));
	}

	/**
	 * Takes the values out of a node's row, as a write of another process does when it read the row
	 * before they were written and writes it back after.
	 */
	drop(workflowId: string, nodeId: string, values: string[]): void {
		const gone = new Set(values.map(hash));
		const key = `${workflowId} n:${nodeId}`;
		this.rows.set(
			key,
			(this.rows.get(key) ?? []).filter((value) => !gone.has(value)),
		);
	}

	size(workflowId: string, nodeId: string): number {
		return this.rows.get(`${workflowId} n:${nodeId}`)?.length ?? 0;
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		if (options.mode !== 'entries') throw new Error('only mode "entries" is modelled');
		const key = this.rowKey(scope, data);
		const row = await this.read('checkProcessedAndRecord', key);
		const hashes = items.map(hash);
		if (!row) {
			if (options.maxEntries) hashes.splice(0, hashes.length - options.maxEntries);
			this.rows.set(key, hashes);
			return { new: items, processed: [] };
		}
		const held = new Set(row);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		hashes.forEach((value, index) => {
			if (held.has(value)) output.processed.push(items[index]);
			else {
				output.new.push(items[index]);
				row.push(value);
			}
		});
		if (options.maxEntries) row.splice(0, row.length - options.maxEntries);
		this.rows.set(key, row);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<void> {
		const key = this.rowKey(scope, data);
		const row = await this.read('removeProcessed', key);
		if (!row) return;
		for (const value of items.map(hash)) {
			const index = row.indexOf(value);
			if (index !== -1) row.splice(index, 1);
		}
		this.rows.set(key, row);
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<void> {
		const key = this.rowKey(scope, data);
		await this.read('clearAllProcessedItems', key);
		this.rows.delete(key);
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<number> {
		return (await this.read('getProcessedDataCount', this.rowKey(scope, data)))?.length ?? 0;
	}
}

/** The one store of the node harness (n8n allows one per process): see runNode. */
export const processedData = new MemoryProcessedData();
