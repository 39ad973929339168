/**
 * A chat-app message (POST /chatapp/messages): the editor's parameters to its body, the body's
 * check, and the default Message Key of Skip Messages Sent Before.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

import { E164, E164_DIGITS, E164_RULE, canonicalJson, e164DigitsProblem, quoted } from '../../base';
import { toE164 } from '../../base/addresses';
import { entries, httpUrl, number, rawText, record, text as readText } from '../../base/coerce';
import { parseObjectList } from '../../base/json';
import { callbacksValue, compact, contactFromParameters, present, senderDigits } from './mapping';
import { contactSchema, interactiveSchema, locationSchema, text } from './message-parts';
import type { MediaType, MessageType } from './schema';

export interface MessageParameters {
	type: MessageType;
	from: unknown;
	to: unknown;
	text?: unknown;
	mediaUrl?: unknown;
	/** The Contacts collection: { contact: [...] }. */
	contacts?: unknown;
	latitude?: unknown;
	longitude?: unknown;
	locationName?: unknown;
	locationAddress?: unknown;
	bodyText?: unknown;
	/** The Buttons collection: { button: [...] }. */
	buttons?: unknown;
	/** Contacts as JSON (an array in the API's shape), instead of the collection. */
	contactsJson?: unknown;
	/** Buttons as JSON instead of the collection: [{ id, title }] or the API's reply shape. */
	buttonsJson?: unknown;
	externalId?: unknown;
	callbacks?: unknown;
}

/** The reply buttons as { id, title }: from the collection, or the JSON (either shape). */
function buttonEntries(parameters: MessageParameters): Array<Record<string, unknown>> {
	if (parameters.buttonsJson === undefined)
		return entries(parameters.buttons, 'interactive.action.buttons', 'button');
	return parseObjectList(parameters.buttonsJson, 'interactive.action.buttons').map(
		(button, index) => {
			const entry = record(button, `interactive.action.buttons.${index}`);
			return entry.reply !== undefined
				? record(entry.reply, `interactive.action.buttons.${index}.reply`)
				: entry;
		},
	);
}

/** Send Message parameters to the body of POST /chatapp/messages (its schema checks it after). */
export function messageBody(parameters: MessageParameters): Record<string, unknown> {
	const { type } = parameters;
	const body: Record<string, unknown> = {
		from: senderDigits(parameters.from, 'from'),
		to: toE164(parameters.to, 'to'),
		type,
	};
	const externalId = readText(parameters.externalId, 'externalId');
	if (externalId) body.externalId = externalId;
	const callbacks = callbacksValue(parameters.callbacks, 'callbacks');
	if (callbacks) body.callbacks = callbacks;
	if (type === 'text') body.body = rawText(parameters.text, 'text');
	if (type === 'image' || type === 'audio' || type === 'video' || type === 'document')
		body.body = httpUrl(parameters.mediaUrl, 'mediaUrl');
	if (type === 'contacts') {
		// As JSON the contacts are the API's own shape, checked by the message schema as they are.
		body.contacts =
			parameters.contactsJson !== undefined
				? parseObjectList(parameters.contactsJson, 'contacts')
				: entries(parameters.contacts, 'contacts', 'contact').map((contact, index) =>
						contactFromParameters(contact, `contacts.${index}`),
					);
	}
	if (type === 'location') {
		body.location = compact({
			latitude: present(parameters.latitude)
				? number(parameters.latitude, 'location.latitude')
				: undefined,
			longitude: present(parameters.longitude)
				? number(parameters.longitude, 'location.longitude')
				: undefined,
			name: readText(parameters.locationName, 'location.name'),
			address: readText(parameters.locationAddress, 'location.address'),
		});
	}
	if (type === 'interactive') {
		body.interactive = {
			type: 'button',
			body: { text: readText(parameters.bodyText, 'interactive.body.text') },
			action: {
				buttons: buttonEntries(parameters).map((button, index) => ({
					type: 'reply',
					reply: {
						id: readText(button.id, `interactive.action.buttons.${index}.reply.id`),
						title: readText(button.title, `interactive.action.buttons.${index}.reply.title`),
					},
				})),
			},
		};
	}
	return body;
}

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

/**
 * The key: recipient, type and a content hash, so the same message to the same person has the same
 * key in every run; sender, External ID (new each run) and callbacks are not content. `body`
 * stands in for a body that changes each run (a file's signed link): what identifies the bytes.
 */
export function messageContentKey(message: Message, body?: string): string {
	const content: Record<string, unknown> = { ...message };
	if (body !== undefined) content.body = body;
	for (const notContent of ['from', 'to', 'externalId', 'callbacks']) delete content[notContent];
	const hash = createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 24);
	return `${message.to} ${message.type} ${hash}`;
}
