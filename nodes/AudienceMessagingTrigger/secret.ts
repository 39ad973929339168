/** The trigger's Callbacks secret, read from n8n's credential store and kept a few seconds. */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { CALLBACK_CREDENTIAL_TYPE, CALLBACK_SECRET_PATTERN } from '../../src/platform/callbacks';

/**
 * How long a process answering the trigger's webhooks keeps a credential's secret. n8n opens an
 * expression isolate each time a node reads its credential, which made each callback cost about
 * half again what n8n's own Webhook node with Header Auth costs; kept, it is read once in this
 * time. So a changed or deleted secret takes effect within it.
 */
export const SECRET_KEPT_MS = 10_000;

/** Per credential id: its secret (undefined: unreadable or breaking the rule), and until when. */
const kept = new Map<string, { secret: string | undefined; until: number }>();

/** The credential's secret; undefined when unreadable or breaking the rule. */
export async function callbackSecret(
	context: IWebhookFunctions | IHookFunctions,
): Promise<string | undefined> {
	try {
		const secret = String((await context.getCredentials(CALLBACK_CREDENTIAL_TYPE)).secret ?? '');
		return CALLBACK_SECRET_PATTERN.test(secret) ? secret : undefined;
	} catch {
		return undefined;
	}
}

/** callbackSecret, read at most once per SECRET_KEPT_MS for each credential (by its id). */
export async function keptCallbackSecret(
	context: IWebhookFunctions,
	now = Date.now(),
): Promise<string | undefined> {
	const id = context.getNode().credentials?.[CALLBACK_CREDENTIAL_TYPE]?.id;
	const entry = id ? kept.get(id) : undefined;
	if (entry && entry.until > now) return entry.secret;
	const secret = await callbackSecret(context);
	if (!id) return secret;
	for (const [key, { until }] of kept) if (until <= now) kept.delete(key);
	kept.set(id, { secret, until: now + SECRET_KEPT_MS });
	return secret;
}
