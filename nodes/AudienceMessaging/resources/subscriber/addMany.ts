import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../../../src/errors';
import { parseObjectList } from '../../../../src/mapping/json';
import { subscriberFromItem } from '../../../../src/mapping/lists';
import { rowOutcomes } from '../../../../src/mapping/subscribers';
import { multipartFileBody } from '../../../../src/multipart';
import { bulkSubscribersRequestSchema, bulkSubscribersResultSchema, listIdSchema } from '../../../../src/schemas/lists';
import type { SubscriberRow } from '../../../../src/schemas/lists';
import { apiRequest, responseData } from '../../../../src/transport';
import { listLocator } from '../../shared/descriptions';
import { runInBatches } from '../../shared/batches';
import { runPerItem } from '../../shared/execute';
import { asFieldError, validated } from '../../shared/hooks';
import { validatedCsvFile } from '../list/createFromCsv';

const show = { resource: ['subscriber'], operation: ['addMany'] };

export const DEFAULT_BATCH_SIZE = 500;

const labels = {
	'': 'Subscribers (JSON)',
	subscribers: 'Subscribers (JSON)',
	listId: 'List',
	binaryPropertyName: 'Input Binary Field',
	batchSize: 'Options › Batch Size',
};

export const addManySubscribersFields: INodeProperties[] = [
	listLocator({ show }),
	{
		displayName: 'Input Data',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		default: 'items',
		displayOptions: { show },
		options: [
			{
				name: 'Each Input Item Is a Subscriber',
				value: 'items',
				description: 'All input items go out in as few bulk requests as possible; each gets an output item saying added, updated or failed',
			},
			{
				name: 'JSON Array',
				value: 'json',
				description: 'Each input item sends its own JSON array of subscribers',
			},
			{
				name: 'CSV File',
				value: 'csv',
				description: 'Each input item sends the CSV file in one of its binary fields (at most 200 MB)',
			},
		],
	},
	{
		displayName: 'Subscribers (JSON)',
		name: 'subscribers',
		type: 'json',
		default: '[]',
		required: true,
		description: 'A JSON array of objects keyed by column name, e.g. [{"email": "ada@example.com"}]',
		displayOptions: { show: { ...show, source: ['json'] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the CSV file',
		displayOptions: { show: { ...show, source: ['csv'] } },
	},
	{
		displayName: 'Columns to Send',
		name: 'columnsToSend',
		type: 'string',
		default: '',
		placeholder: 'e.g. email, mobile, firstName',
		description: 'Comma-separated item fields to send as columns; leave empty to send every field of the item',
		displayOptions: { show: { ...show, source: ['items'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { ...show, source: ['items'] } },
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 10000 },
				default: DEFAULT_BATCH_SIZE,
				description: 'Max number of subscribers sent in one bulk request',
			},
			{
				displayName: 'Key Column',
				name: 'keyColumn',
				type: 'string',
				default: 'id',
				description: 'Column that identifies an existing subscriber; rows carrying it are reported as updated when the counts allow it',
			},
		],
	},
];

/** Subscriber > Add Many: POST /lists/{listId}/subscribers/bulk, from a JSON array, a CSV binary, or the input items themselves. */
export async function addManySubscribers(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const source = this.getNodeParameter('source', 0) as string;
	if (source === 'items') return await addItemsAsSubscribers.call(this);
	return await runPerItem(
		this,
		async (itemIndex) => {
			const listId = validated(this, itemIndex, labels, () => this.getNodeParameter('listId', itemIndex, undefined, { extractValue: true }), listIdSchema);
			if (source === 'csv') {
				const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
				return { listId, file: await validatedCsvFile(this, itemIndex, propertyName, labels) };
			}
			const rows = validated(
				this,
				itemIndex,
				labels,
				() => parseObjectList(this.getNodeParameter('subscribers', itemIndex), 'subscribers'),
				bulkSubscribersRequestSchema,
			);
			if (rows.length === 0) throw asFieldError(this, itemIndex, labels, new InputError('subscribers', 'the array holds no subscriber'));
			return { listId, rows };
		},
		async (prepared, itemIndex) => {
			let body: IDataObject[] | Buffer | import('node:stream').Readable;
			let headers: Record<string, string> = {};
			if ('file' in prepared && prepared.file) {
				const multipart = multipartFileBody({
					name: 'csvFile',
					fileName: prepared.file.fileName,
					contentType: 'text/csv',
					data: await prepared.file.open(),
					size: prepared.file.size,
				});
				body = multipart.body;
				headers = multipart.headers;
			} else {
				body = prepared.rows as IDataObject[];
			}
			const response = await apiRequest.call(this, {
				base: 'lists',
				method: 'POST',
				path: `/lists/${prepared.listId}/subscribers/bulk`,
				body,
				headers,
				itemIndex,
				action: `add subscribers to list ${prepared.listId}`,
			});
			return { listId: prepared.listId, ...bulkSubscribersResultSchema.parse(responseData(response.body)) } as IDataObject;
		},
	);
}

/**
 * "Each input item is a subscriber": every item is validated first, then the rows of each list
 * go out in batches; each item gets one output item (added, updated or failed) paired to it.
 */
async function addItemsAsSubscribers(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = this.getNodeParameter('options', 0, {}) as { batchSize?: number; keyColumn?: string };
	const keyColumn = options.keyColumn?.trim() || 'id';
	return await runInBatches<SubscriberRow>(this, {
		batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
		prepare: async (itemIndex) => {
			const listId = validated(this, itemIndex, labels, () => this.getNodeParameter('listId', itemIndex, undefined, { extractValue: true }), listIdSchema);
			const columns = String(this.getNodeParameter('columnsToSend', itemIndex, ''))
				.split(',')
				.map((column) => column.trim())
				.filter(Boolean);
			const row = validated(this, itemIndex, {}, () => subscriberFromItem(items[itemIndex].json, columns), bulkSubscribersRequestSchema.element);
			if (Object.keys(row).length === 0) {
				throw asFieldError(this, itemIndex, {}, new InputError('input item', 'it has no fields to send as subscriber columns'));
			}
			return { group: listId, value: row };
		},
		send: async (listId, batch) => {
			const rows = batch.map((entry) => entry.value);
			const response = await apiRequest.call(this, {
				base: 'lists',
				method: 'POST',
				path: `/lists/${listId}/subscribers/bulk`,
				body: rows as IDataObject[],
				itemIndex: batch[0].itemIndex,
				action: `add ${batch.length} subscribers to list ${listId}`,
			});
			const result = bulkSubscribersResultSchema.parse(responseData(response.body));
			const { outcomes, unmatchedErrors } = rowOutcomes(rows, result, keyColumn);
			return new Map(
				batch.map((entry, position): [number, IDataObject] => [
					entry.itemIndex,
					{
						status: outcomes[position].status,
						listId,
						subscriber: entry.value,
						...(outcomes[position].error ? { error: outcomes[position].error as unknown as IDataObject } : {}),
						...(unmatchedErrors.length ? { batchErrors: unmatchedErrors as unknown as IDataObject[] } : {}),
					},
				]),
			);
		},
	});
}
