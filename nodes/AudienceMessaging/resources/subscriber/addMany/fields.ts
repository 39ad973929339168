/** Subscriber › Add Many's fields: the list, the input data (items, JSON or CSV), options. */
import type { INodeProperties } from 'n8n-workflow';

import {
	listLocator,
	optionsCollection,
	previewOption,
	rateLimitWaitOption,
} from '../../../runner/descriptions';
import { csvCheckOptions } from '../../../runner/csv-options';

export const DEFAULT_BATCH_SIZE = 500;
export const MAX_BATCH_SIZE = 10_000;

export const addManySubscribersFields: INodeProperties[] = [
	listLocator(),
	{
		displayName: 'Input Data',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		default: 'items',
		options: [
			{
				name: 'Each Input Item Is a Subscriber',
				value: 'items',
				description:
					'All input items go out in as few bulk requests as possible; each gets an output item saying added, updated or failed',
			},
			{
				name: 'JSON Array',
				value: 'json',
				description: 'Each input item sends its own JSON array of subscribers',
			},
			{
				name: 'CSV File',
				value: 'csv',
				description:
					'Each input item sends the CSV file in one of its binary fields (at most 200 MB)',
			},
		],
	},
	{
		displayName: 'Subscribers (JSON)',
		name: 'subscribers',
		type: 'json',
		default: '[]',
		required: true,
		description:
			'A JSON array of objects keyed by column name, e.g. [{"email": "ada@example.com"}]',
		displayOptions: { show: { source: ['json'] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the CSV file',
		displayOptions: { show: { source: ['csv'] } },
	},
	{
		displayName: 'Columns to Send',
		name: 'columnsToSend',
		type: 'string',
		default: '',
		placeholder: 'e.g. email, mobile, firstName',
		description:
			'Comma-separated item fields to send as columns; leave empty to send every field of the item',
		displayOptions: { show: { source: ['items'] } },
	},
	optionsCollection([
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: DEFAULT_BATCH_SIZE,
			description: 'Max number of subscribers sent in one bulk request',
			displayOptions: { show: { '/source': ['items'] } },
		},
		{
			displayName: 'Key Column',
			name: 'keyColumn',
			type: 'string',
			default: 'id',
			description:
				"The list's key column. Not sent (the platform decides what it updates); used in the output only: rows with a value in it count as updates, and errors naming a key find their row.",
			displayOptions: { show: { '/source': ['items'] } },
		},
		previewOption(),
		rateLimitWaitOption(),
		...csvCheckOptions({ '/source': ['csv'] }),
	]),
];
