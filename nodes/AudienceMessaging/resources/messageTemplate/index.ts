import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { text } from '../../../../src/coerce';
import { templateScopeSchema } from '../../../../src/schemas/chatapp';
import { collectionResponse } from '../../../../src/schemas/responses';
import { apiRequest } from '../../../../src/transport';
import { pageLabels, readReturnAllAndLimit, returnAllAndLimit } from '../../shared/descriptions';
import { runPerItem } from '../../shared/execute';
import { parameterReader } from '../../shared/parameters';

export const messageTemplateExecutors = { getMany: getManyMessageTemplates };

const show = { resource: ['messageTemplate'], operation: ['getMany'] };

/**
 * Message Template > Get Many: GET /chatapp/templates/ for a sender and/or business account; one
 * item per template. The spec shows no paging for this call (and no query parameter besides the
 * two scopes), so one request is sent and nothing else is asked: Return All outputs every
 * template of the answer, Limit the first ones.
 */
export async function getManyMessageTemplates(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const read = parameterReader(this);
	return await runPerItem(this, {
		labels: { senderId: 'Sender ID', bizAccountId: 'Business Account ID', scope: 'Sender ID / Business Account ID', ...pageLabels },
		prepare: (itemIndex) => {
			const scope = templateScopeSchema.parse({
				senderId: text(read('senderId', itemIndex, ''), 'senderId') || undefined,
				bizAccountId: text(read('bizAccountId', itemIndex, ''), 'bizAccountId') || undefined,
			});
			const { limit } = readReturnAllAndLimit(this, itemIndex);
			return { limit, qs: { ...(scope.senderId ? { senderId: scope.senderId } : {}), ...(scope.bizAccountId ? { bizAccountId: scope.bizAccountId } : {}) } };
		},
		send: async ({ limit, qs }, itemIndex) => {
			// The response body is not shown by the spec: `items`, `data` or a bare array of templates are read.
			const { data } = await apiRequest(this, { base: 'messaging', method: 'GET', path: '/chatapp/templates/', qs, itemIndex, action: 'get the message templates', expect: collectionResponse });
			return limit < data.items.length ? data.items.slice(0, limit) : data.items;
		},
	});
}

export const messageTemplateOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['messageTemplate'] } },
	default: 'getMany',
	options: [
		{
			name: 'Get Many',
			value: 'getMany',
			action: 'Get many message templates',
			description: 'Get the message templates of a sender or business account',
		},
	],
};

export const messageTemplateFields: INodeProperties[] = [
	{
		displayName: 'Give a Sender ID, a Business Account ID, or both',
		name: 'scopeNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Sender ID',
		name: 'senderId',
		type: 'string',
		default: '',
		description: 'Templates of this sender; give this, a business account ID, or both',
		displayOptions: { show },
	},
	{
		displayName: 'Business Account ID',
		name: 'bizAccountId',
		type: 'string',
		default: '',
		description: 'Templates of this business account (supplied by support)',
		displayOptions: { show },
	},
	...returnAllAndLimit(show),
];
