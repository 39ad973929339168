import type { INodeProperties } from 'n8n-workflow';

import { listLocator } from '../../shared/descriptions';

const show = { resource: ['subscriber'], operation: ['getMany'] };

export const getManySubscribersFields: INodeProperties[] = [
	listLocator({ show }, { routing: { request: { url: '=/lists/{{$value}}/subscribers' } } }),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...show, returnAll: [false] } },
	},
];
