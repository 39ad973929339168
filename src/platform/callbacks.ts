/** Status callbacks: the secret, the token in the callback URL, and reading the events. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { InputError, quoted } from '../base/input-errors';
import { RequestRejection } from '../base/rejection';
import { derivedToken } from '../base/secrets';
import { isRecord, nestsDeeper, tryParseJson } from '../base/json';

/** Status values of chat-app message events (platform docs; DELIVERED and READ unconfirmed). */
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

/** Callback bodies nested deeper are refused (400): an event is flat, n8n's item copies recurse. */
export const CALLBACK_MAX_DEPTH = 32;

/** The callback secret (kept in an encrypted credential) must be long enough not to be guessed. */
export const CALLBACK_SECRET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The credential type holding the callback secret (used by the trigger and by Message › Send). */
export const CALLBACK_CREDENTIAL_TYPE = 'audienceMessagingCallbackApi';

export const CALLBACK_TOKEN_PARAMETER = 'token';

/** The URL's token, an HMAC-SHA256 of the secret: the secret never leaves n8n's credentials. */
export function callbackToken(secret: string): string {
	return derivedToken(secret, 'audience-messaging-callbacks/v1');
}

/** n8n's webhook path segments; a renamed test one (N8N_ENDPOINT_WEBHOOK_TEST) is not caught. */
const TEST_WEBHOOK_SEGMENT = 'webhook-test';
const PRODUCTION_WEBHOOK_SEGMENT = 'webhook';

/** Refuses a Test URL: it answers only while the editor listens, so later events would be lost. */
function checkTriggerProductionUrl(triggerUrl: string): void {
	const segments = new URL(triggerUrl).pathname
		.split('/')
		.filter(Boolean)
		.map((segment) => segment.toLowerCase());
	// n8n's segment is the first "webhook" or "webhook-test" (before it: a path prefix; after it:
	// the webhook's own path, which may hold either word), in any case, as Express matches routes.
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
		`${quoted(triggerUrl)} is the trigger's Test URL (/${TEST_WEBHOOK_SEGMENT}/…), which answers only while the editor listens for a test event; ` +
			"copy the trigger's Production URL (/webhook/…) and activate the trigger's workflow",
	);
}

/** The trigger's Production URL with the token of `secret` in its query; a Test URL is refused. */
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
	if (nestsDeeper(parsed, CALLBACK_MAX_DEPTH))
		throw new RequestRejection(400, `Callback body nested over ${CALLBACK_MAX_DEPTH} levels deep`);
	const events = Array.isArray(parsed) ? parsed : [parsed];
	if (events.length === 0 || events.some((event) => !isRecord(event))) {
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

/** The event plus normalised fields under the docs' names and variants (shape unspecified). */
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

/** The Callbacks credential's test: checks the secret, shows the token for hand-built URLs. */
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
