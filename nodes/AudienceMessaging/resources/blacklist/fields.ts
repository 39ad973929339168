import type { INodeProperties } from 'n8n-workflow';

import { REASON_UNSUBSCRIBED } from '../../core/platform';
import type { BlacklistParameters } from '../../core/platform';
import { parallelRequestsOption, previewOption, rateLimitWaitOption } from '../../shared/descriptions';

export const DEFAULT_PARALLEL_REQUESTS = 5;
export const MAX_PARALLEL_REQUESTS = 50;

/** The parameters both operations share, read for one item. */
export function blacklistParameters(read: (name: string, itemIndex: number, fallback?: unknown) => unknown, itemIndex: number, operation: 'add' | 'check'): BlacklistParameters {
	return {
		channel: read('channel', itemIndex, 'SMS'),
		from: read('from', itemIndex, ''),
		to: read('to', itemIndex, ''),
		...(operation === 'add' ? { reason: read('reason', itemIndex, REASON_UNSUBSCRIBED), customReason: read('customReason', itemIndex, '') } : {}),
	};
}

const show = { resource: ['blacklist'] };

export const blacklistFields: INodeProperties[] = [
	{
		displayName: 'Channel',
		name: 'channel',
		type: 'options',
		default: 'SMS',
		description: 'Each sender has its own blacklist per channel',
		displayOptions: { show },
		options: [
			{ name: 'Chat App', value: 'CHATAPP' },
			{ name: 'Email', value: 'EMAIL' },
			{ name: 'RCS', value: 'RCS' },
			{ name: 'SMS', value: 'SMS' },
		],
	},
	{
		displayName: 'Sender',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 33612345678 or news@example.com',
		description: 'The sender identity on this channel (phone number, sender name or e-mail address) whose blacklist is used',
		displayOptions: { show },
	},
	{
		displayName: 'Recipient',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +33 6 12 34 56 78',
		description: 'E-mail address for Email; phone number with country code otherwise (spaces, dashes and 00 are accepted and sent as E.164)',
		displayOptions: { show },
	},
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'options',
		default: REASON_UNSUBSCRIBED,
		displayOptions: { show: { ...show, operation: ['add'] } },
		options: [
			{ name: 'Unsubscribed', value: REASON_UNSUBSCRIBED },
			{ name: 'Other (Type It)', value: 'custom' },
		],
	},
	{
		displayName: 'Other Reason',
		name: 'customReason',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. COMPLAINT',
		description: 'Free text stored with the entry',
		displayOptions: { show: { ...show, operation: ['add'], reason: ['custom'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			parallelRequestsOption(DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, 'recipients checked or added'),
			rateLimitWaitOption(),
			{ ...previewOption(), displayOptions: { show: { '/operation': ['add'] } } },
		],
	},
];
