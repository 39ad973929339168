import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { REASON_UNSUBSCRIBED } from '../../core/platform';
import type { BlacklistParameters } from '../../core/platform';
import {
	optionsCollection,
	parallelRequestsOf,
	parallelRequestsOption,
	previewOption,
	rateLimitWaitOption,
} from '../../shared/descriptions';
import type { FieldLabels } from '../../core/values';
import { validated } from '../../shared/item-errors';
import type { ItemReader } from '../../shared/request';

export const DEFAULT_PARALLEL_REQUESTS = 5;
export const MAX_PARALLEL_REQUESTS = 50;

/** The parameters both operations share, read for one item. */
export function blacklistParameters(
	read: (name: string, itemIndex: number, fallback?: unknown) => unknown,
	itemIndex: number,
	operation: 'add' | 'check',
): BlacklistParameters {
	return {
		channel: read('channel', itemIndex, 'SMS'),
		from: read('from', itemIndex, ''),
		to: read('to', itemIndex, ''),
		...(operation === 'add'
			? {
					reason: read('reason', itemIndex, REASON_UNSUBSCRIBED),
					customReason: read('customReason', itemIndex, ''),
				}
			: {}),
	};
}

const show = { resource: ['blacklist'] };

export const blacklistFields: INodeProperties[] = [
	{
		displayName: 'Channel',
		name: 'channel',
		type: 'options',
		default: 'SMS',
		description:
			"Which of the sender's blacklists to use: it has one per channel. Message › Send sends on Chat App, so choose Chat App for its recipients.",
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
		placeholder: 'e.g. +33 6 12 34 56 78, MyShop or news@example.com',
		description:
			"Chat App: the sender's phone number, sent as digits only as Message › Send sends it. SMS, RCS, Email: the sender name, number or address as typed.",
		displayOptions: { show },
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
	optionsCollection(show, [
		parallelRequestsOption(
			DEFAULT_PARALLEL_REQUESTS,
			MAX_PARALLEL_REQUESTS,
			'recipients checked or added',
		),
		rateLimitWaitOption(),
		{ ...previewOption(), displayOptions: { show: { '/operation': ['add'] } } },
	]),
];

/**
 * How many recipients go at once, from the first item's options (a 429 backs off the whole run:
 * the run's gate, src/pace/gate.ts).
 */
function readConcurrency(
	context: IExecuteFunctions,
	labels: FieldLabels,
	options: Record<string, unknown>,
): number {
	return validated(context, 0, labels, () =>
		parallelRequestsOf(options, DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS),
	);
}

export const read =
	({ parameter }: ItemReader) =>
	(name: string, _itemIndex: number, fallback?: unknown) =>
		parameter(name, fallback);

/**
 * What Add and Check share: their labels, recipients at once from Options, and the wait budget
 * option.
 */
export const both = {
	fields: blacklistFields,
	aliases: { type: 'channel' },
	concurrency: readConcurrency,
	rateLimitWaitOption: true,
};
