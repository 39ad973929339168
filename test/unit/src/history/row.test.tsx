/**
 * A node's history row as one run uses it (src/history/row.ts), on n8n's store as the node harness
 * models it (test/helpers/processed-data.tsx).
 */
import { HistoryRow } from '../../../../src/history/row';
import type { HistoryStore } from '../../../../src/history';
import { MemoryProcessedData } from '../../../helpers/processed-data';

const context = { workflow: { id: 'wf-1', active: false }, node: { id: 'node-1' } } as never;
const entries = { mode: 'entries' } as const;

let data: MemoryProcessedData;
let store: HistoryStore;
beforeEach(() => {
	data = new MemoryProcessedData();
	store = {
		record: async (values, bounded) => {
			const { processed } = await data.checkProcessedAndRecord(
				values,
				'node',
				context,
				bounded ? { ...entries, maxEntries: 100 } : entries,
			);
			return { processed: processed.map(String) };
		},
		remove: async (values) => await data.removeProcessed(values, 'node', context),
		clear: async () => await data.clearAllProcessedItems('node', context),
		count: async () => await data.getProcessedDataCount('node', context),
	};
});

describe("a run's last check", () => {
	it("writes back what another process's write dropped after the run's own checks, and counts it", async () => {
		const row = new HistoryRow(store, 'wf-1 node-1');
		await row.record(['a', 'b', 'c'], true);
		await row.remove(['c']);
		expect(row.rewritten).toBe(0);
		// Another worker read the row before these writes and writes it back now.
		data.drop('wf-1', 'node-1', ['a', 'b']);
		await row.settle();
		expect(data.held('wf-1', 'node-1', ['a', 'b', 'c'])).toEqual(['a', 'b']);
		expect(row.rewritten).toBe(2);
	});

	it("waits three times the row's longest recent call in this process, another run's included, not only its own", async () => {
		// Another run's call took 300 ms (a loaded worker); this run's own calls are quick.
		let clock = 0;
		const slow = new HistoryRow(
			{
				...store,
				record: async (values, bounded) => ((clock += 300), store.record(values, bounded)),
			},
			'wf-slow node-1',
			() => clock,
		);
		await slow.record(['x'], true);
		const row = new HistoryRow(store, 'wf-slow node-1');
		await row.record(['a'], true);
		const started = Date.now();
		await row.settle();
		expect(Date.now() - started).toBeGreaterThanOrEqual(890);
	});

	it('asks nothing more when nothing was dropped, after one round', async () => {
		const row = new HistoryRow(store, 'wf-1 node-1');
		await row.record(['a'], true);
		const calls = row.calls;
		await row.settle();
		expect(row.calls - calls).toBe(1);
		expect(row.rewritten).toBe(0);
	});
});

describe('a probe', () => {
	it('says which values are held and leaves the row as it was', async () => {
		const row = new HistoryRow(store, 'wf-1 node-1');
		await row.record(['a'], true);
		const before = [...data.rows.values()][0].join();
		expect([...(await row.probe(['a', 'b', 'c']))]).toEqual(['a']);
		expect([...data.rows.values()][0].join()).toBe(before);
	});
});
