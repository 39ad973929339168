import type { IDataObject } from 'n8n-workflow';

import { AudienceMessagingCallbackApi } from '../../credentials/AudienceMessagingCallbackApi.credentials';
import { callbackToken } from '../../src/platform/callbacks';
import { runNode } from '../helpers/n8n';
import type { HarnessCredentials } from '../helpers/n8n';
import { API_KEY, node, openConversation, outputOf, textMessage, useSandbox } from './context';

/**
 * Message › Send with "Send Status Events to a Trigger": the callback URL sent to the platform
 * is the trigger's URL plus the token derived from the Callbacks credential; the secret itself
 * goes nowhere.
 */
const ctx = useSandbox();
const SECRET = 'node-test-callback-secret-1234';
const TRIGGER_URL = 'https://n8n.example.com/webhook/5b0f9c3e/callbacks';
const callbacksCredential = (secret: string): HarnessCredentials => ({
	type: 'audienceMessagingCallbackApi',
	credentialType: new AudienceMessagingCallbackApi(),
	data: { secret },
});

const parameters = (extra: Record<string, unknown> = {}) =>
	textMessage({ sendToTrigger: true, triggerUrl: TRIGGER_URL, ...extra });

beforeEach(() => openConversation(ctx.sandbox));

it('sends the trigger URL with the derived token, beside the other Callback URLs, and never the secret', async () => {
	const result = await runNode({
		nodeType: node,
		parameters: parameters({ options: { callbacks: 'https://hooks.example.com/a' } }),
		credentials: ctx.credentials,
		extraCredentials: [callbacksCredential(SECRET)],
		items: [{ json: {} }, { json: {} }],
	});
	const output = outputOf(result);
	expect(output).toHaveLength(2);
	const bodies = ctx.sandbox.requests.map((request) => request.body as { callbacks: string });
	expect(bodies.map((body) => body.callbacks)).toEqual(
		[0, 1].map(() => `https://hooks.example.com/a,${TRIGGER_URL}?token=${callbackToken(SECRET)}`),
	);
	expect(JSON.stringify({ requests: ctx.sandbox.requests, output })).not.toContain(SECRET);
});

it('sends no callback to the trigger at No, Only Share Pace Through It (the trigger is there for the turns), and the Callback URLs still', async () => {
	const result = await runNode({
		nodeType: node,
		parameters: parameters({
			sendToTrigger: 'paceOnly',
			options: { callbacks: 'https://hooks.example.com/a' },
		}),
		credentials: ctx.credentials,
		extraCredentials: [callbacksCredential(SECRET)],
	});
	expect(outputOf(result)).toHaveLength(1);
	expect(ctx.sandbox.requests.map((request) => (request.body as IDataObject).callbacks)).toEqual([
		'https://hooks.example.com/a',
	]);
});

it('refuses a value set by an expression that is none of its choices, before any request', async () => {
	const result = await runNode({
		nodeType: node,
		parameters: parameters({ sendToTrigger: '={{ "sometimes" }}' }),
		credentials: ctx.credentials,
		extraCredentials: [callbacksCredential(SECRET)],
	});
	expect(result.error?.message).toContain('Invalid "Send Status Events to a Trigger" in item 0');
	expect(ctx.sandbox.requests).toHaveLength(0);
});

it('refuses a Callbacks credential whose secret breaks the rule, before any request', async () => {
	const result = await runNode({
		nodeType: node,
		parameters: parameters(),
		credentials: ctx.credentials,
		extraCredentials: [callbacksCredential('short')],
	});
	expect(result.error?.message).toBe(
		'Invalid "Send Status Events to a Trigger" in item 0: the Callbacks credential\'s secret must be 16 to 128 letters, digits, - or _',
	);
	expect(ctx.sandbox.requests).toHaveLength(0);
});

it('refuses a trigger URL that is not http(s), before any request', async () => {
	const result = await runNode({
		nodeType: node,
		parameters: parameters({ triggerUrl: 'ftp://n8n.example.com/x' }),
		credentials: ctx.credentials,
		extraCredentials: [callbacksCredential(SECRET)],
	});
	expect(result.error?.message).toBe(
		'Invalid "Trigger Production URL" in item 0: "ftp://n8n.example.com/x" must start with http:// or https://',
	);
	expect(ctx.sandbox.requests).toHaveLength(0);
});

describe("the trigger's Test URL is refused where its Production URL is needed", () => {
	it.each([
		'https://n8n.example.com/webhook-test/5b0f9c3e/callbacks',
		'https://example.com/n8n/webhook-test/5b0f9c3e/callbacks',
		'http://localhost:5678/WEBHOOK-TEST/5b0f9c3e/callbacks?x=1',
	])('%s, before any request', async (triggerUrl) => {
		const result = await runNode({
			nodeType: node,
			parameters: parameters({ triggerUrl }),
			credentials: ctx.credentials,
			extraCredentials: [callbacksCredential(SECRET)],
			items: [{ json: {} }, { json: {} }],
		});
		expect(result.error?.message).toBe(
			`Invalid "Trigger Production URL" in item 0: "${triggerUrl}" is the trigger's Test URL (/webhook-test/…), which answers only while the editor listens for a test event; ` +
				"copy the trigger's Production URL (/webhook/…) and activate the trigger's workflow",
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('a Production URL whose own path holds "webhook-test" is accepted', async () => {
		const triggerUrl = 'https://n8n.example.com/webhook/5b0f9c3e/webhook-test/callbacks';
		outputOf(
			await runNode({
				nodeType: node,
				parameters: parameters({ triggerUrl }),
				credentials: ctx.credentials,
				extraCredentials: [callbacksCredential(SECRET)],
			}),
		);
		expect((ctx.sandbox.requests[0].body as { callbacks: string }).callbacks).toBe(
			`${triggerUrl}?token=${callbackToken(SECRET)}`,
		);
	});
});

describe('the callback token stays out of the output', () => {
	const TOKEN = callbackToken(SECRET);
	const send = async (options: Record<string, unknown>) =>
		await runNode({
			nodeType: node,
			parameters: parameters({ options: { callbacks: 'https://hooks.example.com/a', ...options } }),
			credentials: ctx.credentials,
			extraCredentials: [callbacksCredential(SECRET)],
			items: [{ json: {} }, { json: {} }],
		});

	it('a preview shows the callback URL with token=*** and sends no message', async () => {
		const output = outputOf(await send({ preview: true }));
		expect(output.map((item) => (item.json.request as IDataObject).body)).toEqual(
			[0, 1].map(() =>
				expect.objectContaining({
					callbacks: `https://hooks.example.com/a,${TRIGGER_URL}?token=***`,
				}),
			),
		);
		expect(JSON.stringify(output)).not.toContain(TOKEN);
		expect(ctx.sandbox.requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
	});

	it('a live send sends the token to the platform, and its output does not hold it', async () => {
		const output = outputOf(await send({}));
		expect(output.map((item) => item.json.status)).toEqual(['QUEUE', 'QUEUE']);
		expect(JSON.stringify(output)).not.toContain(TOKEN);
		expect(ctx.sandbox.requests.map((request) => request.body)).toEqual(
			[0, 1].map(() =>
				expect.objectContaining({
					callbacks: `https://hooks.example.com/a,${TRIGGER_URL}?token=${TOKEN}`,
				}),
			),
		);
	});

	// Issue 75: the answer is redacted as an error is, whatever the platform puts into it.
	it('a 200 echoing the callback URL with its token and the Authorization header puts neither into the output', async () => {
		ctx.sandbox.addFault({
			kind: 'status',
			path: '/chatapp/messages',
			status: 200,
			body: {
				data: {
					id: 'msg_echo',
					status: 'QUEUE',
					callbacks: `https://hooks.example.com/a,${TRIGGER_URL}?token=${TOKEN}`,
					request: { headers: { Authorization: `Bearer ${API_KEY}` }, key: API_KEY },
				},
			},
		});
		const output = outputOf(await send({}));
		expect(output.map((item) => [item.json.id, item.json.callbacks, item.json.request])).toEqual(
			[0, 1].map(() => [
				'msg_echo',
				`https://hooks.example.com/a,${TRIGGER_URL}?token=***`,
				{ headers: { Authorization: 'Bearer ***' }, key: '***' },
			]),
		);
		expect(JSON.stringify(output)).not.toContain(TOKEN);
		expect(JSON.stringify(output)).not.toContain(API_KEY);
	});
});
