/** Zod schemas of the chat-app requests but the message's (message.ts): senders, template scopes. */
import { z } from 'zod';

import { contactSchema, optionalText, text } from './message-parts';

/** Message types of POST /chatapp/messages (spec §4; `text` is the type of a plain body). */
export const MESSAGE_TYPES = [
	'text',
	'image',
	'audio',
	'video',
	'document',
	'contacts',
	'location',
	'interactive',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export type MediaType = 'image' | 'audio' | 'video' | 'document';

/** Spec §4 media: content types, 5 MB each; the HEAD check reads the type, not the URL's end. */
export const MEDIA: Record<MediaType, { contentTypes: string[] }> = {
	image: { contentTypes: ['image/jpeg', 'image/png'] },
	audio: {
		contentTypes: ['audio/aac', 'audio/mp4', 'audio/amr', 'audio/mpeg', 'audio/ogg; codecs=opus'],
	},
	video: { contentTypes: ['video/mp4', 'video/3gpp'] },
	// The spec writes document/pdf; servers send application/pdf.
	document: { contentTypes: ['document/pdf', 'application/pdf'] },
};
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;

export const senderCreateSchema = z.object({
	providerId: text('the provider ID'),
	name: text('the sender name'),
	address: text('the phone number'),
	accountTier: z
		.number({ invalid_type_error: 'the account tier must be a whole number' })
		.int('the account tier must be a whole number')
		.min(1, 'the account tier starts at 1'),
	dailyQuota: z
		.number()
		.int('the daily quota must be a whole number')
		.min(1, 'the daily quota must be at least 1')
		.optional(),
});

export const templateScopeSchema = z
	.object({ senderId: optionalText, bizAccountId: optionalText })
	.refine((scope) => scope.senderId || scope.bizAccountId, {
		message: 'give a sender ID or a business account ID (or both)',
		path: ['scope'],
	});

export type Contact = z.infer<typeof contactSchema>;
