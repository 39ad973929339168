/** Zod schemas of the chat-app requests: messages, senders, template scopes. */
import { z } from 'zod';

import { E164, E164_DIGITS, E164_RULE, e164DigitsProblem, quoted } from '../../base';
import {
	contactSchema,
	interactiveSchema,
	locationSchema,
	optionalText,
	text,
} from './message-parts';

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

/** A phone number by addresses.ts's rule: E.164 with its + (`to`) or its digits alone (`from`). */
const phone = (withPlus: boolean) =>
	z.string().superRefine((value, ctx) => {
		if ((withPlus ? E164 : E164_DIGITS).test(value)) return;
		const digits = withPlus && value.startsWith('+') ? value.slice(1) : value;
		const problem =
			withPlus && !value.startsWith('+')
				? `${quoted(value, JSON.stringify)} is not an E.164 number: + then the country code`
				: e164DigitsProblem(digits, value);
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: problem ?? `${quoted(value, JSON.stringify)} is not a phone number: ${E164_RULE}`,
		});
	});

const envelope = {
	from: phone(false),
	to: phone(true),
	externalId: z
		.string()
		.regex(/^[A-Za-z0-9]{1,64}$/, 'the external ID holds letters and digits only (at most 64)')
		.optional(),
	callbacks: z.string().optional(),
};

const mediaMessage = <T extends MediaType>(type: T) =>
	z.object({
		...envelope,
		type: z.literal(type),
		body: z
			.string()
			.url('the media URL is not a URL')
			.refine(
				(url) => /^https?:\/\//i.test(url),
				'the media URL must start with http:// or https://',
			),
	});

/**
 * Most characters of a text message (the chat-app provider's limit), counted as JavaScript counts
 * a string (UTF-16 units: most characters 1, an emoji 2), after the ends are trimmed.
 */
export const TEXT_MAX = 4096;

export const messageSchema = z.discriminatedUnion('type', [
	z.object({
		...envelope,
		type: z.literal('text'),
		body: text('the message text').pipe(
			z
				.string()
				.max(
					TEXT_MAX,
					`a text message has at most ${TEXT_MAX} characters (an emoji counts 2; spaces at the ends are not counted)`,
				),
		),
	}),
	mediaMessage('image'),
	mediaMessage('audio'),
	mediaMessage('video'),
	mediaMessage('document'),
	z.object({
		...envelope,
		type: z.literal('contacts'),
		contacts: z.array(contactSchema).min(1, 'a contacts message needs at least one contact'),
	}),
	z.object({ ...envelope, type: z.literal('location'), location: locationSchema }),
	z.object({ ...envelope, type: z.literal('interactive'), interactive: interactiveSchema }),
]);

export type Message = z.infer<typeof messageSchema>;
export type Contact = z.infer<typeof contactSchema>;
