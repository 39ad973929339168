import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isRequestPreview, outcomeOf, unconfirmedBefore } from '../../../../../src/http';
import { SentHistory } from '../../../../../src/history';
import type { Settlement } from '../../../../../src/history';
import type { Message } from '../../../../../src/platform';
import { nodeStore } from './node-history';
import type { SentBeforeSettings } from './node-history';

/**
 * Messages claimed in the first write: about 5 s of the run's pace (at least two per parallel
 * request, at most 1,000); the next windows follow the pace measured (see SentHistory). If n8n
 * stops mid-run, the claimed ones are what the next run reports unconfirmed.
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
	value: Message;
}

/**
 * A run's history: the node's store, each message's key, and the messages an earlier execution
 * sent or may have sent.
 */
export class RunHistory {
	readonly history: SentHistory;
	private readonly keys = new WeakMap<Message, string>();
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

	setKey(message: Message, key: string): void {
		this.keys.set(message, key);
	}

	keyOf(message: Message): string {
		return this.keys.get(message)!;
	}

	/**
	 * Sets aside the messages not to send (an earlier run sent them, or may have; an earlier item of
	 * this run has the same key): each gets its output (an item, or an `unknown` error item).
	 * Returns the messages to send.
	 */
	async skip(
		messages: Entry[],
		describe: (message: Message) => IDataObject,
	): Promise<{ held: Map<number, Error | IDataObject>; messages: Entry[] }> {
		const keys = [...new Set(messages.map(({ value }) => this.keyOf(value)))];
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
			const key = this.keyOf(entry.value);
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
			else if (state === 'unconfirmed' && !this.settings.resendUnconfirmed)
				held.set(
					entry.itemIndex,
					unconfirmedBefore(this.context.getNode(), { itemIndex: entry.itemIndex, key }),
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
			messages.map(({ value }) => this.keyOf(value)),
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
	 * Sends one message under its claim: claimed first (refused when another run claimed it since),
	 * confirmed when the platform accepted it, released when it was refused or not sent.
	 */
	async send<T>(message: Message, itemIndex: number, send: () => Promise<T>): Promise<T> {
		const key = this.keyOf(message);
		const claimed = !this.budgetSpent;
		if (claimed && !(await this.history.claim(key)))
			throw unconfirmedBefore(this.context.getNode(), { itemIndex, key, now: true });
		const sending = send();
		// Settled before the caller sees the result or the error.
		sending.then(
			() => this.history.settle(key, 'sent'),
			(error: unknown) => {
				if (outcomeOf(error) === 'notSent') this.budgetSpent = true;
				if (claimed) this.history.settle(key, settlementOf(error));
			},
		);
		return await sending;
	}
}
