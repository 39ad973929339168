import type { INodeProperties } from 'n8n-workflow';

import { listLocator } from '../../shared/descriptions';

const show = { resource: ['subscriber'], operation: ['delete'] };

export const deleteSubscriberFields: INodeProperties[] = [
	listLocator({ show }, { routing: { request: { url: '=/lists/{{$value}}/subscribers/{{encodeURIComponent(String($parameter.subscriberId).trim())}}' } } }),
	{
		displayName: 'Subscriber ID',
		name: 'subscriberId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5f1c2a',
		description: 'The subscriber\'s unique identifier (its ID column)',
		displayOptions: { show },
	},
];
