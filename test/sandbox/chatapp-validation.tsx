/** The envelope of POST /chatapp/messages: from, to, type, externalId, callbacks, in that order. */
import {
	E164,
	PHONE_DIGITS_RULE,
	isAbsent,
	isHttpUrl,
	maxLength,
	requiredString,
	show,
} from './checks';
import { CONTENT_CHECKS } from './chatapp-content-checks';
import { MESSAGE_LIMITS, MESSAGE_TYPES, type MessageType } from './chatapp-message-limits';
import { badRequest, isPlainObject } from './http';

/** The checked envelope of POST /chatapp/messages; the content stays in the request body. */
export interface ParsedMessage {
	from: string;
	to: string;
	type: MessageType;
	externalId?: string;
	/** Distinct URLs, in the order given. */
	callbacks: string[];
}

/**
 * Checks in this order, the first failure being a 400 VALIDATION_FAILED naming the field:
 * body object, from, to, type, externalId, callbacks, then the content of the type.
 */
export function parseMessage(body: unknown): ParsedMessage {
	if (!isPlainObject(body))
		throw badRequest('Body must be a JSON object with from, to and the message content');
	const from = requiredString(body.from, 'from', ' (the sender phone number, digits only)');
	if (!/^\d+$/.test(from))
		throw badRequest(`from must hold digits only, without + (got ${show(from)})`);
	const to = requiredString(body.to, 'to', ' (the recipient in E.164 format, e.g. +33612345678)');
	if (!E164.test(to))
		throw badRequest(
			`to must be an E.164 phone number: "+" then ${PHONE_DIGITS_RULE}, no spaces (got ${show(to)})`,
		);
	const type = parseType(body.type);
	const externalId = parseExternalId(body.externalId);
	const callbacks = parseCallbacks(body.callbacks);
	CONTENT_CHECKS[type](body, type);
	return { from, to, type, ...(externalId !== undefined && { externalId }), callbacks };
}

/**
 * Sandbox choice (spec: not shown): no type is text; the full list is not shown, so only text and
 * the types seen, lowercase.
 */
function parseType(value: unknown): MessageType {
	if (isAbsent(value)) return 'text';
	if (!(MESSAGE_TYPES as readonly unknown[]).includes(value)) {
		throw badRequest(`type must be one of ${MESSAGE_TYPES.join(', ')} (got ${show(value)})`);
	}
	return value as MessageType;
}

function parseExternalId(value: unknown): string | undefined {
	if (isAbsent(value)) return undefined;
	if (typeof value !== 'string')
		throw badRequest(`externalId must be a string (got ${show(value)})`);
	maxLength(value, 'externalId', MESSAGE_LIMITS.externalId);
	if (!/^[A-Za-z0-9]+$/.test(value))
		throw badRequest(
			`externalId must be alphanumeric: letters A-Z, a-z and digits only (got ${show(value)})`,
		);
	return value;
}

function parseCallbacks(value: unknown): string[] {
	if (isAbsent(value)) return [];
	// Sandbox choice (spec: not shown): one or more http(s) URLs separated by commas (the spec
	// shows one webhook URL); a URL given twice is posted to once.
	const rule = 'callbacks must hold one or more http(s) URLs separated by commas';
	if (typeof value !== 'string') throw badRequest(`${rule} (got ${show(value)})`);
	const urls: string[] = [];
	value.split(',').forEach((part, index) => {
		const candidate = part.trim();
		if (candidate === '')
			throw badRequest(`${rule}: URL ${index + 1} is empty (got ${show(value)})`);
		if (!isHttpUrl(candidate))
			throw badRequest(`${rule}: ${show(candidate)} is not an http(s) URL`);
		if (!urls.includes(candidate)) urls.push(candidate);
	});
	return urls;
}
