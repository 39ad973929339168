/** Chat-app messages: the editor's parameters to the platform's message body. */
import { entries, httpUrl, number, rawText, record, text as readText } from '../../base/coerce';
import { parseObjectList } from '../../base/json';
import { MEDIA } from './schema';
import type { MediaType, MessageType } from './schema';
import { toE164, toE164Digits } from '../../base/addresses';

/** The sender number as `from` takes it: digits only, from any common form (addresses.ts). */
export function senderDigits(value: unknown, field: string): string {
	return toE164Digits(value, field, 'the sender phone number is required');
}

/** Whether a content type answered for a media URL is one the spec allows for that type. */
export function mediaContentTypeFits(type: MediaType, contentType: string): boolean {
	const normalised = contentType.toLowerCase().replace(/\s+/g, '');
	return MEDIA[type].contentTypes.some((allowed) => {
		const wanted = allowed.replace(/\s+/g, '');
		return wanted.includes(';')
			? normalised.startsWith(wanted)
			: normalised.split(';')[0] === wanted;
	});
}

/** One or more webhook URLs separated by commas, each checked, sent as the platform documents. */
export function callbacksValue(value: unknown, field: string): string | undefined {
	const urls = readText(value, field)
		.split(',')
		.map((url) => url.trim())
		.filter(Boolean);
	for (const url of urls) httpUrl(url, field);
	return urls.length ? urls.join(',') : undefined;
}

const present = (value: unknown) =>
	typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;

/** Keeps the keys that hold something, so empty editor fields are not sent. */
function compact<T extends Record<string, unknown>>(record: T): Partial<T> {
	return Object.fromEntries(
		Object.entries(record).filter(([, value]) => present(value)),
	) as Partial<T>;
}

/** A sub-list of a contact (phones, emails, urls, addresses): each entry's values as text. */
function subItems(
	value: unknown,
	field: string,
	key: string,
): Array<Record<string, string>> | undefined {
	const items = entries(value, field, key)
		.map((item, index) =>
			compact(
				Object.fromEntries(
					Object.entries(item).map(([name, raw]) => [
						name,
						readText(raw, `${field}.${index}.${name}`),
					]),
				),
			),
		)
		.filter((item) => Object.keys(item).length > 0) as Array<Record<string, string>>;
	return items.length ? items : undefined;
}

/** A Contacts entry from the editor's fields to the platform's shape; plural fields as arrays. */
export function contactFromParameters(
	contact: Record<string, unknown>,
	field = 'contacts.0',
): Record<string, unknown> {
	const value = (name: string, path = name) => readText(contact[name], `${field}.${path}`);
	const org = compact({
		company: value('company', 'org.company'),
		department: value('department', 'org.department'),
		title: value('title', 'org.title'),
	});
	return compact({
		name: compact({
			formatted_name: value('formattedName', 'name.formatted_name'),
			first_name: value('firstName', 'name.first_name'),
			last_name: value('lastName', 'name.last_name'),
		}),
		birthday: value('birthday'),
		org: Object.keys(org).length ? org : undefined,
		phones: subItems(contact.phones, `${field}.phones`, 'phone'),
		emails: subItems(contact.emails, `${field}.emails`, 'email'),
		urls: subItems(contact.urls, `${field}.urls`, 'url'),
		addresses: subItems(contact.addresses, `${field}.addresses`, 'address'),
	});
}

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
