import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, PostReceiveAction } from 'n8n-workflow';

import { toE164 } from '../../../../src/mapping/addresses';
import { senderCreateSchema, senderIdSchema } from '../../../../src/schemas/chatapp';
import { baseUrlExpression, responseData } from '../../../../src/transport';
import { jsonBodyFrom, throwOnPlatformError, validated } from '../../shared/hooks';

const labels = {
	providerId: 'Provider ID',
	name: 'Name',
	address: 'Phone Number',
	accountTier: 'Account Tier',
	dailyQuota: 'Additional Fields › Daily Quota',
	'': 'Sender ID',
};

export const APPROVAL_HINT =
	'The sender is PENDING_IMPLEMENTATION: the chat-app provider verifies every value and approval usually takes about 48 hours. Messages can be sent once its state is ACTIVE (check it with Sender > Get).';
export const NAMESPACE_HINT =
	'templateNamespace is empty: if message templates were created in the platform UI for this sender, contact support so they assign the namespace.';

const createBody = jsonBodyFrom(labels, senderCreateSchema, (context: IExecuteSingleFunctions) => {
	const extra = context.getNodeParameter('additionalFields', {}) as { dailyQuota?: number };
	return {
		providerId: context.getNodeParameter('providerId', ''),
		name: context.getNodeParameter('name', ''),
		address: toE164(context.getNodeParameter('address', ''), 'address'),
		accountTier: context.getNodeParameter('accountTier', 1),
		...(extra.dailyQuota !== undefined ? { dailyQuota: extra.dailyQuota } : {}),
	};
});

async function validSenderId(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	validated(this, this.getItemIndex(), labels, () => this.getNodeParameter('senderId', ''), senderIdSchema);
	return requestOptions;
}

/** The sender, with a hint on what its state means for the user. */
const senderWithHint: PostReceiveAction = async function (this: IExecuteSingleFunctions, _items, response) {
	const sender = responseData(response.body);
	const hints: string[] = [];
	if (sender.state === 'PENDING_IMPLEMENTATION') hints.push(APPROVAL_HINT);
	if (this.getNodeParameter('operation') === 'get' && (sender.templateNamespace === null || sender.templateNamespace === undefined)) hints.push(NAMESPACE_HINT);
	return [{ json: { ...sender, ...(hints.length ? { hint: hints.join(' ') } : {}) } as IDataObject }];
};

const show = { resource: ['sender'] };

export const senderOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show },
	default: 'create',
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a sender',
			description: 'Register a business phone number as chat-app sender (approval takes about 48 hours)',
			routing: {
				request: { method: 'POST', baseURL: baseUrlExpression('messaging'), url: '/chatapp/senders' },
				send: { preSend: [createBody] },
				output: { postReceive: [throwOnPlatformError, senderWithHint] },
			},
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a sender',
			description: 'Get a sender with its state and template namespace',
			routing: {
				request: { method: 'GET', baseURL: baseUrlExpression('messaging'), url: '=/chatapp/senders/{{encodeURIComponent(String($parameter.senderId).trim())}}' },
				send: { preSend: [validSenderId] },
				output: { postReceive: [throwOnPlatformError, senderWithHint] },
			},
		},
	],
};

const create = { ...show, operation: ['create'] };

export const senderFields: INodeProperties[] = [
	{
		displayName: 'Provider ID',
		name: 'providerId',
		type: 'string',
		required: true,
		default: '',
		description: 'The provider ID supplied by support after the business account was approved',
		displayOptions: { show: create },
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ACME Corp',
		description: 'Account name shown to users; the organisation name is recommended',
		displayOptions: { show: create },
	},
	{
		displayName: 'Phone Number',
		name: 'address',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +1 555 010 0100',
		description: 'Phone number of the business account, with country code',
		displayOptions: { show: create },
	},
	{
		displayName: 'Account Tier',
		name: 'accountTier',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'Daily unique-user capacity level; new accounts start at 1',
		displayOptions: { show: create },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: create },
		options: [
			{
				displayName: 'Daily Quota',
				name: 'dailyQuota',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 1000,
				description: 'Unique users the sender may message per day',
			},
		],
	},
	{
		displayName: 'Sender ID',
		name: 'senderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. snd_4f2a',
		description: 'The ID returned when the sender was created (the API has no sender listing to pick from)',
		displayOptions: { show: { ...show, operation: ['get'] } },
	},
];
