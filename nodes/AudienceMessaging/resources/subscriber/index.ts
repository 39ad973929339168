import type { INodeProperties } from 'n8n-workflow';

import { confirmation, listIdOf, throwOnPlatformError, validListAndSubscriberId, validListId } from '../../shared/hooks';
import { pageByPage } from '../../shared/pagination';
import { addManySubscribersFields } from './addMany';
import { deleteSubscriberFields } from './delete';
import { getManySubscribersFields } from './getMany';

export { addManySubscribers } from './addMany';

/** GET /lists/{listId}/subscribers takes page/limit (the sandbox's choice where the spec shows none). */
const PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

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
			routing: {
				request: { method: 'DELETE' },
				send: { preSend: [validListAndSubscriberId] },
				output: {
					postReceive: [
						throwOnPlatformError,
						confirmation((context) => ({
							listId: listIdOf(context),
							subscriberId: context.getNodeParameter('subscriberId') as string,
							deleted: true,
						})),
					],
				},
			},
		},
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many subscribers',
			description: 'Get the subscribers of a list',
			routing: {
				request: { method: 'GET' },
				send: { preSend: [validListId], paginate: true },
				operations: { pagination: pageByPage(PAGE_SIZE, MAX_PAGE_SIZE) },
			},
		},
	],
};

export const subscriberFields: INodeProperties[] = [...addManySubscribersFields, ...getManySubscribersFields, ...deleteSubscriberFields];
