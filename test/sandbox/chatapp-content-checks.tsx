/** The content checks of each chat-app message type: text, media URL, contacts, location, buttons. */
import {
	isAbsent,
	isHttpUrl,
	maxLength,
	requiredObject,
	requiredString,
	show,
	stringKeys,
} from './checks';
import {
	CONTACT_SUB_ITEM_TYPES,
	MEDIA_EXTENSIONS,
	MESSAGE_LIMITS,
	type MediaType,
	type MessageType,
} from './chatapp-message-limits';
import { badRequest, isPlainObject } from './http';

type ContentCheck = (body: Record<string, unknown>, type: MessageType) => void;

/** The checks of the content of each type; the first failure is a 400 naming the field. */
export const CONTENT_CHECKS: Record<MessageType, ContentCheck> = {
	text: checkText,
	image: checkMedia,
	audio: checkMedia,
	video: checkMedia,
	document: checkMedia,
	contacts: checkContacts,
	location: checkLocation,
	interactive: checkInteractive,
};

function checkText(body: Record<string, unknown>): void {
	const text = requiredString(body.body, 'body', ' for type text (the message text)');
	maxLength(text, 'body', MESSAGE_LIMITS.textBody, ' for type text');
}

function checkMedia(body: Record<string, unknown>, type: MessageType): void {
	const media = type as MediaType;
	const value = requiredString(body.body, 'body', ` for type ${media} (the URL of the ${media})`);
	const url = isHttpUrl(value.trim());
	if (!url) throw badRequest(`body must be an http(s) URL for type ${media} (got ${show(value)})`);
	const lastSegment = url.pathname.split('/').pop() ?? '';
	const extension = /\.([A-Za-z0-9]{1,5})$/.exec(lastSegment)?.[1].toLowerCase();
	const allowed = MEDIA_EXTENSIONS[media];
	if (extension !== undefined && !allowed.includes(extension)) {
		throw badRequest(
			`body URL has the file extension .${extension}, which does not match type ${media} (accepted: ${allowed.map((e) => `.${e}`).join(', ')}, or no extension)`,
		);
	}
}

const CONTACT_LISTS: ReadonlyArray<[string, readonly string[]]> = [
	['addresses', ['city', 'country', 'country_code', 'state', 'street', 'zip']],
	['emails', ['email']],
	['phones', ['phone']],
	['urls', ['url']],
];

function checkContacts(body: Record<string, unknown>): void {
	const { contacts } = body;
	// Sandbox choice (spec: not shown): an empty contacts array is refused.
	if (isAbsent(contacts))
		throw badRequest(
			'contacts is required for type contacts (a non-empty array of contact objects)',
		);
	if (!Array.isArray(contacts) || contacts.length === 0)
		throw badRequest(
			`contacts must be a non-empty array of contact objects (got ${show(contacts)})`,
		);
	contacts.forEach((contact, index) => checkContact(contact, `contacts[${index}]`));
}

function checkContact(contact: unknown, path: string): void {
	if (!isPlainObject(contact))
		throw badRequest(`${path} must be an object with at least name (got ${show(contact)})`);
	const name = requiredObject(
		contact.name,
		`${path}.name`,
		'an object with formatted_name and first_name or last_name',
	);
	stringKeys(name, `${path}.name`, ['first_name', 'formatted_name', 'last_name']);
	const filled = (key: string) =>
		typeof name[key] === 'string' && (name[key] as string).trim() !== '';
	if (!filled('formatted_name') || !(filled('first_name') || filled('last_name'))) {
		throw badRequest(`${path}.name needs formatted_name and at least one of first_name, last_name`);
	}
	if (!isAbsent(contact.birthday) && !isDate(contact.birthday))
		throw badRequest(`${path}.birthday must be a date YYYY-MM-DD (got ${show(contact.birthday)})`);
	for (const [field, keys] of CONTACT_LISTS) {
		const list = contact[field];
		if (isAbsent(list)) continue;
		if (!Array.isArray(list))
			throw badRequest(`${path}.${field} must be an array of objects (got ${show(list)})`);
		list.forEach((item, index) => {
			const itemPath = `${path}.${field}[${index}]`;
			if (!isPlainObject(item))
				throw badRequest(`${itemPath} must be an object (got ${show(item)})`);
			stringKeys(item, itemPath, keys);
			if (
				!isAbsent(item.type) &&
				!(CONTACT_SUB_ITEM_TYPES as readonly unknown[]).includes(item.type)
			) {
				throw badRequest(
					`${itemPath}.type must be ${CONTACT_SUB_ITEM_TYPES.join(' or ')} (got ${show(item.type)})`,
				);
			}
		});
	}
	if (!isAbsent(contact.org)) {
		if (!isPlainObject(contact.org))
			throw badRequest(
				`${path}.org must be an object { company, department, title } (got ${show(contact.org)})`,
			);
		stringKeys(contact.org, `${path}.org`, ['company', 'department', 'title']);
	}
}

function isDate(value: unknown): boolean {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function checkLocation(body: Record<string, unknown>): void {
	// Sandbox choice (spec: not shown): latitude within ±90 and longitude within ±180, JSON numbers
	// only (numeric strings refused).
	const location = requiredObject(
		body.location,
		'location',
		'an object with latitude and longitude',
	);
	for (const [key, limit] of [
		['latitude', 90],
		['longitude', 180],
	] as const) {
		const value = location[key];
		const rule = `a number between -${limit} and ${limit}`;
		if (isAbsent(value)) throw badRequest(`location.${key} is required (${rule})`);
		if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) {
			throw badRequest(`location.${key} must be ${rule} (got ${show(value)})`);
		}
	}
	stringKeys(location, 'location', ['name', 'address']);
}

function checkInteractive(body: Record<string, unknown>): void {
	// Sandbox choice (spec: not shown): only reply buttons (the one interactive type shown), 1 to 3
	// of them with unique ids; the lengths are MESSAGE_LIMITS.
	const interactive = requiredObject(
		body.interactive,
		'interactive',
		'an object with type, body and action',
	);
	const kind = requiredString(interactive.type, 'interactive.type', ' ("button")');
	if (kind !== 'button')
		throw badRequest(
			`interactive.type ${show(kind)} is not supported: only reply buttons are supported (interactive.type "button")`,
		);
	const content = requiredObject(interactive.body, 'interactive.body', 'an object with text');
	const text = requiredString(content.text, 'interactive.body.text');
	maxLength(text, 'interactive.body.text', MESSAGE_LIMITS.interactiveBody);
	const action = requiredObject(interactive.action, 'interactive.action', 'an object with buttons');
	const { buttons } = action;
	const rule = `1 to ${MESSAGE_LIMITS.buttons} reply buttons`;
	if (isAbsent(buttons)) throw badRequest(`interactive.action.buttons is required (${rule})`);
	if (!Array.isArray(buttons))
		throw badRequest(
			`interactive.action.buttons must be an array of ${rule} (got ${show(buttons)})`,
		);
	if (buttons.length < 1 || buttons.length > MESSAGE_LIMITS.buttons) {
		throw badRequest(`interactive.action.buttons must hold ${rule} (got ${buttons.length})`);
	}
	const ids: string[] = [];
	buttons.forEach((button, index) => {
		const path = `interactive.action.buttons[${index}]`;
		if (!isPlainObject(button))
			throw badRequest(
				`${path} must be an object { type: "reply", reply: { id, title } } (got ${show(button)})`,
			);
		if (button.type !== 'reply')
			throw badRequest(`${path}.type must be "reply" (got ${show(button.type)})`);
		const reply = requiredObject(button.reply, `${path}.reply`, 'an object with id and title');
		const id = requiredString(reply.id, `${path}.reply.id`);
		maxLength(id, `${path}.reply.id`, MESSAGE_LIMITS.buttonId);
		const first = ids.indexOf(id);
		if (first >= 0) {
			throw badRequest(
				`${path}.reply.id ${show(id)} repeats interactive.action.buttons[${first}].reply.id; button ids must be unique`,
			);
		}
		ids.push(id);
		const title = requiredString(reply.title, `${path}.reply.title`);
		maxLength(title, `${path}.reply.title`, MESSAGE_LIMITS.buttonTitle);
	});
}
