/** Secrets: derived tokens (the secret never leaves n8n's credential store), and redaction. */
import { createHmac } from 'node:crypto';

/** A token of a credential's secret for one `purpose` only: HMAC-SHA-256, 32 base64url chars. */
export function derivedToken(secret: string, purpose: string): string {
	return createHmac('sha256', secret).update(purpose).digest('base64url').slice(0, 32);
}

/**
 * A value without credentials (a Bearer header, the given secrets): a platform echoing a request
 * must not put the key into an error n8n shows and logs, nor a caller into the trigger's output.
 */
export function redacted<T>(value: T, secrets: string[]): T {
	if (value === undefined || value === null) return value;
	let text = JSON.stringify(value).replace(/Bearer\s+[^\s"'\\]+/gi, 'Bearer ***');
	for (const secret of secrets)
		if (secret && secret.length >= 4)
			text = text.split(JSON.stringify(secret).slice(1, -1)).join('***');
	return JSON.parse(text) as T;
}
