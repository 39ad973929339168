/**
 * A node's history row as one run uses it: n8n's store, read and rewritten whole on each call; its
 * calls taken in turn within the process, kept short, tried twice, each write checked after it.
 */
import { sleep } from 'n8n-workflow';

import type { HistoryStore } from './store';

/**
 * Most values one removal asks n8n to take back: n8n searches the whole row for each (a few ms
 * each at a full history), all in one step of its event loop.
 */
export const REMOVALS_PER_CALL = 25;

/** Most values one record call adds or looks up (n8n hashes them all in one step). */
const RECORDS_PER_CALL = 20_000;

/** Times a write is checked and written again when another process's write dropped some of it. */
const CHECKS = 3;

/** Wait before the second try of a store call that failed (two first writes of a row racing). */
const RETRY_MS = 250;

/**
 * The last check of a run's values waits this many times the longest of the row's recent calls in
 * this process, any run's (within the bounds): by then a write another process began before the
 * run's last write has landed. Another process's calls take as long as this one's under the same
 * load, not as long as the run's own, which may all have come in a quiet moment.
 */
const SETTLE_CALLS = 3;
const SETTLE_MS = { min: 200, max: 3000 };
const RECENT_CALLS = 16;

/** How long the row's last RECENT_CALLS calls in this process took (ms), any run's. */
const recentCalls = new Map<string, number[]>();

/** The last call of each row in this process (see inTurn). */
const turns = new Map<string, Promise<unknown>>();

/**
 * Runs the task after every earlier task given for the same row in this process has ended: n8n's
 * store reads a row and writes it back whole, with no lock, so two calls at once lose one's
 * writes (and two first writes race on the row's key).
 */
export async function inTurn<T>(row: string, task: () => Promise<T>): Promise<T> {
	const run = (turns.get(row) ?? Promise.resolve()).then(task);
	const ended = run.then(
		() => undefined,
		() => undefined,
	);
	turns.set(row, ended);
	void ended.then(() => {
		if (turns.get(row) === ended) turns.delete(row);
	});
	return await run;
}

const chunks = <T>(values: T[], size: number): T[][] =>
	Array.from({ length: Math.ceil(values.length / size) }, (_, index) =>
		values.slice(index * size, (index + 1) * size),
	);

/** One run's calls to a node's history row (`row` names it within the process). */
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

	private async turn<T>(task: () => Promise<T>): Promise<T> {
		return await inTurn(this.row, task);
	}

	/**
	 * Records the values and says which were held before; `bounded` lets n8n drop the oldest values
	 * beyond the history's bound. Each write is then recorded again until none of its values is
	 * missing: what another process's write of the row dropped is written back (and counted).
	 */
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

	/**
	 * Which of the values the row holds, leaving it as it was: n8n's store can only ask by adding, so
	 * the values added are taken back in the same turn (no other run of the process sees them).
	 */
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

	/**
	 * Clears the row unless it holds `marker`, then records it, all in one turn: the first run given
	 * a marker clears the history, a retry or another run given it does not. With `ask`, only says
	 * whether it would clear, leaving the row as it was. Returns whether it cleared (or would).
	 */
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

	/**
	 * The run's last check, when its writes are done: once the writes of other processes that began
	 * before it have landed, everything the run recorded and kept is recorded again, until none of
	 * it was missing (a few rounds at most).
	 */
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
