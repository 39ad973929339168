/** Chat-app mapping: sender numbers, media types, callback URLs and contacts from the editor. */
import { entries, httpUrl, text as readText } from '../../base/coerce';
import { MEDIA } from './schema';
import type { MediaType } from './schema';
import { toE164Digits } from '../../base/addresses';

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

export const present = (value: unknown) =>
	typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null;

/** Keeps the keys that hold something, so empty editor fields are not sent. */
export function compact<T extends Record<string, unknown>>(record: T): Partial<T> {
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
