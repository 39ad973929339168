import { createHmac } from 'node:crypto';

/**
 * A token derived from a credential's secret for one purpose (`audience-messaging-callbacks/v1`,
 * `audience-messaging-pace/v1`): HMAC-SHA-256, 32 characters of base64url. The secret never
 * leaves n8n's credential store; a new secret gives new tokens, and one purpose's token does not
 * give another's.
 */
export function derivedToken(secret: string, purpose: string): string {
	return createHmac('sha256', secret).update(purpose).digest('base64url').slice(0, 32);
}

/**
 * A value with credentials taken out (a Bearer header, the given secrets): a platform that echoes
 * the request must not put the key into an error n8n shows and logs, nor a caller into the
 * trigger's output.
 */
export function redacted<T>(value: T, secrets: string[]): T {
	if (value === undefined || value === null) return value;
	let text = JSON.stringify(value).replace(/Bearer\s+[^\s"'\\]+/gi, 'Bearer ***');
	for (const secret of secrets)
		if (secret && secret.length >= 4)
			text = text.split(JSON.stringify(secret).slice(1, -1)).join('***');
	return JSON.parse(text) as T;
}
