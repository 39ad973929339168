import type { INodeProperties } from 'n8n-workflow';

import { createList, createListFields } from './create';
import { createListFromCsv, createListFromCsvFields } from './createFromCsv';
import { deleteList, deleteListFields } from './delete';
import { getList, getListFields } from './get';

export const listExecutors = { create: createList, createFromCsv: createListFromCsv, delete: deleteList, get: getList };

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
		},
		{
			name: 'Create From CSV',
			value: 'createFromCsv',
			action: 'Create a list from a CSV file',
			description: 'Create a list whose columns and subscribers come from a CSV file',
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a list',
			description: 'Delete a list and its subscribers',
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a list',
			description: 'Get a list with its columns, size and status',
		},
	],
};

export const listFields: INodeProperties[] = [...createListFields, ...createListFromCsvFields, ...getListFields, ...deleteListFields];
