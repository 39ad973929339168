/**
 * How long Skip Messages Sent Before holds n8n's event loop, on a full history (300,000 values):
 * n8n's own DeduplicationHelper (the installed n8n's code, its algorithm unchanged) over a table
 * kept in memory as the database keeps it (the row's value as JSON text: parsed on each read,
 * serialised on each write, a turn of the event loop for each query). Figures printed, not
 * asserted:
 * - a preview of 50,000 messages new to the history;
 * - a run of 50,000 messages the platform refuses (On Error: Continue): each is claimed, then
 *   released;
 * - the run after a crash that left 10,000 messages claimed, unconfirmed (the largest window);
 * - for comparison, n8n's own removeProcessed of 4,000 values in one call (what one release call
 *   cost before the node asked for a few at a time).
 * For each: the store calls, the longest one (and without V8's garbage collections during it: the
 * garbage is n8n's reading of the row), the 99th percentile, the event loop's longest delay, the
 * total.
 *
 * Run: npx tsx test/bench/history-store.bench.tsx [-- --messages 50000 --only preview|refused|crash]
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';

import { HISTORY_MAX_VALUES, MAX_CLAIM_AHEAD, SentHistory } from '../../src/history';
import type { HistoryStore } from '../../src/history';
import { getRuntime } from '../e2e/n8n-harness';

const arg = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
};
const MESSAGES = Number(arg('messages', '50000'));

const runtime = getRuntime();
const requireN8n = createRequire(join(runtime.runtimeDir, 'node_modules', 'n8n', 'package.json'));
const { Container } = requireN8n('@n8n/di') as {
	Container: { set: (token: unknown, value: unknown) => void };
};
const { ProcessedDataRepository } = requireN8n('@n8n/db') as { ProcessedDataRepository: unknown };
const { DeduplicationHelper } = requireN8n('./dist/deduplication/deduplication-helper.js') as {
	DeduplicationHelper: new () => {
		checkProcessedAndRecord: (...args: unknown[]) => Promise<{ processed: unknown[] }>;
		removeProcessed: (...args: unknown[]) => Promise<void>;
		clearAllProcessedItems: (...args: unknown[]) => Promise<void>;
		getProcessedDataCount: (...args: unknown[]) => Promise<number>;
	};
};

const turn = async () => await new Promise((resolve) => setImmediate(resolve));

/** processed_data with one row, its value stored as the database stores a JSON column: text. */
class MemoryTable {
	text?: string;
	async findOne() {
		await turn();
		return this.text === undefined
			? null
			: { workflowId: 'wf', context: 'n:node', value: JSON.parse(this.text) as unknown };
	}
	async insert(row: { value: unknown }) {
		this.text = JSON.stringify(row.value);
		await turn();
	}
	async update(_where: unknown, row: { value: unknown }) {
		this.text = JSON.stringify(row.value);
		await turn();
	}
	async delete() {
		this.text = undefined;
		await turn();
	}
}

const table = new MemoryTable();
Container.set(ProcessedDataRepository, table);
const helper = new DeduplicationHelper();
const context = { workflow: { id: 'wf' }, node: { id: 'node' } };
const entries = { mode: 'entries' };

/** V8's garbage collections (start, duration), to tell them from the store's own work. */
const collections: Array<{ start: number; ms: number }> = [];
new PerformanceObserver((list) => {
	for (const entry of list.getEntries())
		collections.push({ start: entry.startTime, ms: entry.duration });
}).observe({ entryTypes: ['gc'] });
const collected = (from: number, to: number) =>
	collections
		.filter(({ start }) => start >= from && start < to)
		.reduce((sum, { ms }) => sum + ms, 0);

/**
 * The node's store as the node reaches it (sent-before.ts), each call timed, by kind: its time,
 * and its time without the garbage collections that ran during it.
 */
const durations: number[] = [];
const longestOf: Record<string, number> = {};
let longestWithoutGc = 0;
const timed =
	<A extends unknown[], R>(kind: string, call: (...args: A) => Promise<R>) =>
	async (...args: A): Promise<R> => {
		const started = performance.now();
		try {
			return await call(...args);
		} finally {
			const ended = performance.now();
			const ms = ended - started;
			durations.push(ms);
			longestOf[kind] = Math.max(longestOf[kind] ?? 0, ms);
			longestWithoutGc = Math.max(longestWithoutGc, ms - collected(started, ended));
			if (process.env.SLOW_CALLS && ms > 200)
				console.log(
					`  ${kind} of ${(args[0] as unknown[] | undefined)?.length} values: ${ms.toFixed(0)} ms`,
				);
		}
	};
const store: HistoryStore = {
	record: timed('record', async (values: string[], bounded: boolean) => {
		const { processed } = await helper.checkProcessedAndRecord(
			values,
			'node',
			context,
			bounded ? { ...entries, maxEntries: HISTORY_MAX_VALUES } : entries,
		);
		return { processed: processed.map(String) };
	}),
	remove: timed('remove', async (values: string[]) => {
		await helper.removeProcessed(values, 'node', context, entries);
	}),
	clear: timed('clear', async () => await helper.clearAllProcessedItems('node', context)),
	count: timed('count', async () => await helper.getProcessedDataCount('node', context, entries)),
};

const keys = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, index) => `+33${prefix}${String(index).padStart(7, '0')}`);

/** A full history: 100,000 messages sent, three values each. */
async function fill(): Promise<void> {
	await helper.clearAllProcessedItems('node', context);
	const sent = keys('9', HISTORY_MAX_VALUES / 3);
	const values = sent.flatMap((key) => [`am1c:${key}`, `am1a:${key}`, `am1s:${key}`]);
	await helper.checkProcessedAndRecord(values, 'node', context, {
		...entries,
		maxEntries: HISTORY_MAX_VALUES,
	});
}

async function measure(name: string, scenario: () => Promise<void>): Promise<void> {
	await fill();
	durations.length = 0;
	longestWithoutGc = 0;
	for (const kind of Object.keys(longestOf)) delete longestOf[kind];
	const loop = monitorEventLoopDelay({ resolution: 10 });
	loop.enable();
	const started = performance.now();
	await scenario();
	const total = performance.now() - started;
	loop.disable();
	const longest = Math.max(...durations);
	const sorted = [...durations].sort((a, b) => a - b);
	const p99 = sorted[Math.floor(sorted.length * 0.99)];
	const kinds = Object.entries(longestOf)
		.map(([kind, ms]) => `${kind} ${ms.toFixed(0)}`)
		.join(', ');
	console.log(
		`${name}: ${durations.length} store calls, longest ${longest.toFixed(0)} ms (${kinds}; without garbage collection ${longestWithoutGc.toFixed(0)} ms; 99 % of calls ≤ ${p99.toFixed(0)} ms), event loop's longest delay ${(loop.max / 1e6).toFixed(0)} ms, total ${(total / 1000).toFixed(1)} s`,
	);
}

const historyOf = (preview = false) =>
	new SentHistory(store, { row: 'wf node', claimAhead: 1000, preview });

async function main(): Promise<void> {
	console.log(
		`n8n ${runtime.version}'s DeduplicationHelper, a full history (${HISTORY_MAX_VALUES.toLocaleString('en')} values), ${MESSAGES.toLocaleString('en')} messages`,
	);
	const only = arg('only', '');
	const run = (name: string) => only === '' || name.includes(only);
	if (run('preview'))
		await measure(`preview of ${MESSAGES} new messages`, async () => {
			await historyOf(true).lookUp(keys('1', MESSAGES));
		});
	if (run('refused'))
		await measure(`a run of ${MESSAGES} messages, all refused`, async () => {
			const history = historyOf();
			const all = keys('2', MESSAGES);
			await history.lookUp(all);
			history.plan(all);
			for (const key of all) {
				await history.claim(key);
				history.settle(key, 'notSent');
			}
			await history.close();
		});
	if (run('crash'))
		await measure(`the run after a crash that left ${MAX_CLAIM_AHEAD} claimed`, async () => {
			const all = keys('3', MAX_CLAIM_AHEAD);
			const dying = new SentHistory(store, { row: 'wf node', claimAhead: MAX_CLAIM_AHEAD });
			await dying.lookUp(all);
			dying.plan(all);
			await dying.claim(all[0]);
			durations.length = 0;
			await historyOf().lookUp(all);
		});
	if (run('removeProcessed'))
		await measure("n8n's removeProcessed of 4,000 values in one call", async () => {
			// The youngest values, as a run's own are: n8n searches the row from its oldest value.
			const youngest = keys('9', HISTORY_MAX_VALUES / 3).slice(-4000);
			await store.remove(youngest.map((key) => `am1s:${key}`));
		});
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
