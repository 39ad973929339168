import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { AudienceMessagingApi } from '../../credentials/AudienceMessagingApi.credentials';
import { AudienceMessaging } from '../../nodes/AudienceMessaging/AudienceMessaging.node';
import { runNode } from '../helpers/n8n';
import type { HarnessCredentials, RunNodeResult } from '../helpers/n8n';
import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';

export const API_KEY = 'node-test-key-7f3a9c';

/** The node under test, a sandbox on loopback, and a credential pointing at it. */
export function useSandbox(options: { csvMaxBytes?: number } = {}) {
	const context = {} as { sandbox: Sandbox; credentials: HarnessCredentials };
	beforeAll(async () => {
		context.sandbox = await startSandbox({ apiKey: API_KEY, ...options });
		context.credentials = credentialsFor(context.sandbox, API_KEY);
	});
	beforeEach(() => context.sandbox.reset());
	afterAll(async () => await context.sandbox.close());
	return context;
}

export function credentialsFor(sandbox: Sandbox, apiKey: string): HarnessCredentials {
	return {
		type: 'audienceMessagingApi',
		credentialType: new AudienceMessagingApi(),
		data: {
			apiKey,
			listsBaseUrl: sandbox.listsBaseUrl,
			walletBaseUrl: sandbox.walletBaseUrl,
			baseUrl: sandbox.baseUrl,
		},
	};
}

export const node = new AudienceMessaging();

export async function run(
	credentials: HarnessCredentials,
	parameters: INodeParameters,
	items?: INodeExecutionData[],
	continueOnFail = false,
): Promise<RunNodeResult> {
	return await runNode({ nodeType: node, parameters, credentials, items, continueOnFail });
}

/** The single output branch of a successful run; fails the test with the node's error otherwise. */
export function outputOf(result: RunNodeResult): INodeExecutionData[] {
	if (result.error) throw result.error;
	if (!result.output) throw new Error('the node produced no output');
	return result.output[0];
}

export const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

/** Nothing the node produced (items or error) may contain the API key. */
export function expectNoKey(result: RunNodeResult): void {
	const error = result.error as (Error & { description?: string }) | undefined;
	const text = JSON.stringify({
		output: result.output,
		error: error && {
			...error,
			message: error.message,
			description: error.description,
			stack: error.stack,
		},
	});
	expect(text).not.toContain(API_KEY);
}

/** Message › Send of a text from the sender +1 555 010 0100 to +33 6 12 34 56 78. */
export const textMessage = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'message',
	operation: 'send',
	messageType: 'text',
	from: '+1 555 010 0100',
	to: '+33 6 12 34 56 78',
	text: 'Hello',
	...extra,
});

/**
 * An ACTIVE sender +15550100100 with an open conversation window to +33612345678, so textMessage()
 * is accepted.
 */
export function openConversation(sandbox: Sandbox): void {
	sandbox.seedSender(
		{ providerId: 'prov-1', name: 'ACME', address: '+15550100100', accountTier: 1 },
		{ active: true },
	);
	sandbox.simulateInbound('+33612345678', '15550100100');
}
