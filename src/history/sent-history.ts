/** One run's use of a node's sent history: lookups, then claims, confirmations and releases. */
import { HistoryRow, REMOVALS_PER_CALL } from './row';
import type { HistoryStore } from './store';
import { attemptOf, claimOf, confirmationOf, forgottenFor, sentValuesOf } from './values';
import type { SentBefore, Settlement } from './values';
import { ClaimWindows, WRITE_SHARE } from './windows';

interface SentHistoryOptions {
	/** The node's row within this process (its workflow's and its own ID): its calls go in turn. */
	row: string;
	/** Preview Without Sending: look keys up and leave the store as it was. */
	preview?: boolean;
	/** Messages claimed in the first write, ahead of sending (at least 1; then ClaimWindows). */
	claimAhead: number;
	/** The clock (ms), for tests. */
	now?: () => number;
}

/**
 * Longest a confirmation no claim carries waits for its write (ms): it bounds what a killed
 * worker leaves sent but unconfirmed, for Resend Unconfirmed (see docs/operations.md).
 */
const CONFIRM_WITHIN_MS = 500;

/**
 * Which keys an earlier execution sent, and which this run claims, sends and releases, as up to
 * three values per key: claim `c:`, attempt `a:` (just before sending) and confirmation `s:` (once
 * accepted, with the other two again, restoring what another process dropped). See
 * docs/architecture.md, Remembering what was sent.
 */
export class SentHistory {
	readonly row: HistoryRow;
	private order: string[] = [];
	private position = new Map<string, number>();
	private nextToClaim = 0;
	/** Per claimed key: whether the claim is this run's (false: another run had attempted it). */
	private claims = new Map<string, Promise<boolean>>();
	/** Keys an earlier run left unconfirmed that this run sends again: their attempt stays. */
	private resent = new Set<string>();
	/**
	 * Keys an earlier run was given but never attempted, whose attempt lookUp wrote: this run's
	 * from the start (taking the attempts back would cost n8n a search of the row per key).
	 */
	private preclaimed = new Set<string>();
	private settled = new Map<string, Settlement>();
	private toConfirm: string[] = [];
	/**
	 * Preclaimed keys sent: claims rewritten as young as their other values (n8n forgets the
	 * oldest first); a failure leaves the old claim or none (the next run can't claim it: says so).
	 */
	private toRefresh: string[] = [];
	/** Writes of the run not awaited by a send (close waits for them). */
	private pending = new Set<Promise<unknown>>();
	/** When the oldest confirmation waiting for its write was settled (see settle). */
	private waitingSince?: number;
	private readonly windows: ClaimWindows;
	private readonly now: () => number;

	constructor(
		store: HistoryStore,
		private readonly options: SentHistoryOptions,
	) {
		this.windows = new ClaimWindows(options.claimAhead);
		this.now = options.now ?? Date.now;
		this.row = new HistoryRow(store, options.row, this.now);
	}

	/** A write no send waits for; a failure is left to `failed` (close waits for them all). */
	private inBackground(write: Promise<unknown>, failed: () => void): void {
		const tracked = write.catch(failed).finally(() => this.pending.delete(tracked));
		this.pending.add(tracked);
	}

	/** Forgets the history once per label (HistoryRow.clearOnce): whether it did (or would). */
	async forget(label: string): Promise<boolean> {
		return await this.row.clearOnce(forgottenFor(label), this.options.preview === true);
	}

	/**
	 * What earlier executions did with each (unique) key; claims new keys, and the attempts of keys
	 * given before but never attempted. Asking adds: what a preview or a confirmation asks is taken
	 * back (HistoryRow.probe). Bounded like every write, so every call stays short.
	 */
	async lookUp(keys: string[]): Promise<Map<string, SentBefore>> {
		const found = new Map<string, SentBefore>(keys.map((key) => [key, 'new']));
		if (keys.length === 0) return found;
		const { preview } = this.options;
		if (preview && (await this.row.count()) === 0) return found;
		const ask = (values: string[]) =>
			preview ? this.row.probe(values) : this.row.record(values, true);
		const claimed = await ask(keys.map(claimOf));
		const known = keys.filter((key) => claimed.has(claimOf(key)));
		// Only keys claimed before can have been attempted, and only attempted ones sent.
		const attempted = await ask(known.map(attemptOf));
		const tried = known.filter((key) => attempted.has(attemptOf(key)));
		const confirmed = await this.row.probe(tried.map(confirmationOf));
		for (const key of known) {
			if (!attempted.has(attemptOf(key))) {
				if (!preview) this.preclaimed.add(key);
			} else found.set(key, confirmed.has(confirmationOf(key)) ? 'sent' : 'unconfirmed');
		}
		return found;
	}

	/** The keys this run sends, in order; `resent`: those left unconfirmed (Resend Unconfirmed). */
	plan(keys: string[], resent: Iterable<string> = []): void {
		this.order = keys;
		this.position = new Map(keys.map((key, index) => [key, index]));
		this.resent = new Set(resent);
	}

	/** Claims the key, a window per write, ahead: false if another run claimed it since lookUp. */
	async claim(key: string): Promise<boolean> {
		if (this.options.preview) return true;
		const position = this.position.get(key);
		if (position === undefined) throw new Error(`message key ${key} is not in the run's plan`);
		if (!this.claims.has(key)) this.claimWindow(position);
		const claimed = this.claims.get(key)!;
		const ahead = Math.max(1, Math.floor(this.windows.size / 2));
		if (this.nextToClaim < this.order.length && this.nextToClaim - position <= ahead)
			this.claimWindow(this.nextToClaim);
		return await claimed;
	}

	private claimWindow(from: number): void {
		const size = this.windows.next(this.now(), this.row.lastWriteMs);
		const window: string[] = [];
		let index = from;
		for (; index < this.order.length && window.length < size; index++)
			if (!this.claims.has(this.order[index])) window.push(this.order[index]);
		if (window.length === 0) return;
		this.nextToClaim = Math.max(this.nextToClaim, index);
		const confirms = this.takeConfirms();
		const written = this.row.record(
			[...confirms.flatMap(sentValuesOf), ...window.map(attemptOf)],
			true,
		);
		// A failed write loses no confirmation: it goes with the next one.
		this.inBackground(written, () => this.toConfirm.push(...confirms));
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
		this.windows.settle();
		if (settlement !== 'notSent' && this.preclaimed.has(key)) this.toRefresh.push(key);
		if (this.toRefresh.length >= REMOVALS_PER_CALL) {
			const keys = this.toRefresh.splice(0);
			this.inBackground(this.row.rewrite(keys.map(claimOf)), () => undefined);
		}
		if (settlement !== 'sent') return;
		this.toConfirm.push(key);
		const now = this.now();
		this.waitingSince ??= now;
		// Written with the next claims, or once the oldest waited CONFIRM_WITHIN_MS (more if slow).
		if (now - this.waitingSince < Math.max(CONFIRM_WITHIN_MS, WRITE_SHARE * this.row.lastWriteMs))
			return;
		const confirms = this.takeConfirms();
		this.inBackground(this.row.record(confirms.flatMap(sentValuesOf), true), () =>
			this.toConfirm.push(...confirms),
		);
	}

	/** Confirms what was sent, releases what surely was not; call once every send has settled. */
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
		await Promise.all(this.pending);
		const confirms = this.takeConfirms();
		await this.row.record(confirms.flatMap(sentValuesOf), true);
		await this.row.remove(releases);
		await this.row.rewrite(this.toRefresh.splice(0).map(claimOf));
		await this.row.settle();
	}
}
