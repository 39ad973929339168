/** Skip Messages Sent Before: its settings, and the node's history in n8n's store for it. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { HISTORY_MAX_VALUES } from '../../../../../src/history';
import type { HistoryStore } from '../../../../../src/history';
import { boolean, text } from '../../../../../src/base';
import type { FieldLabels } from '../../../../../src/base';
import { validated } from '../../../runner/item-errors';

export interface SentBeforeSettings {
	resendUnconfirmed: boolean;
	/** Forget Messages Sent Before's label: the first run given it forgets the history. */
	forgetLabel: string;
}

const flag = (options: Record<string, unknown>, name: string) =>
	options[name] === undefined ? false : boolean(options[name], name);

/**
 * The run's Skip Messages Sent Before settings (the first item's Options), or undefined when the
 * option is off. Refused before any request where n8n cannot keep the history, rather than send
 * without it: an n8n without its deduplication helpers, or a workflow never saved (the history
 * belongs to a saved workflow's node).
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

/** The history through n8n's deduplication helpers, scope `node`. */
export function nodeStore(context: IExecuteFunctions): HistoryStore {
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
