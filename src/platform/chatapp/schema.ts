import { z } from 'zod';

import { E164, E164_DIGITS, E164_RULE, e164DigitsProblem } from '../../base/addresses';

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

/**
 * Spec §4 media table: content types; 5 MB each. The URL's ending is not a rule: the HEAD check
 * reads the content type.
 */
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

/** The chat-app provider's published limits for reply buttons. */
export const REPLY_BUTTONS_MAX = 3;
export const REPLY_TITLE_MAX = 20;

const text = (what: string) =>
	z
		.string({ required_error: `${what} is required`, invalid_type_error: `${what} must be text` })
		.trim()
		.min(1, `${what} is required`);
const optionalText = z.string().trim().min(1).optional();

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

const subItemType = z.string().trim().min(1).optional();

const contactSchema = z.object({
	addresses: z
		.array(
			z.object({
				street: optionalText,
				city: optionalText,
				state: optionalText,
				zip: optionalText,
				country: optionalText,
				country_code: optionalText,
				type: subItemType,
			}),
		)
		.optional(),
	birthday: z
		.string()
		.regex(/^\d{4}-\d{2}-\d{2}$/, 'a birthday is written YYYY-MM-DD')
		.refine(
			(value) =>
				!Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
				new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
			'the birthday is not a real date',
		)
		.optional(),
	emails: z
		.array(z.object({ email: z.string().trim().email('not an e-mail address'), type: subItemType }))
		.optional(),
	name: z
		.object({
			formatted_name: text('the formatted name'),
			first_name: optionalText,
			last_name: optionalText,
		})
		.refine((name) => name.first_name || name.last_name, {
			message: 'a contact needs a first or last name besides its formatted name',
			path: ['first_name'],
		}),
	org: z
		.object({ company: optionalText, department: optionalText, title: optionalText })
		.optional(),
	phones: z.array(z.object({ phone: text('the phone number'), type: subItemType })).optional(),
	urls: z
		.array(z.object({ url: z.string().trim().url('not a URL'), type: subItemType }))
		.optional(),
});

/** A latitude or longitude: a number from -limit to limit. */
const coordinate = (name: string, limit: number) =>
	z
		.number({
			required_error: `the ${name} is required`,
			invalid_type_error: `the ${name} must be a number`,
		})
		.min(-limit, `the ${name} must be between -${limit} and ${limit}`)
		.max(limit, `the ${name} must be between -${limit} and ${limit}`);

const locationSchema = z
	.object({
		latitude: coordinate('latitude', 90),
		longitude: coordinate('longitude', 180),
		name: optionalText,
		address: optionalText,
	})
	.refine((location) => !location.address || location.name, {
		message:
			'an address is only displayed together with a name: add a name, or leave the address out',
		path: ['name'],
	});

const interactiveSchema = z.object({
	type: z.literal('button'),
	body: z.object({ text: text('the body text') }),
	action: z.object({
		buttons: z
			.array(
				z.object({
					type: z.literal('reply'),
					reply: z.object({
						id: text('a button ID'),
						title: text('a button title').pipe(
							z
								.string()
								.max(
									REPLY_TITLE_MAX,
									`a button title has at most ${REPLY_TITLE_MAX} characters (the chat-app provider's limit)`,
								),
						),
					}),
				}),
			)
			.min(1, 'an interactive message needs at least one reply button')
			.max(
				REPLY_BUTTONS_MAX,
				`an interactive message has at most ${REPLY_BUTTONS_MAX} reply buttons (the chat-app provider's limit)`,
			)
			.superRefine((buttons, ctx) => {
				const seen = new Set<string>();
				buttons.forEach((button, index) => {
					if (seen.has(button.reply.id))
						ctx.addIssue({
							code: z.ZodIssueCode.custom,
							path: [index, 'reply', 'id'],
							message: `the button ID "${button.reply.id}" is used twice; IDs must be unique`,
						});
					seen.add(button.reply.id);
				});
			}),
	}),
});

/**
 * A phone number by the package's one rule (src/base/addresses.ts): E.164 with its + (`to`) or
 * its digits alone (`from`).
 */
const phone = (withPlus: boolean) =>
	z.string().superRefine((value, ctx) => {
		if ((withPlus ? E164 : E164_DIGITS).test(value)) return;
		const digits = withPlus && value.startsWith('+') ? value.slice(1) : value;
		const problem =
			withPlus && !value.startsWith('+')
				? `${JSON.stringify(value)} is not an E.164 number: + then the country code`
				: e164DigitsProblem(digits, value);
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: problem ?? `${JSON.stringify(value)} is not a phone number: ${E164_RULE}`,
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

export const messageSchema = z.discriminatedUnion('type', [
	z.object({
		...envelope,
		type: z.literal('text'),
		body: text('the message text').pipe(
			z.string().max(4096, 'a text message has at most 4096 characters'),
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
