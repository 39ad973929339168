/** Blacklist's fields (Add and Check) and what the two operations share. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { REASON_UNSUBSCRIBED } from '../../../../src/platform';
import type { BlacklistParameters } from '../../../../src/platform';
import {
	optionsCollection,
	wholeOptionOf,
	parallelRequestsOption,
	previewOption,
	rateLimitWaitOption,
} from '../../runner/descriptions';
import type { FieldLabels } from '../../../../src/base';
import { validated } from '../../runner/item-errors';
import type { ItemReader } from '../../runner/request';

export const DEFAULT_PARALLEL_REQUESTS = 5;
export const MAX_PARALLEL_REQUESTS = 50;

/** The parameters both operations share, read for one item. */
export function blacklistParameters(
	{ parameter }: ItemReader,
	operation: 'add' | 'check',
): BlacklistParameters {
	return {
		channel: parameter('channel', 'SMS'),
		from: parameter('from', ''),
		to: parameter('to', ''),
		...(operation === 'add'
			? {
					reason: parameter('reason', REASON_UNSUBSCRIBED),
					customReason: parameter('customReason', ''),
				}
			: {}),
	};
}

const recipientFields: INodeProperties[] = [
	{
		displayName: 'Channel',
		name: 'channel',
		type: 'options',
		default: 'SMS',
		description:
			"Which of the sender's blacklists to use: it has one per channel. Message › Send sends on Chat App, so choose Chat App for its recipients.",
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
		placeholder: 'e.g. +33 6 12 34 56 78, MyShop or news@example.com',
		description:
			"Chat App: the sender's phone number, sent as digits only as Message › Send sends it. SMS, RCS, Email: the sender name, number or address as typed.",
	},
	{
		displayName: 'Recipient',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +33 6 12 34 56 78',
		description:
			'E-mail address for Email; phone number with country code otherwise (spaces, dashes and 00 are accepted and sent as E.164)',
	},
];

const reasonFields: INodeProperties[] = [
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'options',
		default: REASON_UNSUBSCRIBED,
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
		displayOptions: { show: { reason: ['custom'] } },
	},
];

/** The options of both operations; Add, which writes, has Preview Without Sending too. */
const sharedOptions = [
	parallelRequestsOption(
		DEFAULT_PARALLEL_REQUESTS,
		MAX_PARALLEL_REQUESTS,
		'recipients checked or added',
	),
	rateLimitWaitOption(),
];

export const addFields: INodeProperties[] = [
	...recipientFields,
	...reasonFields,
	optionsCollection([...sharedOptions, previewOption()]),
];
export const checkFields: INodeProperties[] = [
	...recipientFields,
	optionsCollection(sharedOptions),
];

/** Recipients at once, from item 0's Options; a 429 slows the whole run (src/pace/gate.ts). */
function readConcurrency(
	context: IExecuteFunctions,
	labels: FieldLabels,
	options: Record<string, unknown>,
): number {
	return validated(context, 0, labels, () =>
		wholeOptionOf(options, 'parallelRequests', DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS),
	);
}

/** What Add and Check share: their labels, recipients at once and the wait budget option. */
export const both = {
	// Every field of either operation, for the errors to name them.
	fields: addFields,
	aliases: { type: 'channel' },
	concurrency: readConcurrency,
	rateLimitWaitOption: true,
};
