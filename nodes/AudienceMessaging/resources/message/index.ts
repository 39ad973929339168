import type { INodeProperties } from 'n8n-workflow';

import { sendMessageFields } from './fields';
import { sendMessages } from './send';

export const messageExecutors = { send: sendMessages };

export const messageOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['message'] } },
	default: 'send',
	options: [
		{
			name: 'Send',
			value: 'send',
			action: 'Send a chat app message',
			description: 'Send a regular message (text, media, contacts, location or reply buttons) inside the 24-hour window',
		},
	],
};

export const messageFields: INodeProperties[] = [...sendMessageFields];
