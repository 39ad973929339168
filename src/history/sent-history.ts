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
	/**
	 * Messages claimed in the first write, ahead of their sending (at least 1). The next windows hold
	 * what the run sends in WINDOW_MS at the pace measured since the last one (or in WRITE_SHARE
	 * times the last write, when the store is that slow), from claimAhead to MAX_CLAIM_AHEAD.
	 */
	claimAhead: number;
	/** The clock (ms), for tests. */
	now?: () => number;
}

/**
 * A confirmation waits this long at most for its write when no claim carries it (ms; the last ones
 * are written by close): what a worker killed mid-run leaves sent but unconfirmed, for Resend
 * Unconfirmed to send again (docs/operations.md has the figures).
 */
const CONFIRM_WITHIN_MS = 500;

/**
 * One run's use of a node's sent history (a HistoryStore): which of its message keys an earlier
 * execution sent, and, as the run sends, which it claimed, sent and released. A key holds up to
 * three values:
 * - its claim `c:`, written when a run is first given the key (lookUp), and written anew when a
 *   run sends a key an earlier run was given but never sent (so that it is as young as the
 *   message's other values: n8n forgets the oldest values first);
 * - its attempt `a:`, written just before its message is sent, for a window of keys at once
 *   (claim);
 * - its confirmation `s:`, written once the platform accepted it, with the next window's attempts
 *   or after CONFIRM_WITHIN_MS (settle), its claim and attempt again beside it (a value another
 *   process's write dropped comes back).
 * A message the platform refused, or one the run did not send, loses its attempt (close): the next
 * run sends it. A message whose answer was lost keeps its attempt without confirmation, as does
 * every message in flight when n8n stopped: the next run finds it `unconfirmed`. The store's calls
 * go through a HistoryRow.
 */
export class SentHistory {
	readonly row: HistoryRow;
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
	/**
	 * Preclaimed keys whose message went out: their claim is written anew (see the class); a failure
	 * leaves the old claim, or none (the next run then cannot claim the key, and says so).
	 */
	private toRefresh: string[] = [];
	/** Writes of the run not awaited by a send (close waits for them). */
	private pending = new Set<Promise<unknown>>();
	/** When the oldest confirmation waiting for its write was settled (see settle). */
	private waitingSince?: number;
	/** How many keys a write claims (see claimAhead). */
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

	/**
	 * Forgets every message of the node's history, once per label (see HistoryRow.clearOnce); a
	 * preview only asks. Returns whether it forgot (or, in a preview, would).
	 */
	async forget(label: string): Promise<boolean> {
		return await this.row.clearOnce(forgottenFor(label), this.options.preview === true);
	}

	/**
	 * What earlier executions did with each key (unique keys). Claims the keys given for the first
	 * time, and the attempts of keys given before but never attempted. n8n's store can only ask by
	 * adding: a confirmation asked of a key left unconfirmed is taken back in the same turn, and a
	 * preview takes back every value it adds (HistoryRow.probe). A run's lookup is bounded as its
	 * other writes are: the row never grows past the bound, which keeps every call short.
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
		const ahead = Math.max(1, Math.floor(this.windows.size / 2));
		if (this.nextToClaim < this.order.length && this.nextToClaim - position <= ahead)
			this.claimWindow(this.nextToClaim);
		return await claimed;
	}

	/** Claims a window of keys of the plan not yet claimed, from position `from` on. */
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
		// Written with the next claims, or by the first settle CONFIRM_WITHIN_MS after the oldest one
		// (longer when the store is slow to write).
		if (now - this.waitingSince < Math.max(CONFIRM_WITHIN_MS, WRITE_SHARE * this.row.lastWriteMs))
			return;
		const confirms = this.takeConfirms();
		this.inBackground(this.row.record(confirms.flatMap(sentValuesOf), true), () =>
			this.toConfirm.push(...confirms),
		);
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
		await Promise.all(this.pending);
		const confirms = this.takeConfirms();
		await this.row.record(confirms.flatMap(sentValuesOf), true);
		await this.row.remove(releases);
		await this.row.rewrite(this.toRefresh.splice(0).map(claimOf));
		await this.row.settle();
	}
}
