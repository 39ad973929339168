/** Subscriber › Delete: DELETE /lists/{listId}/subscribers/{subscriberId}, IDs URL-encoded. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { optionalObjectResponse } from '../../../../src/http';
import { parsed } from '../../../../src/base';
import { subscriberIdSchema } from '../../../../src/platform';
import { listLocator, previewOptions, readListId } from '../../runner/descriptions';
import { requestOperation } from '../../runner/request';
import type { Operation } from '../../runner/operation';

const deleteSubscriberFields: INodeProperties[] = [
	listLocator(),
	{
		displayName: 'Subscriber ID',
		name: 'subscriberId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 5f1c2a',
		description: "The subscriber's unique identifier (its ID column)",
	},
	previewOptions(),
];

export const deleteSubscriber = requestOperation({
	fields: deleteSubscriberFields,
	values: ({ context, itemIndex, parameter }) => ({
		listId: readListId(context, itemIndex),
		subscriberId: parsed(subscriberIdSchema, parameter('subscriberId', ''), 'subscriberId'),
	}),
	request: {
		base: 'lists',
		method: 'DELETE',
		path: '/lists/{listId}/subscribers/{subscriberId}',
		action: 'delete subscriber {subscriberId} of list {listId}',
		expect: optionalObjectResponse,
	},
	output: (data, { listId, subscriberId }) => ({
		listId,
		subscriberId,
		deleted: true,
		...(data as IDataObject),
	}),
});

export const operation: Operation = {
	option: {
		name: 'Delete',
		value: 'delete',
		action: 'Delete a subscriber',
		description: 'Delete one subscriber from a list',
	},
	fields: deleteSubscriberFields,
	run: deleteSubscriber,
};
