import type { INodeProperties } from 'n8n-workflow';

import { confirmation, listIdOf, throwOnPlatformError, validListId } from '../../shared/hooks';
import { outputItems } from '../../shared/output';
import { addManySubscribersFields } from './addMany';
import { deleteSubscriberFields } from './delete';
import { getManySubscribersFields } from './getMany';

export { addManySubscribers } from './addMany';

const PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;
const pagination = '$response.body.pagination';

/**
 * Pages of GET /lists/{listId}/subscribers (page/limit and `pagination`, the sandbox's choice
 * where the spec shows none); stops at the last page, or once Limit subscribers were fetched.
 * A response without `pagination` is taken as the only page.
 */
const subscriberPages = {
	type: 'generic' as const,
	properties: {
		continue: `={{ !!($response.body && ${pagination}) && Number(${pagination}.page) < Number(${pagination}.pages) && ($parameter.returnAll || Number(${pagination}.page) * Number(${pagination}.limit) < $parameter.limit) }}`,
		request: {
			qs: {
				page: `={{ ($response.body && ${pagination}) ? Number(${pagination}.page) + 1 : 1 }}`,
				limit: `={{ $parameter.returnAll ? ${PAGE_SIZE} : Math.min($parameter.limit, ${MAX_PAGE_SIZE}) }}`,
			},
		},
	},
};

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
				send: { preSend: [validListId] },
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
				operations: { pagination: subscriberPages },
				output: { postReceive: [throwOnPlatformError, outputItems] },
			},
		},
	],
};

export const subscriberFields: INodeProperties[] = [...addManySubscribersFields, ...getManySubscribersFields, ...deleteSubscriberFields];
