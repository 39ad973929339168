import { createHash, timingSafeEqual } from 'node:crypto';
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { InputError } from '../base/input-errors';
import { RequestRejection } from '../base/rejection';
import { derivedToken } from '../base/secrets';
import { tryParseJson } from '../base/json';

/**
 * Status values of chat-app message events (platform docs; DELIVERED and READ are not confirmed
 * there).
 */
export const CALLBACK_STATUSES = [
	'QUEUE',
	'DEQUEUED',
	'SENT',
	'DELIVERED',
	'READ',
	'CODE_NOT_ALLOWED',
	'INCOMPLETE',
	'BLACKLISTED',
	'QUOTA_EXCEEDED',
] as const;

/** Callback bodies larger than this are refused (413): a status event is a few hundred bytes. */
export const CALLBACK_MAX_BYTES = 256 * 1024;

/** The callback secret (kept in an encrypted credential) must be long enough not to be guessed. */
export const CALLBACK_SECRET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The credential type holding the callback secret (used by the trigger and by Message › Send). */
export const CALLBACK_CREDENTIAL_TYPE = 'audienceMessagingCallbackApi';

/** The query parameter of the callback URL that carries the token. */
export const CALLBACK_TOKEN_PARAMETER = 'token';

/**
 * The token the callback URL carries, derived from the secret (HMAC-SHA256, 192 bits): the secret
 * itself never leaves n8n's credential store, and a new secret gives a new token.
 */
export function callbackToken(secret: string): string {
	return derivedToken(secret, 'audience-messaging-callbacks/v1');
}

/**
 * n8n's path for test webhooks (its setting N8N_ENDPOINT_WEBHOOK_TEST, default "webhook-test";
 * production webhooks are under "webhook"). A path prefix before it (n8n served under /n8n/) is
 * allowed for; a renamed test endpoint cannot be told from a production one and is not caught.
 */
const TEST_WEBHOOK_SEGMENT = 'webhook-test';
const PRODUCTION_WEBHOOK_SEGMENT = 'webhook';

/**
 * Refuses the trigger's Test URL where its Production URL is needed: the Test URL answers only
 * while the editor listens for one test event, so the platform's status events, which come
 * later, would be lost without an error anywhere. An InputError of the Trigger Production URL
 * field.
 */
function checkTriggerProductionUrl(triggerUrl: string): void {
	const segments = new URL(triggerUrl).pathname
		.split('/')
		.filter(Boolean)
		.map((segment) => segment.toLowerCase());
	// The first "webhook" or "webhook-test" segment is n8n's (what comes before is a path prefix,
	// what follows is the webhook's own path, which may hold either word); compared without case, as
	// Express matches routes by default.
	const endpoint = segments.findIndex(
		(segment) => segment === PRODUCTION_WEBHOOK_SEGMENT || segment === TEST_WEBHOOK_SEGMENT,
	);
	if (
		endpoint < 0 ||
		segments[endpoint] !== TEST_WEBHOOK_SEGMENT ||
		endpoint === segments.length - 1
	)
		return;
	throw new InputError(
		'triggerUrl',
		`"${triggerUrl}" is the trigger's Test URL (/${TEST_WEBHOOK_SEGMENT}/…), which answers only while the editor listens for a test event; ` +
			"copy the trigger's Production URL (/webhook/…) and activate the trigger's workflow",
	);
}

/**
 * The trigger's Production URL with the token of `secret` in its query; a Test URL is refused
 * (checkTriggerProductionUrl).
 */
export function callbackUrlWithToken(triggerUrl: string, secret: string): string {
	checkTriggerProductionUrl(triggerUrl);
	const url = new URL(triggerUrl);
	url.searchParams.set(CALLBACK_TOKEN_PARAMETER, callbackToken(secret));
	return url.toString();
}

/** Compares two secrets in constant time, whatever their lengths. */
export function secretMatches(given: string | undefined, expected: string): boolean {
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(given ?? ''), digest(expected));
}

/** The events in a callback body: one JSON object, or an array of them. */
export function parseCallbackBody(raw: Buffer | undefined): Array<Record<string, unknown>> {
	if (raw && raw.length > CALLBACK_MAX_BYTES)
		throw new RequestRejection(413, `Callback body over ${CALLBACK_MAX_BYTES} bytes`);
	const text = (raw ?? Buffer.alloc(0))
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trim();
	if (!text) throw new RequestRejection(400, 'Empty callback body: a JSON event was expected');
	const json = tryParseJson(text);
	if ('problem' in json) throw new RequestRejection(400, `Malformed JSON: ${json.problem}`);
	const parsed = json.value;
	const events = Array.isArray(parsed) ? parsed : [parsed];
	if (
		events.length === 0 ||
		events.some((event) => !event || typeof event !== 'object' || Array.isArray(event))
	) {
		throw new RequestRejection(
			400,
			'A callback body must be a JSON object (or an array of objects)',
		);
	}
	return events as Array<Record<string, unknown>>;
}

const firstString = (event: Record<string, unknown>, keys: string[]) => {
	for (const key of keys) {
		const value = event[key];
		if (typeof value === 'string' && value.trim()) return value;
		if (typeof value === 'number') return String(value);
	}
	return undefined;
};

function isoDate(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const millis =
		typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(String(value));
	return Number.isNaN(millis) ? undefined : new Date(millis).toISOString();
}

/**
 * The event as received plus normalised fields. The payload shape is not specified: the
 * message id, destination and status are looked for under the names seen in the docs and
 * their usual variants; `date` becomes an ISO string.
 */
export function normaliseEvent(event: Record<string, unknown>): Record<string, unknown> {
	const status = firstString(event, ['status', 'state', 'event']);
	return {
		...event,
		messageId: firstString(event, ['id', 'messageId', 'message_id']) ?? null,
		status: status ? status.toUpperCase() : null,
		to: firstString(event, ['to', 'destination', 'recipient', 'msisdn']) ?? null,
		from: firstString(event, ['from', 'sender']) ?? null,
		externalId: firstString(event, ['externalId', 'external_id']) ?? null,
		date: isoDate(event.date ?? event.timestamp) ?? null,
	};
}

export const CALLBACK_SECRET_RULE = 'The callback secret must be 16 to 128 letters, digits, - or _';

/**
 * The test of the Callbacks credential (used by the trigger and by Message › Send): checks the
 * secret's rule and shows the token to append, for callback URLs built by hand.
 */
export async function audienceMessagingCallbackTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const secret = String(credential.data?.secret ?? '');
	if (!CALLBACK_SECRET_PATTERN.test(secret))
		return { status: 'Error', message: CALLBACK_SECRET_RULE };
	return {
		status: 'OK',
		message: `Secret accepted. A callback URL built by hand ends in ?${CALLBACK_TOKEN_PARAMETER}=${callbackToken(secret)}`,
	};
}
