import { InputError } from '../errors';
import { BLACKLIST_LIST_TYPE } from '../schemas/blacklist';
import { toE164, toEmail } from './addresses';

export interface BlacklistParameters {
	channel: string;
	from: unknown;
	to: unknown;
	reason?: string;
	customReason?: string;
}

/** The recipient as the channel wants it: an e-mail address for EMAIL, an E.164 number otherwise. */
export function blacklistRecipient(channel: string, to: unknown): string {
	return channel === 'EMAIL' ? toEmail(to, 'to') : toE164(to, 'to');
}

function sender(from: unknown): string {
	const text = String(from ?? '').trim();
	if (!text) throw new InputError('from', 'the sender is required: the phone number, e-mail address or sender name that sends on this channel');
	return text;
}

/** Blacklist > Add parameters to the body of POST /subscribers. */
export function blacklistAddBody(parameters: BlacklistParameters): Record<string, unknown> {
	const reason = parameters.reason === 'custom' ? parameters.customReason : parameters.reason;
	return {
		to: blacklistRecipient(parameters.channel, parameters.to),
		reason: (reason ?? '').trim(),
		type: parameters.channel,
		from: sender(parameters.from),
		listType: BLACKLIST_LIST_TYPE,
	};
}

/** Blacklist > Check parameters to the query of GET /subscribers. */
export function blacklistLookupQuery(parameters: BlacklistParameters): Record<string, string> {
	return {
		type: parameters.channel,
		from: sender(parameters.from),
		listType: BLACKLIST_LIST_TYPE,
		to: blacklistRecipient(parameters.channel, parameters.to),
	};
}
