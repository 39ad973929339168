/** Sender › Create: POST /chatapp/senders; outputs the sender with a hint on its state. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { identifiedObjectResponse } from '../../../../src/http';
import { integer, record, text, toE164 } from '../../../../src/base';
import { senderCreateSchema } from '../../../../src/platform';
import { previewOptions } from '../../runner/descriptions';
import type { Operation } from '../../runner/operation';
import { requestOperation } from '../../runner/request';
import { senderWithHint } from './hint';

const createSenderFields: INodeProperties[] = [
	{
		displayName: 'Provider ID',
		name: 'providerId',
		type: 'string',
		required: true,
		default: '',
		description: 'The provider ID supplied by support after the business account was approved',
	},
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ACME Corp',
		description: 'Account name shown to users; the organisation name is recommended',
	},
	{
		displayName: 'Phone Number',
		name: 'address',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +1 555 010 0100',
		description: 'Phone number of the business account, with country code',
	},
	{
		displayName: 'Account Tier',
		name: 'accountTier',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 1,
		description: 'Daily unique-user capacity level; new accounts start at 1',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
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
	previewOptions(),
];

export const createSender = requestOperation({
	fields: createSenderFields,
	values: ({ parameter }) => {
		const extra = record(parameter('additionalFields', {}), 'additionalFields');
		return senderCreateSchema.parse({
			providerId: text(parameter('providerId', ''), 'providerId'),
			name: text(parameter('name', ''), 'name'),
			address: toE164(parameter('address', ''), 'address'),
			accountTier: integer(parameter('accountTier', 1), 'accountTier', { min: 1 }),
			...(extra.dailyQuota !== undefined
				? { dailyQuota: integer(extra.dailyQuota, 'dailyQuota', { min: 1 }) }
				: {}),
		});
	},
	request: {
		base: 'messaging',
		method: 'POST',
		path: '/chatapp/senders',
		body: (body) => body,
		action: 'create the sender {name}',
		expect: identifiedObjectResponse,
	},
	output: (data) => senderWithHint(data as IDataObject, 'create'),
});

export const operation: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a sender',
		description:
			'Register a business phone number as chat-app sender (approval takes about 48 hours)',
	},
	fields: createSenderFields,
	run: createSender,
};
