/** Message Template › Get Many: GET /chatapp/templates/, one item per template. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { collectionResponse } from '../../../../src/http';
import { templateScopeSchema } from '../../../../src/platform';
import { text } from '../../../../src/base';
import { readReturnAllAndLimit, returnAllAndLimit } from '../../runner/descriptions';
import type { Operation } from '../../runner/operation';
import { requestOperation } from '../../runner/request';

const messageTemplateFields: INodeProperties[] = [
	{
		displayName: 'Give a Sender ID, a Business Account ID, or both',
		name: 'scopeNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Sender ID',
		name: 'senderId',
		type: 'string',
		default: '',
		description: 'Templates of this sender; give this, a business account ID, or both',
	},
	{
		displayName: 'Business Account ID',
		name: 'bizAccountId',
		type: 'string',
		default: '',
		description: 'Templates of this business account (supplied by support)',
	},
	...returnAllAndLimit(),
];

/** The spec shows no paging nor other query parameter: one request; Limit keeps the first ones. */
const getManyMessageTemplates = requestOperation({
	fields: messageTemplateFields,
	aliases: { scope: ['senderId', 'bizAccountId'] },
	values: ({ context, itemIndex, parameter }) => {
		const scope = templateScopeSchema.parse({
			senderId: text(parameter('senderId', ''), 'senderId') || undefined,
			bizAccountId: text(parameter('bizAccountId', ''), 'bizAccountId') || undefined,
		});
		return { ...scope, limit: readReturnAllAndLimit(context, itemIndex).limit };
	},
	// The spec shows no response body: `items`, `data` or a bare array of templates are read.
	request: {
		base: 'messaging',
		method: 'GET',
		path: '/chatapp/templates/',
		qs: ({ senderId, bizAccountId }) => ({
			...(senderId ? { senderId } : {}),
			...(bizAccountId ? { bizAccountId } : {}),
		}),
		action: 'get the message templates',
		expect: collectionResponse,
	},
	output: (data, { limit }) => {
		const { items } = data as { items: IDataObject[] };
		return limit < items.length ? items.slice(0, limit) : items;
	},
});

export const operation: Operation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many message templates',
		description: 'Get the message templates of a sender or business account',
	},
	fields: messageTemplateFields,
	run: getManyMessageTemplates,
};
