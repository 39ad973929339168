import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { parsed } from '../../../../src/coerce';
import { subscriberIdSchema } from '../../../../src/schemas/lists';
import { optionalObjectResponse } from '../../../../src/schemas/responses';
import { apiRequest } from '../../../../src/transport';
import { listLocator, readListId } from '../../shared/descriptions';
import { runPerItem } from '../../shared/execute';
import { readParameter } from '../../shared/parameters';

const show = { resource: ['subscriber'], operation: ['delete'] };

export const deleteSubscriberFields: INodeProperties[] = [
	listLocator({ show }),
	{
		displayName: 'Subscriber ID',
		name: 'subscriberId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5f1c2a',
		description: "The subscriber's unique identifier (its ID column)",
		displayOptions: { show },
	},
];

/** Subscriber > Delete: DELETE /lists/{listId}/subscribers/{subscriberId}; both IDs URL-encoded. */
export async function deleteSubscriber(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, {
		labels: { listId: 'List', subscriberId: 'Subscriber ID' },
		prepare: (itemIndex) => ({
			listId: readListId(this, itemIndex),
			subscriberId: parsed(subscriberIdSchema, readParameter(this, 'subscriberId', itemIndex, ''), 'subscriberId'),
		}),
		send: async ({ listId, subscriberId }, itemIndex) => {
			const { data } = await apiRequest(this, {
				base: 'lists',
				method: 'DELETE',
				path: `/lists/${encodeURIComponent(listId)}/subscribers/${encodeURIComponent(subscriberId)}`,
				itemIndex,
				action: `delete subscriber ${subscriberId} of list ${listId}`,
				expect: optionalObjectResponse,
			});
			return { listId, subscriberId, deleted: true, ...data };
		},
	});
}
