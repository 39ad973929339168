import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isRequestPreview, outcomeOf, unconfirmedBefore } from '../../../../../src/http';
import { HISTORY_MAX_VALUES, SentHistory } from '../../../../../src/history';
import type { HistoryStore, Settlement } from '../../../../../src/history';
import type { Message } from '../../../../../src/platform';
import { boolean, text } from '../../../../../src/base';
import type { FieldLabels } from '../../../../../src/base';
import { validated } from '../../../shared/item-errors';

/** Skip Messages Sent Before, as the run reads it from its Options. */
interface SentBeforeSettings {
	resendUnconfirmed: boolean;
	/** Forget Messages Sent Before's label: the first run given it forgets the history. */
	forgetLabel: string;
}

const flag = (options: Record<string, unknown>, name: string) =>
	options[name] === undefined ? false : boolean(options[name], name);

/**
 * The run's Skip Messages Sent Before settings (the first item's Options), or undefined when the
 * option is off. Refused before any request where n8n cannot keep the history: an n8n without its
 * deduplication helpers, or a workflow never saved (the history belongs to a saved workflow's
 * node).
 */
export function readSentBefore(
	context: IExecuteFunctions,
	labels: FieldLabels,
	options: Record<string, unknown>,
): SentBeforeSettings | undefined {
	return validated(context, 0, labels, () => {
		if (!flag(options, 'skipSentBefore')) return undefined;
		const settings = {
			resendUnconfirmed: flag(options, 'resendUnconfirmed'),
			forgetLabel: text(options.forgetLabel, 'forgetLabel'),
		};
		const node = context.getNode();
		if (typeof context.helpers.checkProcessedAndRecord !== 'function')
			throw new NodeOperationError(
				node,
				'Skip Messages Sent Before needs a newer n8n: this one does not offer nodes a store for what they processed',
				{ description: 'Update n8n (1.123 or later), or remove the option.' },
			);
		if (!context.getWorkflow().id)
			throw new NodeOperationError(
				node,
				'Save the workflow first: Skip Messages Sent Before remembers the messages of a saved workflow',
				{
					description:
						'The history of sent messages belongs to this node of a saved workflow. Save the workflow, then run it again.',
				},
			);
		return settings;
	});
}

/** The node's history in n8n's own store for it (its deduplication helpers, scope `node`). */
function nodeStore(context: IExecuteFunctions): HistoryStore {
	const { helpers } = context;
	const entries = { mode: 'entries' } as const;
	const guarded =
		<A extends unknown[], R>(action: string, call: (...args: A) => Promise<R>) =>
		async (...args: A): Promise<R> => {
			try {
				return await call(...args);
			} catch (error) {
				throw new NodeOperationError(
					context.getNode(),
					`Could not ${action} this node's history of sent messages in n8n's database`,
					{ description: (error as Error)?.message ?? String(error) },
				);
			}
		};
	return {
		record: guarded('record in', async (values: string[], bounded: boolean) => {
			const { processed } = await helpers.checkProcessedAndRecord(
				values,
				'node',
				bounded ? { ...entries, maxEntries: HISTORY_MAX_VALUES } : entries,
			);
			return { processed: processed.map(String) };
		}),
		remove: guarded('update', async (values: string[]) => {
			await helpers.removeProcessed(values, 'node', entries);
		}),
		clear: guarded('clear', async () => {
			await helpers.clearAllProcessedItems('node', entries);
		}),
		count: guarded('read', async () => await helpers.getProcessedDataCount('node', entries)),
	};
}

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
