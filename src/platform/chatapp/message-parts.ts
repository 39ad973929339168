/** Zod schemas of a chat-app message's parts: contacts, a location, reply buttons. */
import { z } from 'zod';

import { isCalendarDay } from '../../base/coerce';

/** The chat-app provider's published limits for reply buttons. */
export const REPLY_BUTTONS_MAX = 3;
export const REPLY_TITLE_MAX = 20;

export const text = (what: string) =>
	z
		.string({ required_error: `${what} is required`, invalid_type_error: `${what} must be text` })
		.trim()
		.min(1, `${what} is required`);
export const optionalText = z.string().trim().min(1).optional();

const subItemType = z.string().trim().min(1).optional();

export const contactSchema = z.object({
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
		.refine(isCalendarDay, 'the birthday is not a real date')
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

const coordinate = (name: string, limit: number) =>
	z
		.number({
			required_error: `the ${name} is required`,
			invalid_type_error: `the ${name} must be a number`,
		})
		.min(-limit, `the ${name} must be between -${limit} and ${limit}`)
		.max(limit, `the ${name} must be between -${limit} and ${limit}`);

export const locationSchema = z
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

export const interactiveSchema = z.object({
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
