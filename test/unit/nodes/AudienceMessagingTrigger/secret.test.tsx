import type { IWebhookFunctions } from 'n8n-workflow';

import {
	SECRET_KEPT_MS,
	keptCallbackSecret,
} from '../../../../nodes/AudienceMessagingTrigger/secret';

/** A webhook context whose credential store holds `store.secret`, counting its reads. */
function contextFor(credentialId: string | undefined, store: { secret: string; reads: number }) {
	return {
		getNode: () => ({
			name: 'Trigger',
			credentials: credentialId
				? { audienceMessagingCallbackApi: { id: credentialId, name: 'callbacks' } }
				: {},
		}),
		getCredentials: async () => {
			store.reads++;
			return { secret: store.secret };
		},
	} as unknown as IWebhookFunctions;
}

it(`reads a credential once in ${SECRET_KEPT_MS / 1000} s; a changed secret takes effect after that, not before`, async () => {
	const store = { secret: 'firstSecret_0123456789', reads: 0 };
	const context = contextFor('credKept1', store);
	expect(await keptCallbackSecret(context, 1_000)).toBe('firstSecret_0123456789');
	store.secret = 'secondSecret_0123456789';
	expect(await keptCallbackSecret(context, 1_000 + SECRET_KEPT_MS - 1)).toBe(
		'firstSecret_0123456789',
	);
	expect(store.reads).toBe(1);
	expect(await keptCallbackSecret(context, 1_000 + SECRET_KEPT_MS)).toBe('secondSecret_0123456789');
	expect(store.reads).toBe(2);
});

it('keeps each credential apart, and reads every time when the node names no credential id', async () => {
	const a = { secret: 'secretOfA_0123456789', reads: 0 };
	const b = { secret: 'secretOfB_0123456789', reads: 0 };
	expect(await keptCallbackSecret(contextFor('credKeptA', a), 5)).toBe(a.secret);
	expect(await keptCallbackSecret(contextFor('credKeptB', b), 5)).toBe(b.secret);
	const unnamed = { secret: 'secretUnnamed_0123456789', reads: 0 };
	await keptCallbackSecret(contextFor(undefined, unnamed), 5);
	await keptCallbackSecret(contextFor(undefined, unnamed), 5);
	expect([a.reads, b.reads, unnamed.reads]).toEqual([1, 1, 2]);
});

it('keeps a secret that breaks the rule as unusable for the same time (the trigger answers 401)', async () => {
	const store = { secret: 'short', reads: 0 };
	const context = contextFor('credKeptShort', store);
	expect(await keptCallbackSecret(context, 10)).toBeUndefined();
	store.secret = 'nowLongEnough_0123456789';
	expect(await keptCallbackSecret(context, 10 + SECRET_KEPT_MS - 1)).toBeUndefined();
	expect(await keptCallbackSecret(context, 10 + SECRET_KEPT_MS)).toBe('nowLongEnough_0123456789');
});
