import type { INodeProperties } from 'n8n-workflow';

import { getManyWalletTemplates, getManyWalletTemplatesFields } from './getMany';

export const walletTemplateExecutors = { getMany: getManyWalletTemplates };

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
		},
	],
};

export const walletTemplateFields: INodeProperties[] = [...getManyWalletTemplatesFields];
