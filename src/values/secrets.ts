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
