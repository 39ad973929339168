import { InputError } from '../errors';
import { MEDIA } from '../schemas/chatapp';
import type { MediaType, MessageType } from '../schemas/chatapp';
import { toE164 } from './addresses';

/** The sender number as the platform wants it in `from`: digits only, from any common written form. */
export function senderDigits(value: unknown, field: string): string {
	const text = String(value ?? '').trim();
	if (!text) throw new InputError(field, 'the sender phone number is required');
	if (/[a-z]/i.test(text)) throw new InputError(field, `"${text}" is not a phone number: it contains letters`);
	const digits = text.replace(/[\s().\-/]/g, '').replace(/^(\+|00)/, '');
	if (!/^\d{8,15}$/.test(digits)) throw new InputError(field, `"${text}" is not a phone number with country code (8 to 15 digits)`);
	return digits;
}

/** The file extension of a URL's path, lower-case, if it has one. */
function urlExtension(url: string): string | undefined {
	try {
		const last = new URL(url).pathname.split('/').pop() ?? '';
		const dot = last.lastIndexOf('.');
		return dot > 0 ? last.slice(dot + 1).toLowerCase() : undefined;
	} catch {
		return undefined;
	}
}

/** Refuses a media URL whose extension says another type (an .mp3 sent as image); no extension is fine. */
export function assertMediaUrlFits(type: MediaType, url: string, field: string): void {
	const extension = urlExtension(url);
	if (extension && !MEDIA[type].extensions.includes(extension)) {
		throw new InputError(field, `the URL ends in .${extension}, which is not ${type === 'image' ? 'an' : 'a'} ${type} file (${type}: ${MEDIA[type].extensions.map((e) => `.${e}`).join(', ')})`);
	}
}

/** Whether a content type answered for a media URL is one the spec allows for that type. */
export function mediaContentTypeFits(type: MediaType, contentType: string): boolean {
	const normalised = contentType.toLowerCase().replace(/\s+/g, '');
	return MEDIA[type].contentTypes.some((allowed) => {
		const wanted = allowed.replace(/\s+/g, '');
		return wanted.includes(';') ? normalised.startsWith(wanted) : normalised.split(';')[0] === wanted;
	});
}

/** One or more webhook URLs separated by commas, each checked, sent as the platform documents. */
export function callbacksValue(value: unknown, field: string): string | undefined {
	const urls = String(value ?? '')
		.split(',')
		.map((url) => url.trim())
		.filter(Boolean);
	for (const url of urls) {
		let parsed: URL;
		try {
			parsed = new URL(url);
		} catch {
			throw new InputError(field, `"${url}" is not a URL`);
		}
		if (!['http:', 'https:'].includes(parsed.protocol)) throw new InputError(field, `"${url}" must start with http:// or https://`);
	}
	return urls.length ? urls.join(',') : undefined;
}

export interface SubItem {
	type?: string;
	[key: string]: unknown;
}

export interface ContactParameters {
	formattedName?: string;
	firstName?: string;
	lastName?: string;
	birthday?: string;
	company?: string;
	department?: string;
	title?: string;
	phones?: { phone?: SubItem[] };
	emails?: { email?: SubItem[] };
	urls?: { url?: SubItem[] };
	addresses?: { address?: SubItem[] };
}

const present = (value: unknown) => (typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null);

/** Keeps the keys that hold something, so empty editor fields are not sent. */
function compact<T extends Record<string, unknown>>(record: T): Partial<T> {
	return Object.fromEntries(Object.entries(record).filter(([, value]) => present(value))) as Partial<T>;
}

function subItems(list: SubItem[] | undefined): SubItem[] | undefined {
	const items = (list ?? []).map((item) => compact(item)).filter((item) => Object.keys(item).length > 0);
	return items.length ? items : undefined;
}

/** A contact from the editor's fields to the platform's shape; plural fields become arrays. */
export function contactFromParameters(contact: ContactParameters): Record<string, unknown> {
	const org = compact({ company: contact.company, department: contact.department, title: contact.title });
	return compact({
		name: compact({ formatted_name: contact.formattedName, first_name: contact.firstName, last_name: contact.lastName }),
		birthday: contact.birthday,
		org: Object.keys(org).length ? org : undefined,
		phones: subItems(contact.phones?.phone),
		emails: subItems(contact.emails?.email),
		urls: subItems(contact.urls?.url),
		addresses: subItems(contact.addresses?.address),
	});
}

export interface MessageParameters {
	type: MessageType;
	from: unknown;
	to: unknown;
	text?: string;
	mediaUrl?: string;
	contacts?: { contact?: ContactParameters[] };
	latitude?: number;
	longitude?: number;
	locationName?: string;
	locationAddress?: string;
	bodyText?: string;
	buttons?: { button?: Array<{ id?: string; title?: string }> };
	externalId?: string;
	callbacks?: string;
}

/** Send Message parameters to the JSON body of POST /chatapp/messages (validated afterwards by its schema). */
export function messageBody(parameters: MessageParameters): Record<string, unknown> {
	const { type } = parameters;
	const body: Record<string, unknown> = {
		from: senderDigits(parameters.from, 'from'),
		to: toE164(parameters.to, 'to'),
		type,
	};
	if (present(parameters.externalId)) body.externalId = String(parameters.externalId).trim();
	const callbacks = callbacksValue(parameters.callbacks, 'callbacks');
	if (callbacks) body.callbacks = callbacks;
	if (type === 'text') body.body = parameters.text ?? '';
	if (type === 'image' || type === 'audio' || type === 'video' || type === 'document') {
		const url = String(parameters.mediaUrl ?? '').trim();
		if (!url) throw new InputError('mediaUrl', 'the media URL is required');
		assertMediaUrlFits(type, url, 'mediaUrl');
		body.body = url;
	}
	if (type === 'contacts') body.contacts = (parameters.contacts?.contact ?? []).map(contactFromParameters);
	if (type === 'location') {
		body.location = compact({ latitude: parameters.latitude, longitude: parameters.longitude, name: parameters.locationName, address: parameters.locationAddress });
	}
	if (type === 'interactive') {
		body.interactive = {
			type: 'button',
			body: { text: parameters.bodyText ?? '' },
			action: { buttons: (parameters.buttons?.button ?? []).map((button) => ({ type: 'reply', reply: { id: (button.id ?? '').trim(), title: (button.title ?? '').trim() } })) },
		};
	}
	return body;
}
