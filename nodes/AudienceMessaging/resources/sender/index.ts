import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { identifiedObjectResponse } from '../../core/http';
import { integer, pathSegment, record, text, toE164 } from '../../core/values';
import { senderCreateSchema } from '../../core/platform';
import { previewOptions } from '../../shared/descriptions';
import { requestOperation } from '../../shared/request';

const show = { resource: ['sender'] };

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
	previewOptions(create),
];

const APPROVAL_HINT =
	'The sender is PENDING_IMPLEMENTATION: the chat-app provider verifies every value and approval usually takes about 48 hours. Messages can be sent once its state is ACTIVE (check it with Sender > Get).';
const NAMESPACE_HINT =
	'templateNamespace is empty: if message templates were created in the platform UI for this sender, contact support so they assign the namespace.';

/** The sender, with a hint on what its state means for the user. */
function senderWithHint(sender: IDataObject, operation: 'create' | 'get'): IDataObject {
	const hints: string[] = [];
	if (sender.state === 'PENDING_IMPLEMENTATION') hints.push(APPROVAL_HINT);
	if (operation === 'get' && (sender.templateNamespace === null || sender.templateNamespace === undefined)) hints.push(NAMESPACE_HINT);
	return { ...sender, ...(hints.length ? { hint: hints.join(' ') } : {}) };
}

/** Sender > Create: POST /chatapp/senders. */
const createSender = requestOperation({
	fields: senderFields,
	values: ({ parameter }) => {
		const extra = record(parameter('additionalFields', {}), 'additionalFields');
		return senderCreateSchema.parse({
			providerId: text(parameter('providerId', ''), 'providerId'),
			name: text(parameter('name', ''), 'name'),
			address: toE164(parameter('address', ''), 'address'),
			accountTier: integer(parameter('accountTier', 1), 'accountTier', { min: 1 }),
			...(extra.dailyQuota !== undefined ? { dailyQuota: integer(extra.dailyQuota, 'dailyQuota', { min: 1 }) } : {}),
		});
	},
	request: { base: 'messaging', method: 'POST', path: '/chatapp/senders', body: (body) => body, action: 'create the sender {name}', expect: identifiedObjectResponse },
	output: (data) => senderWithHint(data as IDataObject, 'create'),
});

/** Sender > Get: GET /chatapp/senders/{id}, the ID URL-encoded. */
const getSender = requestOperation({
	fields: senderFields,
	aliases: { '': 'senderId' },
	values: ({ parameter }) => ({ senderId: pathSegment(parameter('senderId', ''), 'senderId', 'a sender ID') }),
	request: { base: 'messaging', method: 'GET', path: '/chatapp/senders/{senderId}', action: 'get the sender {senderId}', expect: identifiedObjectResponse },
	output: (data) => senderWithHint(data as IDataObject, 'get'),
});

export const senderExecutors = { create: createSender, get: getSender };

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
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a sender',
			description: 'Get a sender with its state and template namespace',
		},
	],
};
