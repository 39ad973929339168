import type { INodeProperties } from 'n8n-workflow';

import { createWalletPasses } from './create';
import { createWalletPassFields } from './fields';

export const walletPassExecutors = { create: createWalletPasses };

export const walletPassOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['walletPass'] } },
	default: 'create',
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create wallet passes',
			description: 'Create one personalised pass per input item, in batches',
		},
	],
};

export const walletPassFields: INodeProperties[] = [...createWalletPassFields];
