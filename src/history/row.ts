/** One run's use of a node's history row in n8n's store: calls in turn, short, retried, checked. */
import { sleep } from 'n8n-workflow';

import type { HistoryStore } from './store';

/** Most values per removal: n8n searches the whole row for each, all in one event-loop step. */
export const REMOVALS_PER_CALL = 25;

/** Most values one record call adds or looks up (n8n hashes them all in one step). */
const RECORDS_PER_CALL = 20_000;

/** Times a write is checked and written again when another process's write dropped some of it. */
const CHECKS = 3;

/** Wait before the second try of a store call that failed (two first writes of a row racing). */
const RETRY_MS = 250;

/**
 * The last check waits this many times the row's longest recent call in this process, any run's
 * (the run's own may all have been quiet), within SETTLE_MS: others' earlier writes have landed.
 */
const SETTLE_CALLS = 3;
const SETTLE_MS = { min: 200, max: 3000 };
const RECENT_CALLS = 16;

/** Durations (ms) of the row's last RECENT_CALLS calls in this process, any run's. */
const recentCalls = new Map<string, number[]>();

const turns = new Map<string, Promise<unknown>>();

const chunks = <T>(values: T[], size: number): T[][] =>
	Array.from({ length: Math.ceil(values.length / size) }, (_, index) =>
		values.slice(index * size, (index + 1) * size),
	);

export class HistoryRow {
	/** Store calls made (for the benchmarks and the tests of batching). */
	calls = 0;
	/** How long the last write took (ms), its checks included, not its waits for other runs. */
	lastWriteMs = 0;
	private lastCallMs = 0;
	/** Values of this run that another process's write had dropped, written again. */
	rewritten = 0;
	/** The values this run recorded and did not take back (see settle). */
	private readonly kept = new Set<string>();

	constructor(
		private readonly store: HistoryStore,
		private readonly row: string,
		private readonly now: () => number = Date.now,
	) {}

	/** One store call (not in turn: see turn), tried again once when it fails. */
	private async attempt<T>(task: () => Promise<T>): Promise<T> {
		this.calls++;
		const started = this.now();
		try {
			return await task().catch(async () => {
				await sleep(RETRY_MS);
				return await task();
			});
		} finally {
			this.lastCallMs = this.now() - started;
			const recent = recentCalls.get(this.row) ?? [];
			recentCalls.set(this.row, [...recent.slice(1 - RECENT_CALLS), this.lastCallMs]);
		}
	}

	/** Runs the task after the row's earlier ones here: n8n rewrites the whole row with no lock. */
	private async turn<T>(task: () => Promise<T>): Promise<T> {
		const run = (turns.get(this.row) ?? Promise.resolve()).then(task);
		const ended = run.then(
			() => undefined,
			() => undefined,
		);
		turns.set(this.row, ended);
		void ended.then(() => {
			if (turns.get(this.row) === ended) turns.delete(this.row);
		});
		return await run;
	}

	/** Records values, returning those held before; again (CHECKS at most) until none dropped. */
	async record(values: string[], bounded: boolean): Promise<Set<string>> {
		const held = new Set<string>();
		for (const chunk of chunks(values, RECORDS_PER_CALL)) {
			const write = () => this.attempt(() => this.store.record(chunk, bounded));
			const { processed } = await this.turn(write);
			for (const value of chunk) this.kept.add(value);
			let spentMs = this.lastCallMs;
			for (const value of processed) held.add(value);
			for (let round = 0; round < CHECKS; round++) {
				const again = new Set((await this.turn(write)).processed);
				spentMs += this.lastCallMs;
				const dropped = chunk.filter((value) => !again.has(value)).length;
				this.rewritten += dropped;
				if (dropped === 0) break;
			}
			this.lastWriteMs = spentMs;
		}
		return held;
	}

	/** Which values the row holds, left as it was: asking adds, so it removes them in one turn. */
	async probe(values: string[]): Promise<Set<string>> {
		const held = new Set<string>();
		for (const chunk of chunks(values, RECORDS_PER_CALL))
			await this.turn(async () => {
				const { processed } = await this.attempt(() => this.store.record(chunk, false));
				for (const value of processed) held.add(value);
				const added = chunk.filter((value) => !held.has(value));
				for (const few of chunks(added, REMOVALS_PER_CALL))
					await this.attempt(() => this.store.remove(few));
			});
		return held;
	}

	/** Takes the values back, a few at a time (see REMOVALS_PER_CALL). */
	async remove(values: string[]): Promise<void> {
		for (const value of values) this.kept.delete(value);
		for (const chunk of chunks(values, REMOVALS_PER_CALL))
			await this.turn(() => this.attempt(() => this.store.remove(chunk)));
	}

	/** Writes values anew at the young end of the row (taken back, then recorded, bounded). */
	async rewrite(values: string[]): Promise<void> {
		await this.remove(values);
		await this.record(values, true);
	}

	/** Clears the row unless it holds `marker`, then records it, in one turn; `ask`: only asks. */
	async clearOnce(marker: string, ask: boolean): Promise<boolean> {
		if (ask) return !(await this.probe([marker])).has(marker);
		const mark = () => this.attempt(() => this.store.record([marker], true));
		return await this.turn(async () => {
			if ((await mark()).processed.includes(marker)) return false;
			await this.attempt(() => this.store.clear());
			this.kept.clear();
			await mark();
			return true;
		});
	}

	/** Last check: once others' writes have landed, records all kept again while any is missing. */
	async settle(): Promise<void> {
		const values = [...this.kept];
		for (let round = 0; round < CHECKS && values.length > 0; round++) {
			const waitMs = SETTLE_CALLS * Math.max(0, ...(recentCalls.get(this.row) ?? []));
			await sleep(Math.min(SETTLE_MS.max, Math.max(SETTLE_MS.min, waitMs)));
			let dropped = 0;
			for (const chunk of chunks(values, RECORDS_PER_CALL)) {
				const write = () => this.attempt(() => this.store.record(chunk, true));
				const again = new Set((await this.turn(write)).processed);
				dropped += chunk.filter((value) => !again.has(value)).length;
			}
			this.rewritten += dropped;
			if (dropped === 0) return;
		}
	}

	async count(): Promise<number> {
		return await this.turn(() => this.attempt(() => this.store.count()));
	}
}
