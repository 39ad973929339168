import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { templateSelect, templateSort } from '../../../../src/mapping/wallet';
import type { SortParameter } from '../../../../src/mapping/wallet';
import { returnAllAndLimit } from '../../shared/descriptions';

const show = { resource: ['walletTemplate'], operation: ['getMany'] };

export const PAGE_SIZE = 100;

/** preSend: `sort` and `select` built from the editor's rules; only what the user set is sent. */
export async function templateQuery(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const sort = templateSort((this.getNodeParameter('sort', {}) as { rule?: SortParameter[] }).rule ?? []);
	const select = templateSelect(this.getNodeParameter('select', []) as string[]);
	requestOptions.qs = { ...requestOptions.qs, ...(sort ? { sort } : {}), ...(select ? { select } : {}) };
	return requestOptions;
}

export const getManyWalletTemplatesFields: INodeProperties[] = [
	...returnAllAndLimit(show),
	{
		displayName: 'Sort',
		name: 'sort',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Sort Rule',
		default: {},
		description: 'Order of the templates; the first rule sorts first',
		displayOptions: { show },
		options: [
			{
				displayName: 'Rule',
				name: 'rule',
				values: [
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
					{
						displayName: 'Field',
						name: 'field',
						type: 'options',
						default: 'creationDate',
						description: 'Template field to sort by. Choose from the list, or specify another field using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						options: [
							{ name: 'Creation Date', value: 'creationDate' },
							{ name: 'Description', value: 'description' },
							{ name: 'Name', value: 'name' },
							{ name: 'Serial', value: 'serial' },
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
		displayOptions: { show },
		options: [
			{ name: 'Description', value: 'description' },
			{ name: 'Name', value: 'name' },
			{ name: 'Serial', value: 'serial' },
			{ name: 'Wallet Pay Compatible', value: 'walletPayCompatible' },
		],
	},
];
