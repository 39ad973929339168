import type { INodeProperties } from 'n8n-workflow';

import { addManySubscribers, addManySubscribersFields } from './addMany';
import { deleteSubscriber, deleteSubscriberFields } from './delete';
import { getManySubscribers, getManySubscribersFields } from './getMany';

export const subscriberExecutors = { addMany: addManySubscribers, delete: deleteSubscriber, getMany: getManySubscribers };

export const subscriberOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['subscriber'] } },
	default: 'addMany',
	options: [
		{
			name: 'Add Many',
			value: 'addMany',
			action: 'Add many subscribers',
			description: 'Add or update subscribers in bulk from input items, a JSON array or a CSV file',
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a subscriber',
			description: 'Delete one subscriber from a list',
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many subscribers',
			description: 'Get the subscribers of a list',
		},
	],
};

export const subscriberFields: INodeProperties[] = [...addManySubscribersFields, ...getManySubscribersFields, ...deleteSubscriberFields];
