/**
 * The callback trigger in a real n8n server: published, reached over HTTP like the platform
 * does, with the executions n8n recorded checked afterwards.
 */
import { request as httpRequest } from 'node:http';

import { SECRET_KEPT_MS } from '../../nodes/AudienceMessagingTrigger/secret';
import { callbackToken, callbackUrlWithToken } from '../../src/platform/callbacks';
import {
	importCredentials,
	listExecutions,
	publishWorkflow,
	setUpOwner,
	startN8n,
} from './n8n-harness';
import type { RecordedExecution, RunningN8n } from './n8n-harness';
import {
	API_KEY,
	CALLBACKS_CREDENTIAL as CALLBACK_CREDENTIAL,
	TRIGGER_TYPE,
	callbackTriggerWorkflow,
	shippedRecipe,
	usePackageInN8n,
} from './package-setup';
import type { ShippedNode } from './package-setup';

jest.setTimeout(300_000);

const SECRET = 'e2eCallbackSecret_7c41d9a2';
const TOKEN = callbackToken(SECRET);
const WEBHOOK_ID = '5b0f9c3e-2d7a-4c61-9e8b-3a1f6d2c4b70';

const triggerWorkflow = callbackTriggerWorkflow(
	'amE2eTrigger1',
	'e2e: message callbacks',
	WEBHOOK_ID,
	CALLBACK_CREDENTIAL,
);

/** What n8n 2.x answers a version-2 trigger's body over its payload limit (docs/operations.md). */
const OVER_N8N_LIMIT = 500;
// Type version 2, which new workflows get: n8n reads and parses its body before the trigger.
const WEBHOOK_ID_V2 = '8e3c1a5f-6b2d-4f90-a7c4-1d9e2b0f3a68';
const triggerWorkflowV2 = callbackTriggerWorkflow(
	'amE2eTrigger2',
	'e2e: message callbacks, version 2',
	WEBHOOK_ID_V2,
	CALLBACK_CREDENTIAL,
	2,
);

/** Recipes 6a and 6b as shipped (demo/workflows), on this file's Callbacks credential. */
const recipe = (file: string, settings: Record<string, string> = {}) =>
	shippedRecipe(
		file,
		{
			audienceMessagingCallbackApi: { id: CALLBACK_CREDENTIAL.id, name: CALLBACK_CREDENTIAL.name },
		},
		settings,
	);
const CAMPAIGN = 'e2eSpring20';
const keeper = recipe('r6a-keep-statuses.json');
const report = recipe('r6b-campaign-report.json', { campaign: CAMPAIGN });
const keeperPath = `${keeper.nodes.find((node) => node.type === TRIGGER_TYPE)?.webhookId}/callbacks`;

const ctx = usePackageInN8n('am-e2e-trigger-', () => [
	triggerWorkflow,
	triggerWorkflowV2,
	keeper,
	report,
]);
let n8n: RunningN8n;
const webhookPath = `${WEBHOOK_ID}/callbacks`;
const callbackUrl = () => callbackUrlWithToken(`${n8n.url}/webhook/${webhookPath}`, SECRET);
const post = async (url: string, body: string, headers: Record<string, string> = {}) =>
	await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body,
	});

beforeAll(async () => {
	await importCredentials(ctx.folder, [{ ...CALLBACK_CREDENTIAL, data: { secret: SECRET } }]);
	await publishWorkflow(ctx.folder, triggerWorkflow.id);
	await publishWorkflow(ctx.folder, triggerWorkflowV2.id);
	await publishWorkflow(ctx.folder, keeper.id);
	// Debug level: even n8n's most talkative log must not hold the secret or the token.
	n8n = await startN8n(ctx.folder, {
		webhooks: [
			{ path: webhookPath, method: 'POST' },
			{ path: `${WEBHOOK_ID_V2}/callbacks`, method: 'POST' },
			{ path: keeperPath, method: 'POST' },
		],
		logLevel: 'debug',
	});
});

afterAll(async () => {
	await n8n?.stop();
});

/** A text message sent straight to the sandbox (no n8n in between): its message ID. */
async function sendText(message: Record<string, string>): Promise<string> {
	const response = await fetch(`${ctx.sandbox.baseUrl}/chatapp/messages`, {
		method: 'POST',
		headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
		body: JSON.stringify({ type: 'text', ...message }),
	});
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: { id: string } }).data.id;
}

let owner: Promise<string> | undefined;
/** The owner's session: set up once, by the first test that needs it. */
const ownerCookie = () => (owner ??= setUpOwner(n8n.url));

async function executionsSettled(
	expected: number,
	timeoutMs = 30_000,
	workflow: { id: string } = triggerWorkflow,
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = await listExecutions(ctx.folder, workflow.id);
		if (
			(executions.length >= expected &&
				executions.every((e) => e.status !== 'running' && e.status !== 'new')) ||
			Date.now() > deadline
		)
			return executions;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

it('answers a valid event 200 at once and starts one execution with the normalised event, none for the same event posted again', async () => {
	const event = {
		id: 'msg_probe',
		from: '15550100100',
		to: '+33612345678',
		externalId: 'probe1',
		campaignId: null,
		callback: 'x',
		date: '2026-11-21T21:05:24.123Z',
		status: 'SENT',
	};
	const response = await post(callbackUrl(), JSON.stringify(event));
	expect(response.status).toBe(200);
	expect(await response.json()).toEqual({ received: 1, started: 1 });
	// The platform posts it again (its first answer came late): answered, nothing started.
	const again = await post(callbackUrl(), JSON.stringify(event));
	expect({ status: again.status, body: await again.json() }).toEqual({
		status: 200,
		body: { received: 1, started: 0, repeated: 1 },
	});
	const executions = await executionsSettled(1);
	expect(executions).toHaveLength(1);
	expect(executions[0].status).toBe('success');
	expect(executions[0].nodeItems['Message Events']).toEqual([{ ...event, messageId: 'msg_probe' }]);
});

it('records one execution per status event of a message sent with the trigger URL as callback, in order', async () => {
	const sender = ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: '15550100100', accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.simulateInbound('+33612345678', sender.address);
	ctx.sandbox.seedBlacklist({
		from: sender.address,
		type: 'CHATAPP',
		to: '+33700000009',
		reason: 'UNSUBSCRIBED',
	});
	ctx.sandbox.simulateInbound('+33700000009', sender.address);
	const before = (await executionsSettled(1)).length;
	const url = callbackUrl();
	const sendMessage = (to: string, externalId: string) =>
		sendText({ from: sender.address, to, body: 'Hello', externalId, callbacks: url });

	const delivered = await sendMessage('+33612345678', 'roundtrip1');
	await ctx.sandbox.waitForCallbacks(delivered, { timeoutMs: 60_000 });
	const blocked = await sendMessage('+33700000009', 'roundtrip2');
	await ctx.sandbox.waitForCallbacks(blocked, { timeoutMs: 60_000 });
	expect(ctx.sandbox.callbackDeliveries().every((d) => d.ok && d.url === url)).toBe(true);

	const executions = (await executionsSettled(before + 7)).slice(before);
	expect(executions.every((e) => e.status === 'success')).toBe(true);
	const events = executions.map((e) => e.nodeItems['Message Events'][0]);
	expect(events.map((e) => [e.messageId, e.status])).toEqual([
		[delivered, 'QUEUE'],
		[delivered, 'DEQUEUED'],
		[delivered, 'SENT'],
		[delivered, 'DELIVERED'],
		[delivered, 'READ'],
		[blocked, 'QUEUE'],
		[blocked, 'BLACKLISTED'],
	]);
	expect(events[0]).toMatchObject({
		to: '+33612345678',
		from: '15550100100',
		externalId: 'roundtrip1',
		date: expect.stringMatching(/Z$/),
	});
});

it('refuses a wrong or missing token (401), malformed JSON (400) and an oversized body (413), starting nothing', async () => {
	const before = (await executionsSettled(1)).length;
	const plain = `${n8n.url}/webhook/${webhookPath}`;
	expect(
		(await post(`${plain}?token=not-the-right-token`, JSON.stringify({ id: 'x', status: 'SENT' })))
			.status,
	).toBe(401);
	expect(
		(await post(`${plain}?token=${SECRET}`, JSON.stringify({ id: 'x', status: 'SENT' }))).status,
	).toBe(401);
	expect((await post(plain, JSON.stringify({ id: 'x', status: 'SENT' }))).status).toBe(401);
	const malformed = await post(callbackUrl(), '{"id": "msg_1", "status": ');
	expect(malformed.status).toBe(400);
	const huge = await post(
		callbackUrl(),
		JSON.stringify({ id: 'x', status: 'SENT', padding: 'x'.repeat(400 * 1024) }),
	);
	expect(huge.status).toBe(413);
	// Refused requests start nothing. No fixed wait: a valid marker event goes last, and once its
	// execution is recorded, every execution of the requests before it would be too (n8n creates an
	// execution before the webhook answers).
	const marker = { id: 'msg_marker', to: '+33612345678', status: 'SENT' };
	expect((await post(callbackUrl(), JSON.stringify(marker))).status).toBe(200);
	const after = await executionsSettled(before + 1);
	expect(after).toHaveLength(before + 1);
	expect(
		after.filter((e) => e.nodeItems['Message Events']?.[0]?.messageId === 'msg_marker'),
	).toHaveLength(1);
});

it("type version 2 (a new workflow's): a callback starts one execution with the same item; n8n reads the body first, refusing malformed JSON (422) and a body over its 16 MB (500) itself, the trigger a wrong token (401) and a body over 256 KB (413)", async () => {
	const url = `${n8n.url}/webhook/${WEBHOOK_ID_V2}/callbacks`;
	const withToken = callbackUrlWithToken(url, SECRET);
	const event = {
		id: 'msg_v2',
		from: '15550100100',
		to: '+33612345678',
		externalId: 'v2',
		date: '2026-11-21T21:05:24.000Z',
		status: 'READ',
	};
	expect((await post(`${url}?token=not-the-right-token`, JSON.stringify(event))).status).toBe(401);
	// n8n's own parse, before the trigger's token check (as for n8n's Webhook node).
	const malformed = await post(`${url}?token=not-the-right-token`, '{"id": "msg_1", "status": ');
	expect(malformed.status).toBe(422);
	expect(await malformed.text()).toContain('Failed to parse request body');
	const huge = await post(
		withToken,
		JSON.stringify({ ...event, id: 'x', padding: 'x'.repeat(400 * 1024) }),
	);
	expect({ status: huge.status, body: await huge.json() }).toEqual({
		status: 413,
		body: { error: 'Callback body over 262144 bytes' },
	});
	// Over n8n's payload limit (16 MB): n8n's own refusal, before the trigger.
	const overN8n = await post(withToken, `{"padding": "${'x'.repeat(17 * 1024 * 1024)}"}`);
	await overN8n.arrayBuffer();
	expect(overN8n.status).toBe(OVER_N8N_LIMIT);
	const answer = await post(withToken, JSON.stringify(event));
	expect({ status: answer.status, body: await answer.json() }).toEqual({
		status: 200,
		body: { received: 1, started: 1 },
	});
	// Nothing started for the refused requests: the one execution is the event's.
	const executions = await executionsSettled(1, 30_000, triggerWorkflowV2);
	expect(executions).toHaveLength(1);
	expect(executions[0].status).toBe('success');
	expect(executions[0].nodeItems['Message Events']).toEqual([{ ...event, messageId: 'msg_v2' }]);
});

it("keeps the secret and the token out of n8n's logs (at debug level) and out of stored executions", async () => {
	const executions = await executionsSettled(1);
	expect(executions.length).toBeGreaterThan(0);
	for (const execution of executions) {
		expect(execution.stored).not.toContain(SECRET);
		expect(execution.stored).not.toContain(TOKEN);
	}
	const logs = n8n.logs();
	expect(logs).toContain(webhookPath);
	expect(logs).not.toContain(SECRET);
	expect(logs).not.toContain(TOKEN);
	expect(logs).not.toContain(API_KEY);
});

it('n8n serves both nodes with the codex aliases its nodes panel searches (blacklist, wallet, subscriber, chat app)', async () => {
	// The editor's node list is for signed-in users: set up the owner, as a new user does, and use
	// its session.
	const cookie = await ownerCookie();
	const response = await fetch(`${n8n.url}/types/nodes.json`, { headers: { cookie } });
	expect(response.status).toBe(200);
	const types = (await response.json()) as Array<{ name: string; codex?: { alias?: string[] } }>;
	const aliases = (name: string) =>
		(types.find((type) => type.name === name)?.codex?.alias ?? []).map((alias) =>
			alias.toLowerCase(),
		);
	const node = aliases('n8n-nodes-audience-messaging.audienceMessaging');
	for (const word of ['blacklist', 'wallet', 'subscriber', 'chat app', 'list', 'message'])
		expect(node).toContain(word);
	expect(aliases('n8n-nodes-audience-messaging.audienceMessagingTrigger')).toEqual(
		expect.arrayContaining(['callback', 'message status', 'chat app']),
	);
});

/**
 * A request (a POST by default) on a connection of its own, its status and text: a connection the
 * tests before left in fetch's pool may have been closed by n8n after a refusal (401 and 413 close
 * it), and a POST is not retried on another.
 */
const requestAlone = (
	url: string,
	{
		method = 'POST',
		headers = {},
		body = '',
	}: { method?: string; headers?: object; body?: string },
) =>
	new Promise<{ status: number; text: string }>((resolve, reject) => {
		const request = httpRequest(url, {
			method,
			agent: false,
			headers: { 'content-type': 'application/json', ...headers },
		});
		request.on('response', (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () =>
				resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
			);
		});
		request.on('error', reject);
		request.end(body);
	});
const postAlone = async (url: string, body: string) => (await requestAlone(url, { body })).status;

describe('Recipes 6a and 6b: a campaign report from the status events', () => {
	let cookie: string;
	/**
	 * n8n's REST API as the editor calls it, the owner logged in: the answer's `data`. On a
	 * connection of its own: the tests above leave n8n's refusals' closed connections in fetch's
	 * pool (a reused one failed with "other side closed" on a loaded machine).
	 */
	async function rest<T>(path: string, body?: object): Promise<T> {
		const { status, text } = await requestAlone(`${n8n.url}/rest${path}`, {
			method: body ? 'POST' : 'GET',
			headers: { cookie },
			body: body && JSON.stringify(body),
		});
		if (status !== 200) throw new Error(`${path}: HTTP ${status} ${text}`);
		return (JSON.parse(text) as { data: T }).data;
	}
	/** Runs a workflow from its manual trigger, as the editor's Execute button does. */
	async function execute(workflow: {
		id: string;
		nodes: ShippedNode[];
	}): Promise<RecordedExecution> {
		const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		const { executionId } = await rest<{ executionId: string }>(`/workflows/${workflow.id}/run`, {
			triggerToStartFrom: { name: trigger?.name },
		});
		const deadline = Date.now() + 60_000;
		for (;;) {
			const execution = (await listExecutions(ctx.folder, workflow.id)).find(
				(e) => e.id === String(executionId),
			);
			if (execution && !['new', 'running', 'waiting'].includes(execution.status)) return execution;
			if (Date.now() > deadline) throw new Error(`execution ${executionId} did not finish`);
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
	}

	beforeAll(async () => {
		cookie = await ownerCookie();
		// The table as docs/recipes.md says to make it (n8n's Data tables page sends this request).
		const project = await rest<{ id: string }>('/projects/personal');
		await rest(`/projects/${project.id}/data-tables`, {
			name: 'message_statuses',
			columns: [
				{ name: 'messageId', type: 'string' },
				{ name: 'campaign', type: 'string' },
				{ name: 'recipient', type: 'string' },
				{ name: 'status', type: 'string' },
				{ name: 'step', type: 'number' },
				{ name: 'statusDate', type: 'string' },
			],
		});
	});

	it("keeps one row per message with its furthest status, and the report counts the campaign's 20 messages as the sandbox posted them", async () => {
		const sender = ctx.sandbox.seedSender(
			{ providerId: 'p', name: 'Report', address: '15550100177', accountTier: 4 },
			{ active: true },
		);
		const recipients = Array.from({ length: 20 }, (_, i) => `+336123${String(45_000 + i)}`);
		for (const to of recipients) ctx.sandbox.simulateInbound(to, sender.address);
		for (const to of recipients.slice(16))
			ctx.sandbox.seedBlacklist({ from: sender.address, type: 'CHATAPP', to, reason: 'STOP' });
		const url = callbackUrlWithToken(`${n8n.url}/webhook/${keeperPath}`, SECRET);
		const send = (to: string) =>
			sendText({
				from: sender.address,
				to,
				body: 'Spring is here',
				externalId: CAMPAIGN,
				callbacks: url,
			});

		// A patient platform: the campaign's 80 events start 80 executions of Data table work at
		// once, and on a busy machine n8n answered some later than the sandbox's 5 s on every try.
		ctx.sandbox.configureChatapp({ callbackTimeoutMs: 60_000 });
		// 12 with the whole path to READ; then read receipts off: 4 stop at SENT, 4 blacklisted.
		const ids: string[] = [];
		for (const to of recipients.slice(0, 12)) ids.push(await send(to));
		ctx.sandbox.configureChatapp({ callbackStatuses: ['QUEUE', 'DEQUEUED', 'SENT'] });
		for (const to of recipients.slice(12)) ids.push(await send(to));
		for (const id of ids) await ctx.sandbox.waitForCallbacks(id, { timeoutMs: 120_000 });
		const posted = ids.map((id) => ctx.sandbox.callbackDeliveries(id).filter((d) => d.ok));
		const lastStatus = posted.map((deliveries) => deliveries[deliveries.length - 1].status);
		const expected: Record<string, number> = {};
		for (const status of lastStatus) expected[status] = (expected[status] ?? 0) + 1;
		expect(expected).toEqual({ READ: 12, SENT: 4, BLACKLISTED: 4 });
		// One execution per event, counted once however many times it was posted (the trigger
		// starts nothing for a repeat).
		const events = ids.flatMap((id) => [
			...new Set(ctx.sandbox.callbackDeliveries(id).map((d) => `${id} ${d.status}`)),
		]);
		const kept = await executionsSettled(events.length, 120_000, keeper);
		expect(kept.map((e) => e.status)).toEqual(Array(events.length).fill('success'));
		const started = kept.map((e) => e.nodeItems['Message Status Events'][0]);
		expect(started.map((e) => `${e.messageId} ${e.status}`).sort()).toEqual(events.sort());

		const execution = await execute(report);
		expect(execution.status).toBe('success');
		const counts = Object.fromEntries(
			execution.nodeItems['Count by Status'].map((item) => [item.status, item.count_messageId]),
		);
		expect(counts).toEqual(expected);
		// One row per message, each at its last status (two rows of one message: dropped once).
		const rows = execution.nodeItems["Get the Campaign's Messages"];
		const byMessage = new Map(rows.map((row) => [row.messageId, row.status]));
		expect(ids.map((id) => byMessage.get(id))).toEqual(lastStatus);
		expect(execution.nodeItems['Once per Message']).toHaveLength(20);
	});
});

it(`takes a changed secret within ${SECRET_KEPT_MS / 1000} s: the old token refused with 401 from then on, the new one taken`, async () => {
	const post = postAlone;
	const event = JSON.stringify({ id: 'msg_rotation', to: '+33612345678', status: 'SENT' });
	expect(await post(callbackUrl(), event)).toBe(200);
	const rotated = 'e2eCallbackSecret_rotated_5e2b';
	await importCredentials(ctx.folder, [{ ...CALLBACK_CREDENTIAL, data: { secret: rotated } }]);
	// From here n8n's store holds the new secret: a request begun SECRET_KEPT_MS later is refused.
	const changed = Date.now();
	const answers: Array<{ startedAfterMs: number; status: number }> = [];
	while (answers.at(-1)?.status !== 401 || answers.at(-1)!.startedAfterMs < SECRET_KEPT_MS) {
		const startedAfterMs = Date.now() - changed;
		answers.push({ startedAfterMs, status: await post(callbackUrl(), event) });
		if (startedAfterMs > SECRET_KEPT_MS + 60_000) break;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	expect(answers.filter((a) => a.startedAfterMs >= SECRET_KEPT_MS)).toEqual([
		{ startedAfterMs: expect.any(Number), status: 401 },
	]);
	expect(answers.every((a) => a.status === 200 || a.status === 401)).toBe(true);
	const renewed = callbackUrlWithToken(`${n8n.url}/webhook/${webhookPath}`, rotated);
	expect(await post(renewed, event)).toBe(200);
	expect(n8n.logs()).not.toContain(rotated);
});
