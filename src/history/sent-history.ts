import type { HistoryStore } from './store';
import { attemptOf, claimOf, confirmationOf } from './values';
import type { SentBefore, Settlement } from './values';
import { WRITE_SHARE, nextWindowSize } from './windows';

export interface SentHistoryOptions {
	/** Preview Without Sending: look keys up and leave the store as it was. */
	preview?: boolean;
	/**
	 * Messages claimed in the first write, ahead of their sending (at least 1). The next windows hold
	 * what the run sends in WINDOW_MS at the pace measured since the last one (or in WRITE_SHARE
	 * times the last write, when the store is that slow), from claimAhead to MAX_CLAIM_AHEAD.
	 */
	claimAhead: number;
	/**
	 * Longest a confirmation waits for its write when no claim carries it, while messages are settled
	 * (ms); the last ones are written by close.
	 */
	confirmWithinMs?: number;
	/** The clock (ms), for tests. */
	now?: () => number;
}

/**
 * One run's use of a node's sent history (a HistoryStore): which of its message keys an earlier
 * execution sent, and, as the run sends, which it claimed, sent and released. A key holds up to
 * three values:
 * - its claim `c:`, written when a run is first given the key (lookUp, one write for the run);
 * - its attempt `a:`, written just before its message is sent, for a window of keys at once
 *   (claim);
 * - its confirmation `s:`, written once the platform accepted it, with the next window's attempts
 *   or after confirmWithinMs (settle).
 * A message the platform refused, or one the run did not send, loses its attempt (close): the next
 * run sends it. A message whose answer was lost keeps its attempt without confirmation, as does
 * every message in flight when n8n stopped: the next run finds it `unconfirmed`. Writes are one at a
 * time (the store reads and writes a whole row per call).
 */
export class SentHistory {
	private chain: Promise<unknown> = Promise.resolve();
	/** The keys the run sends, in the order it sends them (plan). */
	private order: string[] = [];
	private position = new Map<string, number>();
	private nextToClaim = 0;
	/** Per claimed key: whether the claim is this run's (false: another run's attempt was there). */
	private claims = new Map<string, Promise<boolean>>();
	/** Keys an earlier run left unconfirmed that this run sends again: their attempt stays. */
	private resent = new Set<string>();
	/**
	 * Keys an earlier run was given but never attempted, whose attempt lookUp wrote: claimed by this
	 * run from the start (taking the attempts back would cost n8n a search of the row per key).
	 */
	private preclaimed = new Set<string>();
	private settled = new Map<string, Settlement>();
	private toConfirm: string[] = [];
	/** When the oldest confirmation waiting for its write was settled (see settle). */
	private waitingSince?: number;
	/** Store calls made by this run (for the benchmarks and tests of batching). */
	calls = 0;
	/** Keys claimed in one write now (see claimAhead). */
	private windowSize: number;
	private lastWriteMs = 0;
	private lastClaimAt?: number;
	/** Messages settled in all, and when the last window was claimed (the run's measured pace). */
	private settledCount = 0;
	private settledAtClaim = 0;
	private readonly now: () => number;

	constructor(
		private readonly store: HistoryStore,
		private readonly options: SentHistoryOptions,
	) {
		this.windowSize = Math.max(1, options.claimAhead);
		this.now = options.now ?? Date.now;
	}

	/** Store calls one after the other: each reads and rewrites the node's whole history. */
	private serial<T>(task: () => Promise<T>): Promise<T> {
		const run = this.chain.then(async () => {
			this.calls++;
			const started = this.now();
			try {
				return await task();
			} finally {
				this.lastWriteMs = this.now() - started;
			}
		});
		this.chain = run.catch(() => undefined);
		return run;
	}

	/**
	 * Records values; `bounded` lets the store drop its oldest values beyond its bound. A lookup is
	 * not bounded: what it reads in one call stays there for its next call, and a preview takes back
	 * all it added.
	 */
	private async record(values: string[], bounded = true): Promise<Set<string>> {
		if (values.length === 0) return new Set();
		const { processed } = await this.serial(() => this.store.record(values, bounded));
		return new Set(processed);
	}

	private async remove(values: string[]): Promise<void> {
		if (values.length) await this.serial(() => this.store.remove(values));
	}

	/** Forgets every message of the node's history (not in a preview: it records nothing). */
	async forget(): Promise<void> {
		if (!this.options.preview) await this.serial(() => this.store.clear());
	}

	/**
	 * What earlier executions did with each key (unique keys). Claims the keys given for the first
	 * time, and the attempts of keys given before but never attempted; a preview leaves the store as
	 * it found it. n8n's store can only ask by adding: the values its checks add where they were
	 * missing are taken back, which costs a search of the row per value, so only for the few keys
	 * left unconfirmed, and for a preview.
	 */
	async lookUp(keys: string[]): Promise<Map<string, SentBefore>> {
		const found = new Map<string, SentBefore>(keys.map((key) => [key, 'new']));
		if (keys.length === 0) return found;
		if (this.options.preview && (await this.serial(() => this.store.count())) === 0) return found;
		const claimed = await this.record(keys.map(claimOf), false);
		const known = keys.filter((key) => claimed.has(claimOf(key)));
		// Only keys claimed before can have been attempted, and only attempted ones sent.
		const attempted = await this.record(known.map(attemptOf), false);
		const tried = known.filter((key) => attempted.has(attemptOf(key)));
		const confirmed = await this.record(tried.map(confirmationOf), false);
		const added: string[] = [];
		for (const key of known) {
			if (!attempted.has(attemptOf(key))) {
				if (this.options.preview) added.push(attemptOf(key));
				else this.preclaimed.add(key);
			} else if (confirmed.has(confirmationOf(key))) found.set(key, 'sent');
			else {
				found.set(key, 'unconfirmed');
				added.push(confirmationOf(key));
			}
		}
		if (this.options.preview)
			added.push(...keys.filter((key) => !claimed.has(claimOf(key))).map(claimOf));
		await this.remove(added);
		return found;
	}

	/**
	 * The keys this run sends, in the order their sending starts; `resent`: those an earlier run left
	 * unconfirmed (Resend Unconfirmed).
	 */
	plan(keys: string[], resent: Iterable<string> = []): void {
		this.order = keys;
		this.position = new Map(keys.map((key, index) => [key, index]));
		this.resent = new Set(resent);
	}

	/**
	 * Claims the key before its message is sent: resolves true when the run may send it, false when
	 * another run claimed it since lookUp (two runs at once). Claims the next keys of the plan in the
	 * same write, and the window after it once half of this one is started.
	 */
	async claim(key: string): Promise<boolean> {
		if (this.options.preview) return true;
		const position = this.position.get(key);
		if (position === undefined) throw new Error(`message key ${key} is not in the run's plan`);
		if (!this.claims.has(key)) this.claimWindow(position);
		const claimed = this.claims.get(key)!;
		const ahead = Math.max(1, Math.floor(this.windowSize / 2));
		if (this.nextToClaim < this.order.length && this.nextToClaim - position <= ahead)
			this.claimWindow(this.nextToClaim);
		return await claimed;
	}

	/** Claims a window of keys of the plan not yet claimed, from position `from` on. */
	private claimWindow(from: number): void {
		const now = this.now();
		if (this.lastClaimAt !== undefined)
			this.windowSize = nextWindowSize({
				first: this.options.claimAhead,
				settled: this.settledCount - this.settledAtClaim,
				elapsedMs: now - this.lastClaimAt,
				lastWriteMs: this.lastWriteMs,
			});
		this.lastClaimAt = now;
		this.settledAtClaim = this.settledCount;
		const window: string[] = [];
		let index = from;
		for (; index < this.order.length && window.length < this.windowSize; index++)
			if (!this.claims.has(this.order[index])) window.push(this.order[index]);
		if (window.length === 0) return;
		this.nextToClaim = Math.max(this.nextToClaim, index);
		const confirms = this.takeConfirms();
		const written = this.record([...confirms.map(confirmationOf), ...window.map(attemptOf)]);
		// A failed write loses no confirmation: it goes with the next one.
		written.catch(() => this.toConfirm.push(...confirms));
		for (const key of window)
			this.claims.set(
				key,
				written.then(
					(held) => !held.has(attemptOf(key)) || this.resent.has(key) || this.preclaimed.has(key),
				),
			);
	}

	private takeConfirms(): string[] {
		this.waitingSince = undefined;
		return this.toConfirm.splice(0);
	}

	/** What became of a claimed key's message (see Settlement). */
	settle(key: string, settlement: Settlement): void {
		if (this.options.preview) return;
		this.settled.set(key, settlement);
		this.settledCount++;
		if (settlement !== 'sent') return;
		this.toConfirm.push(key);
		const now = this.now();
		this.waitingSince ??= now;
		// Written with the next claims, or by the first settle confirmWithinMs after the oldest one
		// (longer when the store is slow to write).
		const within = Math.max(this.options.confirmWithinMs ?? 2000, WRITE_SHARE * this.lastWriteMs);
		if (now - this.waitingSince < within) return;
		const confirms = this.takeConfirms();
		this.record(confirms.map(confirmationOf)).catch(() => this.toConfirm.push(...confirms));
	}

	/**
	 * Ends the run's use of the history: confirms what was sent, and releases the claims of messages
	 * refused, not sent, or never started (the run stopped). Call it once every send has settled.
	 */
	async close(): Promise<void> {
		if (this.options.preview) return;
		const releases: string[] = [];
		const release = (key: string, ours: boolean) => {
			const settlement = this.settled.get(key);
			if (ours && settlement !== 'sent' && settlement !== 'unknown' && !this.resent.has(key))
				releases.push(attemptOf(key));
		};
		for (const [key, claim] of this.claims) release(key, await claim.catch(() => false));
		for (const key of this.preclaimed) if (!this.claims.has(key)) release(key, true);
		const confirms = this.takeConfirms();
		await this.record(confirms.map(confirmationOf));
		await this.remove(releases);
		await this.chain;
	}
}
