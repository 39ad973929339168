import type { INodeProperties } from 'n8n-workflow';

import { confirmation, listIdOf, throwOnPlatformError, validListId } from '../../shared/hooks';
import { outputData } from '../../shared/output';
import { buildCreateListBody, createListFields } from './create';
import { createListFromCsvFields } from './createFromCsv';
import { deleteListFields } from './delete';
import { getListFields } from './get';

export { createListFromCsv } from './createFromCsv';

export const listOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['list'] } },
	default: 'create',
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a list',
			description: 'Create a list with typed columns and, optionally, its first subscribers',
			routing: {
				request: { method: 'POST', url: '/lists' },
				send: { preSend: [buildCreateListBody] },
				output: { postReceive: [throwOnPlatformError, outputData] },
			},
		},
		{
			name: 'Create From CSV',
			value: 'createFromCsv',
			action: 'Create a list from a CSV file',
			description: 'Create a list whose columns and subscribers come from a CSV file (custom operation: streams the file)',
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a list',
			description: 'Delete a list and its subscribers',
			routing: {
				request: { method: 'DELETE' },
				send: { preSend: [validListId] },
				output: {
					postReceive: [
						throwOnPlatformError,
						confirmation((context) => ({ listId: listIdOf(context), deleted: true })),
					],
				},
			},
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a list',
			description: 'Get a list with its columns, size and status',
			routing: {
				request: { method: 'GET' },
				send: { preSend: [validListId] },
				output: { postReceive: [throwOnPlatformError, outputData] },
			},
		},
	],
};

export const listFields: INodeProperties[] = [...createListFields, ...createListFromCsvFields, ...getListFields, ...deleteListFields];
