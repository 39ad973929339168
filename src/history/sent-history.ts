/** One run's use of a node's sent history: lookups, then claims, confirmations and releases. */
import { ProcessClaims } from './process-claims';
import { HistoryRow } from './row';
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
	 * Messages claimed in the first write, ahead of their sending (at least 1). The next windows
	 * (ClaimWindows) hold what the run sends in a few seconds at the pace measured since the last one
	 * (or in WRITE_SHARE times the last write, when the store is that slow), from claimAhead to
	 * MAX_CLAIM_AHEAD: one write per window, not per message, keeps a fast run from waiting on the
	 * store.
	 */
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
 * One run's use of a node's sent history (a HistoryStore, through a HistoryRow): which of its
 * message keys an earlier execution sent, and, as the run sends, which it claimed, sent and
 * released. A key holds up to three values:
 * - its claim `c:`, written when a run is first given the key (lookUp), and written anew when a
 *   later run is given a key never attempted, so that it is as young as the message's other values
 *   will be (n8n forgets the oldest values first);
 * - its attempt `a:`, written just before its message is sent, for a window of keys at once
 *   (claim): a run killed mid-send leaves the key attempted but not confirmed, never new;
 * - its confirmation `s:`, written once the platform accepted it, with the next window's attempts
 *   or after CONFIRM_WITHIN_MS (settle), its claim and attempt again beside it (a value another
 *   process's write dropped comes back).
 * A message the platform refused, or one the run did not send, loses its attempt (close): the next
 * run sends it. A message whose answer was lost keeps its attempt without confirmation, as does
 * every message in flight when n8n stopped: the next run finds it `unconfirmed` (`claimed` while
 * another execution of this process holds it: ProcessClaims). See docs/architecture.md,
 * Remembering what was sent.
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
	private settled = new Map<string, Settlement>();
	private toConfirm: string[] = [];
	/** Forget's label mark, written anew when the run ends so that it outlives the run's messages. */
	private mark?: string;
	/** Writes of the run not awaited by a send (close waits for them). */
	private pending = new Set<Promise<unknown>>();
	/** When the oldest confirmation waiting for its write was settled (see settle). */
	private waitingSince?: number;
	private readonly windows: ClaimWindows;
	/** What other executions of this process claimed (Resend Unconfirmed leaves it alone). */
	private readonly inProcess: ProcessClaims;
	private readonly now: () => number;

	constructor(
		store: HistoryStore,
		private readonly options: SentHistoryOptions,
	) {
		this.windows = new ClaimWindows(options.claimAhead);
		this.now = options.now ?? Date.now;
		this.row = new HistoryRow(store, options.row, this.now);
		this.inProcess = new ProcessClaims(options.row);
	}

	/** A write no send waits for; a failure is left to `failed` (close waits for them all). */
	private inBackground(write: Promise<unknown>, failed: () => void): void {
		const tracked = write.catch(failed).finally(() => this.pending.delete(tracked));
		this.pending.add(tracked);
	}

	/** Forgets the history once per label (HistoryRow.clearOnce): whether it did (or would). */
	async forget(label: string): Promise<boolean> {
		this.mark = forgottenFor(label);
		return await this.row.clearOnce(this.mark, this.options.preview === true);
	}

	/**
	 * What earlier executions did with each (unique) key, and claims new keys. Leaves no attempt a
	 * later run could read as unconfirmed: attempts are asked and taken back (HistoryRow.probe), and
	 * the claims of keys given before but never attempted are written anew, as young as a new key's
	 * (n8n forgets the oldest values first). Bounded like every write, so every call stays short.
	 */
	async lookUp(keys: string[]): Promise<Map<string, SentBefore>> {
		const found = new Map<string, SentBefore>(keys.map((key) => [key, 'new']));
		const { preview } = this.options;
		if (!preview) this.inProcess.begin();
		if (keys.length === 0) return found;
		if (preview && (await this.row.count()) === 0) return found;
		const claimed = await (preview
			? this.row.probe(keys.map(claimOf))
			: this.row.record(keys.map(claimOf), true));
		const known = keys.filter((key) => claimed.has(claimOf(key)));
		// Only keys claimed before can have been attempted, and only attempted ones sent.
		const attempted = await this.row.probe(known.map(attemptOf));
		const tried = known.filter((key) => attempted.has(attemptOf(key)));
		const confirmed = await this.row.probe(tried.map(confirmationOf));
		if (!preview)
			await this.row.rewrite(known.filter((key) => !attempted.has(attemptOf(key))).map(claimOf));
		for (const key of tried) {
			if (confirmed.has(confirmationOf(key))) found.set(key, 'sent');
			else found.set(key, this.inProcess.elsewhere(key) ? 'claimed' : 'unconfirmed');
		}
		return found;
	}

	/** The keys this run sends, in order; `resent`: those left unconfirmed (Resend Unconfirmed). */
	plan(keys: string[], resent: Iterable<string> = []): void {
		this.order = keys;
		this.position = new Map(keys.map((key, index) => [key, index]));
		this.resent = new Set(resent);
	}

	/**
	 * Claims the key before its message is sent: resolves true when the run may send it, false when
	 * another run claimed it since lookUp (two runs at once) or another execution of this process
	 * holds it. Claims the next keys of the plan in the same write, and the window after it once half
	 * of this one is started, so a send rarely waits for a write.
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

	private claimWindow(from: number): void {
		const size = this.windows.next(this.now(), this.row.lastWriteMs);
		const window: string[] = [];
		let index = from;
		for (; index < this.order.length && window.length < size; index++) {
			const key = this.order[index];
			if (this.claims.has(key)) continue;
			// Resend Unconfirmed leaves another live run's message alone: it may be in flight.
			if (this.inProcess.elsewhere(key)) this.claims.set(key, Promise.resolve(false));
			else {
				this.inProcess.take(key);
				window.push(key);
			}
		}
		if (window.length === 0) return;
		this.nextToClaim = Math.max(this.nextToClaim, index);
		const written = this.writeConfirms(window.map(attemptOf));
		for (const key of window)
			this.claims.set(
				key,
				written.then((held) => !held.has(attemptOf(key)) || this.resent.has(key)),
			);
	}

	private takeConfirms(): string[] {
		this.waitingSince = undefined;
		return this.toConfirm.splice(0);
	}

	/** Writes the waiting confirmations, and `values`, in the background: what the row held. */
	private writeConfirms(values: string[]): Promise<Set<string>> {
		const confirms = this.takeConfirms();
		const written = this.row.record([...confirms.flatMap(sentValuesOf), ...values], true);
		// A failed write loses no confirmation: it goes with the next one.
		this.inBackground(written, () => this.toConfirm.push(...confirms));
		return written;
	}

	/** What became of a claimed key's message (see Settlement). */
	settle(key: string, settlement: Settlement): void {
		if (this.options.preview) return;
		this.settled.set(key, settlement);
		this.windows.settle();
		if (settlement !== 'sent') return;
		this.toConfirm.push(key);
		const now = this.now();
		this.waitingSince ??= now;
		// Written with the next claims, or once the oldest waited CONFIRM_WITHIN_MS (more if slow).
		if (now - this.waitingSince < Math.max(CONFIRM_WITHIN_MS, WRITE_SHARE * this.row.lastWriteMs))
			return;
		void this.writeConfirms([]);
	}

	/**
	 * Ends the run's use of the history: confirms what was sent, releases the claims of messages
	 * refused, not sent, or never started (the run stopped), and writes Forget's mark anew. Call it
	 * once every send has settled.
	 */
	async close(): Promise<void> {
		if (this.options.preview) return;
		try {
			const releases: string[] = [];
			for (const [key, claim] of this.claims) {
				const settlement = this.settled.get(key);
				const ours = await claim.catch(() => false);
				if (ours && settlement !== 'sent' && settlement !== 'unknown' && !this.resent.has(key))
					releases.push(attemptOf(key));
			}
			await Promise.all(this.pending);
			const confirms = this.takeConfirms();
			await this.row.record(confirms.flatMap(sentValuesOf), true);
			await this.row.remove(releases);
			if (this.mark) await this.row.rewrite([this.mark]);
			await this.row.settle();
		} finally {
			this.inProcess.end();
		}
	}
}
