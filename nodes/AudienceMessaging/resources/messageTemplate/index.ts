import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, PostReceiveAction } from 'n8n-workflow';

import { templateScopeSchema } from '../../../../src/schemas/chatapp';
import { baseUrlExpression, responseItems } from '../../../../src/transport';
import { throwOnPlatformError, validated } from '../../shared/hooks';

const show = { resource: ['messageTemplate'], operation: ['getMany'] };

async function templateScope(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const scope = validated(
		this,
		this.getItemIndex(),
		{ senderId: 'Sender ID / Business Account ID' },
		() => ({
			senderId: (this.getNodeParameter('senderId', '') as string).trim() || undefined,
			bizAccountId: (this.getNodeParameter('bizAccountId', '') as string).trim() || undefined,
		}),
		templateScopeSchema,
	);
	requestOptions.qs = { ...(scope.senderId ? { senderId: scope.senderId } : {}), ...(scope.bizAccountId ? { bizAccountId: scope.bizAccountId } : {}) };
	return requestOptions;
}

/** One item per template; the response shape is not specified, so `items`, `data` or a bare array are read. */
const templateItems: PostReceiveAction = async function (this: IExecuteSingleFunctions, _items, response) {
	return responseItems(response.body).map((json) => ({ json: json as IDataObject }));
};

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
			routing: {
				request: { method: 'GET', baseURL: baseUrlExpression('messaging'), url: '/chatapp/templates/' },
				send: { preSend: [templateScope] },
				output: { postReceive: [throwOnPlatformError, templateItems] },
			},
		},
	],
};

export const messageTemplateFields: INodeProperties[] = [
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
];
