/** Sender › Get: GET /chatapp/senders/{id}, the ID URL-encoded. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { identifiedObjectResponse } from '../../../../src/http';
import { pathSegment } from '../../../../src/base';
import type { Operation } from '../../runner/operation';
import { requestOperation } from '../../runner/request';
import { senderWithHint } from './hint';

const getSenderFields: INodeProperties[] = [
	{
		displayName: 'Sender ID',
		name: 'senderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. snd_4f2a',
		description:
			'The ID returned when the sender was created (the API has no sender listing to pick from)',
	},
];

const getSender = requestOperation({
	fields: getSenderFields,
	aliases: { '': 'senderId' },
	values: ({ parameter }) => ({
		senderId: pathSegment(parameter('senderId', ''), 'senderId', 'a sender ID'),
	}),
	request: {
		base: 'messaging',
		method: 'GET',
		path: '/chatapp/senders/{senderId}',
		action: 'get the sender {senderId}',
		expect: identifiedObjectResponse,
	},
	output: (data) => senderWithHint(data as IDataObject, 'get'),
});

export const operation: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get a sender',
		description: 'Get a sender with its state and template namespace',
	},
	fields: getSenderFields,
	run: getSender,
};
