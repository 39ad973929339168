import type { INodeProperties } from 'n8n-workflow';

import { baseUrlExpression } from '../../../../src/transport';
import { pageByPage } from '../../shared/pagination';
import { getManyWalletTemplatesFields, PAGE_SIZE, templateQuery } from './getMany';

const MAX_PAGE_SIZE = 100;

export const walletTemplateOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['walletTemplate'] } },
	default: 'getMany',
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many wallet templates',
			description: 'Get the wallet (member card) templates of the account',
			routing: {
				request: { method: 'GET', baseURL: baseUrlExpression('wallet'), url: '/v2/wallet/templates' },
				send: { preSend: [templateQuery], paginate: true },
				operations: { pagination: pageByPage(PAGE_SIZE, MAX_PAGE_SIZE) },
			},
		},
	],
};

export const walletTemplateFields: INodeProperties[] = [...getManyWalletTemplatesFields];
