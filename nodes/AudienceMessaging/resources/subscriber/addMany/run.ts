/** Subscriber › Add Many: bulk adds from a JSON array, a CSV binary or the input items. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	bulkSubscribersRequestSchema,
	listIdSchema,
	parseSubscriberRow,
	rowOutcomes,
	subscriberFromItem,
} from '../../../../../src/platform';
import {
	InputError,
	oneOf,
	parsed,
	parseObjectList,
	record,
	text,
	textList,
} from '../../../../../src/base';
import type { SubscriberRow } from '../../../../../src/platform';
import type { FieldLabels } from '../../../../../src/base';
import { readListId, wholeOptionOf } from '../../../runner/descriptions';
import { runInBatches } from '../../../runner/batches';
import { runOptions, runPerItem } from '../../../runner/execute';
import { validated } from '../../../runner/item-errors';
import { csvPolicyOf } from '../../../runner/csv-options';
import { csvFieldName, csvOutcome, csvUpload, validatedCsvFile } from '../../../runner/csv-upload';
import { fieldLabels } from '../../../runner/labels';
import { parameterReader, perItem } from '../../../runner/parameters';
import { addManySubscribersFields, DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE } from './fields';
import { postBulk } from './post';

export async function addManySubscribers(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// A JSON array that is not one as a whole is named by the Subscribers field.
	const labels = fieldLabels(addManySubscribersFields, { '': 'subscribers' });
	const source = validated(this, 0, labels, () =>
		oneOf(this.getNodeParameter('source', 0), 'source', ['items', 'json', 'csv'] as const),
	);
	if (source === 'items') return await addItemsAsSubscribers.call(this, labels);
	const read = parameterReader(this);
	return await runPerItem(this, {
		labels,
		rateLimitWaitOption: true,
		describe: (prepared: { listId: string }) => ({ listId: prepared.listId }),
		prepare: async (itemIndex) => {
			const listId = readListId(this, itemIndex);
			if (source === 'csv') {
				const propertyName = csvFieldName(read, itemIndex);
				const policy = csvPolicyOf(record(read('options', itemIndex, {}), 'options'), {
					autoColumns: true,
				});
				return { listId, file: await validatedCsvFile(this, itemIndex, propertyName, policy) };
			}
			const rows = bulkSubscribersRequestSchema.parse(
				parseObjectList(read('subscribers', itemIndex), 'subscribers'),
			);
			if (rows.length === 0) throw new InputError('subscribers', 'the array holds no subscriber');
			return { listId, rows };
		},
		send: async (prepared, itemIndex) => {
			const { file } = prepared;
			const upload = file ? csvUpload(file) : { body: prepared.rows as IDataObject[] };
			const { result, warning } = await postBulk(this, prepared.listId, { ...upload, itemIndex });
			const csv = file ? csvOutcome(file) : {};
			return {
				listId: prepared.listId,
				...result,
				...(warning ? { warning } : {}),
				...(Object.keys(csv).length ? { csvCheck: csv } : {}),
			} as IDataObject;
		},
	});
}

/**
 * "Each input item is a subscriber": batches per list, one output item per input item (added,
 * updated, failed or unknown). Errors matching no row go once on the batch's first item; one whose
 * row number may name several rows leaves only those unknown when the counts allow (rowOutcomes).
 */
async function addItemsAsSubscribers(
	this: IExecuteFunctions,
	labels: FieldLabels,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = runOptions(this, labels);
	const keyColumn = validated(this, 0, labels, () => text(options.keyColumn, 'keyColumn')) || 'id';
	const listIdOf = perItem(
		this,
		'listId',
		(value) => parsed(listIdSchema, value, 'listId'),
		undefined,
		{ extractValue: true },
	);
	const columnsOf = perItem(this, 'columnsToSend', (value) => textList(value, 'columnsToSend'), '');
	return await runInBatches<SubscriberRow>(this, {
		labels,
		options,
		batchSize: validated(this, 0, labels, () =>
			wholeOptionOf(options, 'batchSize', DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE),
		),
		rateLimitWaitOption: true,
		describe: (listId, row) => ({ listId, subscriber: row }),
		prepare: (itemIndex) => {
			const listId = listIdOf(itemIndex);
			const columns = columnsOf(itemIndex);
			const row = parseSubscriberRow(subscriberFromItem(items[itemIndex].json, columns));
			if (Object.keys(row).length === 0)
				throw new InputError('input item', 'it has no fields to send as subscriber columns');
			return { group: listId, value: row };
		},
		send: async (listId, batch) => {
			const rows = batch.map((entry) => entry.value);
			const { result, warning } = await postBulk(this, listId, {
				body: rows as IDataObject[],
				itemIndex: batch[0].itemIndex,
				rows: batch.length,
			});
			const { outcomes, unmatchedErrors } = rowOutcomes(
				rows,
				result,
				keyColumn,
				(position) => `item ${batch[position].itemIndex}`,
			);
			const unknownWarning =
				warning ??
				"The platform's counts do not say whether this row was stored (an error it reported could not be matched to a row): check it in the list.";
			return new Map(
				batch.map((entry, position): [number, IDataObject] => {
					const outcome = outcomes[position];
					return [
						entry.itemIndex,
						{
							status: outcome.status,
							listId,
							subscriber: entry.value,
							...(outcome.error ? { error: outcome.error as unknown as IDataObject } : {}),
							...(outcome.status === 'unknown'
								? { warning: outcome.warning ?? unknownWarning }
								: {}),
							...(position === 0 && unmatchedErrors.length
								? { batchErrors: unmatchedErrors as unknown as IDataObject[] }
								: {}),
						},
					];
				}),
			);
		},
	});
}
