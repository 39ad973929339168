/** Secrets: derived tokens (the secret never leaves n8n's credential store), and redaction. */
import { createHmac } from 'node:crypto';

/** A token of a credential's secret for one `purpose` only: HMAC-SHA-256, 32 base64url chars. */
export function derivedToken(secret: string, purpose: string): string {
	return createHmac('sha256', secret).update(purpose).digest('base64url').slice(0, 32);
}

/**
 * A value without credentials (the given secrets and, unless `bearer` is false, any Bearer
 * header): a platform echoing a request must not put the key into an error n8n shows and logs,
 * nor an item (each answer: attempt.ts), nor a caller into the trigger's output.
 */
export function redacted<T>(value: T, secrets: string[], bearer = true): T {
	if (value === undefined || value === null) return value;
	const text = JSON.stringify(value);
	const hidden = secrets.flatMap((s) => (s?.length >= 4 ? [JSON.stringify(s).slice(1, -1)] : []));
	const bearers = bearer && /Bearer/i.test(text);
	// Most values hold none: one stringify, no copy, so bulk answers stay cheap.
	if (!bearers && !hidden.some((secret) => text.includes(secret))) return value;
	const bare = bearers ? text.replace(/Bearer\s+[^\s"'\\]+/gi, 'Bearer ***') : text;
	return JSON.parse(hidden.reduce((done, secret) => done.split(secret).join('***'), bare)) as T;
}
