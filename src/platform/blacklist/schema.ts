/** Zod schemas of the blacklist requests: Add's body, Check's query. */
import { z } from 'zod';

/** Channels of a sender's blacklist (spec §1, §4). */
export const BLACKLIST_CHANNELS = ['SMS', 'EMAIL', 'CHATAPP', 'RCS'] as const;
export const BLACKLIST_LIST_TYPE = 'BLACK';
export const REASON_UNSUBSCRIBED = 'UNSUBSCRIBED';

const required = (what: string) =>
	z
		.string({ required_error: `${what} is required` })
		.trim()
		.min(1, `${what} is required`);

const blacklistChannelSchema = z.enum(BLACKLIST_CHANNELS, {
	errorMap: () => ({ message: `the channel must be one of ${BLACKLIST_CHANNELS.join(', ')}` }),
});

export const blacklistAddRequestSchema = z.object({
	to: required('the recipient'),
	reason: required('a reason'),
	type: blacklistChannelSchema,
	from: required('the sender'),
	listType: z.literal(BLACKLIST_LIST_TYPE),
});

export const blacklistLookupQuerySchema = z.object({
	type: blacklistChannelSchema,
	from: required('the sender'),
	listType: z.literal(BLACKLIST_LIST_TYPE),
	to: required('the recipient'),
});
