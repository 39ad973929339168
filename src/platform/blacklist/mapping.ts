/** Blacklist › Add and Check parameters to the platform's body and query. */
import { oneOf, text as readText } from '../../base/coerce';
import { InputError } from '../../base/input-errors';
import { BLACKLIST_CHANNELS, BLACKLIST_LIST_TYPE } from './schema';
import { toE164, toEmail } from '../../base/addresses';
import { senderDigits } from '../chatapp/mapping';

export interface BlacklistParameters {
	channel: unknown;
	from: unknown;
	to: unknown;
	reason?: unknown;
	customReason?: unknown;
}

const channelOf = (parameters: BlacklistParameters) =>
	oneOf(parameters.channel, 'type', BLACKLIST_CHANNELS);

/** The recipient as the channel wants it: an e-mail address for EMAIL, else an E.164 number. */
function blacklistRecipient(channel: string, to: unknown): string {
	return channel === 'EMAIL' ? toEmail(to, 'to') : toE164(to, 'to');
}

/**
 * The sender as the channel's blacklist is keyed: on CHATAPP the digits-only `from` of Message ›
 * Send (senderDigits), so the entry is the one the platform matches; otherwise as typed, trimmed.
 */
function sender(channel: string, from: unknown): string {
	const text = readText(from, 'from');
	if (!text)
		throw new InputError(
			'from',
			'the sender is required: the phone number, e-mail address or sender name that sends on this channel',
		);
	return channel === 'CHATAPP' ? senderDigits(text, 'from') : text;
}

/** Blacklist > Add parameters to the body of POST /subscribers. */
export function blacklistAddBody(parameters: BlacklistParameters): Record<string, unknown> {
	const channel = channelOf(parameters);
	const choice = readText(parameters.reason, 'reason');
	return {
		to: blacklistRecipient(channel, parameters.to),
		reason: choice === 'custom' ? readText(parameters.customReason, 'customReason') : choice,
		type: channel,
		from: sender(channel, parameters.from),
		listType: BLACKLIST_LIST_TYPE,
	};
}

/** Blacklist > Check parameters to the query of GET /subscribers. */
export function blacklistLookupQuery(parameters: BlacklistParameters): Record<string, string> {
	const channel = channelOf(parameters);
	return {
		type: channel,
		from: sender(channel, parameters.from),
		listType: BLACKLIST_LIST_TYPE,
		to: blacklistRecipient(channel, parameters.to),
	};
}
