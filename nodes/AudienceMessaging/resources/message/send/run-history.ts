/** Skip Messages Sent Before in a run: keys, skips, claims and their settlement in the history. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isRequestPreview, outcomeOf, unconfirmedBefore } from '../../../../../src/http';
import { SentHistory } from '../../../../../src/history';
import type { Settlement } from '../../../../../src/history';
import type { Outgoing } from './outgoing';
import { nodeStore } from './sent-before';
import { isQuietHold } from './quiet-hours';
import type { SentBeforeSettings } from './sent-before';

/**
 * Claimed in the first write: about 5 s of pace, 2+ per parallel request, at most 1,000 (later
 * windows follow the pace: SentHistory). If n8n stops, the next run reports them unconfirmed.
 */
export function claimAhead(messagesPerSecond: number, parallelRequests: number): number {
	const pace = messagesPerSecond > 0 ? Math.ceil(messagesPerSecond * 5) : 1000;
	return Math.min(1000, Math.max(2 * parallelRequests, pace));
}

/** What became of a message whose sending threw (see Settlement). */
function settlementOf(error: unknown): Settlement {
	const outcome = outcomeOf(error);
	if (outcome === 'unknown' || isRequestPreview(error)) return 'unknown';
	return outcome === 'accepted' ? 'sent' : 'notSent';
}

interface Entry {
	itemIndex: number;
	value: Outgoing;
}

/** A run's view of the node's history: what earlier runs sent, and this run's claims. */
export class RunHistory {
	readonly history: SentHistory;
	private readonly resent = new Set<string>();
	/**
	 * The run's wait budget for rate limits is spent: its other messages will not go, so they are not
	 * claimed (a claim taken back costs n8n a search of the history per message).
	 */
	private budgetSpent = false;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly settings: SentBeforeSettings,
		private readonly options: { preview: boolean; claimAhead: number },
	) {
		this.history = new SentHistory(nodeStore(context), {
			...options,
			row: `${context.getWorkflow().id} ${context.getNode().id}`,
		});
	}

	/**
	 * Sets aside the messages not to send (an earlier run sent them, or may have; another execution
	 * of this process holds them now; an earlier item of this run has the same key): each gets its
	 * output (an item, or an `unknown` error item). Returns the messages to send.
	 */
	async skip(
		messages: Entry[],
		describe: (outgoing: Outgoing) => IDataObject,
	): Promise<{ held: Map<number, Error | IDataObject>; messages: Entry[] }> {
		const keys = [...new Set(messages.map(({ value }) => value.key!))];
		const { forgetLabel } = this.settings;
		// A preview of a run that forgets: every message is new.
		const forgets = forgetLabel !== '' && (await this.history.forget(forgetLabel));
		const before =
			forgets && this.options.preview
				? new Map(keys.map((key) => [key, 'new' as const]))
				: await this.history.lookUp(keys);
		const held = new Map<number, Error | IDataObject>();
		const first = new Map<string, number>();
		const send: Entry[] = [];
		for (const entry of messages) {
			const key = entry.value.key!;
			const earlier = first.get(key);
			if (earlier !== undefined) {
				held.set(entry.itemIndex, {
					...describe(entry.value),
					status: 'duplicate',
					duplicateOf: earlier,
				});
				continue;
			}
			first.set(key, entry.itemIndex);
			const state = before.get(key);
			if (state === 'sent')
				held.set(entry.itemIndex, { ...describe(entry.value), status: 'sentBefore' });
			else if (state === 'claimed' || (state === 'unconfirmed' && !this.settings.resendUnconfirmed))
				held.set(
					entry.itemIndex,
					unconfirmedBefore(this.context.getNode(), {
						itemIndex: entry.itemIndex,
						key,
						now: state === 'claimed',
					}),
				);
			else {
				if (state === 'unconfirmed') this.resent.add(key);
				send.push(entry);
			}
		}
		return { held, messages: send };
	}

	/** The messages the run sends, in item order (after the daily quota's holds). */
	plan(messages: Entry[]): void {
		this.history.plan(
			messages.map(({ value }) => value.key!),
			this.resent,
		);
	}

	/**
	 * Ends the run's use of the history (see SentHistory.close). A store that fails here does not
	 * hide what the run sent: a warning above the output says what the next run will find.
	 */
	async close(): Promise<void> {
		try {
			await this.history.close();
			const { rewritten } = this.history.row;
			if (rewritten > 0)
				this.context.addExecutionHints?.({
					type: 'info',
					location: 'outputPane',
					message: `Another n8n process wrote this node's history of sent messages at the same time as this run and dropped ${rewritten} of its records; they were written again. Executions of this node in different processes (queue-mode workers) are not fully protected from each other: see "Sent once, across runs" in the package's docs.`,
				});
		} catch (error) {
			this.context.addExecutionHints?.({
				type: 'warning',
				location: 'outputPane',
				message:
					`${(error as Error).message}: messages of this run may come out as unknown (not sent) in the next run. ${(error as { description?: string }).description ?? ''}`.trim(),
			});
		}
	}

	/**
	 * Claims a message's key right before it is sent: true, or false when the run's wait budget is
	 * spent (the rest will not go: no claim). Throws when another run claimed it since.
	 */
	async claim(key: string, itemIndex: number): Promise<boolean> {
		if (this.budgetSpent) return false;
		if (!(await this.history.claim(key)))
			throw unconfirmedBefore(this.context.getNode(), { itemIndex, key, now: true });
		return true;
	}

	/** A message the platform accepted: sent, claimed or not. */
	sent(key: string): void {
		this.history.settle(key, 'sent');
	}

	/** A message whose sending threw: its claim settled by what became of it (see Settlement). */
	failed(key: string, claimed: boolean, error: unknown): void {
		// A message Quiet Hours hold at the last moment spends nothing of the wait budget.
		if (outcomeOf(error) === 'notSent' && !isQuietHold(error)) this.budgetSpent = true;
		if (claimed) this.history.settle(key, settlementOf(error));
	}
}
