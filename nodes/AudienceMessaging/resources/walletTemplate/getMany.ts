/** Wallet Template › Get Many: GET /v2/wallet/templates with `sort` and `select`, paged. */
import type { INodeProperties } from 'n8n-workflow';

import { record, textList } from '../../../../src/base';
import { templateSelect, templateSort } from '../../../../src/platform';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../runner/descriptions';
import { requestOperation } from '../../runner/request';
import type { Operation } from '../../runner/operation';

export const PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 100;

const getManyWalletTemplatesFields: INodeProperties[] = [
	...returnAllAndLimit(),
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Sort Rule',
		default: {},
		description: 'Order of the templates; the first rule sorts first',
		options: [
			{
				displayName: 'Rule',
				name: 'rule',
				values: [
					{
						displayName: 'Field',
						name: 'field',
						type: 'options',
						default: 'creationDate',
						description:
							'Template field to sort by. Choose from the list, or specify another field using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						options: [
							{ name: 'Creation Date', value: 'creationDate' },
							{ name: 'Description', value: 'description' },
							{ name: 'Name', value: 'name' },
							{ name: 'Serial', value: 'serial' },
						],
					},
					{
						displayName: 'Direction',
						name: 'direction',
						type: 'options',
						default: 'ascending',
						options: [
							{ name: 'Ascending', value: 'ascending' },
							{ name: 'Descending', value: 'descending' },
						],
					},
				],
			},
		],
	},
	{
		displayName: 'Fields to Return',
		name: 'select',
		type: 'multiOptions',
		default: [],
		description: 'Template fields to return; none chosen returns every field',
		options: [
			{ name: 'Description', value: 'description' },
			{ name: 'Name', value: 'name' },
			{ name: 'Serial', value: 'serial' },
			{ name: 'Wallet Pay Compatible', value: 'walletPayCompatible' },
		],
	},
];

const getManyWalletTemplates = requestOperation({
	fields: getManyWalletTemplatesFields,
	values: ({ context, itemIndex, parameter }) => ({
		sort: templateSort(record(parameter('sort', {}), 'sort').rule),
		select: templateSelect(textList(parameter('select', []), 'select')),
		...readReturnAllAndLimit(context, itemIndex),
	}),
	request: {
		base: 'wallet',
		method: 'GET',
		path: '/v2/wallet/templates',
		qs: ({ sort, select }) => ({ ...(sort ? { sort } : {}), ...(select ? { select } : {}) }),
		action: 'get the wallet templates',
	},
	pages: { pageSize: PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE },
});

export const operation: Operation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many wallet templates',
		description: 'Get the wallet (member card) templates of the account',
	},
	fields: getManyWalletTemplatesFields,
	run: getManyWalletTemplates,
};
