/**
 * The compatibility smoke test: the packed package installed as a community package into the
 * selected n8n (`N8N_VERSION`, default the pinned one; `npm run test:matrix` runs it on every
 * version of test/n8n-runtime/versions/), one workflow per resource run by the n8n CLI against the
 * sandbox, then the trigger round trip in a running n8n: a Webhook workflow sends a message with
 * "Send Status Events to a Trigger", the platform calls the published trigger back, and n8n records
 * one execution per status event.
 */
import { callbackToken } from '../../src/platform/callbacks';
import { DEFAULT_CALLBACK_STATUSES } from '../sandbox';
import {
	executeBatch,
	freePort,
	getRuntime,
	importCredentials,
	importWorkflows,
	listExecutions,
	nodeItems,
	publishWorkflow,
	runN8n,
	startN8n,
} from './n8n-harness';
import type { BatchResult, RecordedExecution, RunningN8n } from './n8n-harness';
import {
	API_KEY,
	CREDENTIAL,
	CALLBACKS_CREDENTIAL as CALLBACK_CREDENTIAL,
	audienceNode as audience,
	callbackTriggerWorkflow,
	chain,
	codeNode as code,
	manualTrigger as trigger,
	nodeAt,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(300_000);

const runtime = getRuntime();
const SENDER = '+1 555 010 0100';
const SENDER_DIGITS = '15550100100';
const USER = '+33612345678';
const byId = (value: string | number) => ({ __rl: true, mode: 'id', value: String(value) });

// ------------------------------------------------------------------ one workflow per resource

const listWorkflow = {
	id: 'amSmokeList01',
	name: 'smoke: list',
	nodes: [
		trigger,
		audience('Create List', 1, {
			resource: 'list',
			operation: 'create',
			name: 'Smoke List',
			columns: { column: [{ name: 'email', type: 'STRING', unique: true, required: true }] },
			rows: '[]',
		}),
		audience('Get List', 2, {
			resource: 'list',
			operation: 'get',
			listId: byId("={{ $('Create List').first().json.id }}"),
		}),
		audience('Delete List', 3, {
			resource: 'list',
			operation: 'delete',
			listId: byId("={{ $('Create List').first().json.id }}"),
		}),
	],
	connections: chain('Start', 'Create List', 'Get List', 'Delete List'),
};

/**
 * On a list seeded with one member (its id set before the import): add three (one already there),
 * read all, delete one.
 */
const subscriberWorkflow = (listId: number) => ({
	id: 'amSmokeSubscr01',
	name: 'smoke: subscriber',
	nodes: [
		trigger,
		code(
			'Members',
			1,
			"return ['ada', 'alan', 'seed'].map((name) => ({ json: { email: `${name}@example.com` } }));",
		),
		audience('Add Members', 2, {
			resource: 'subscriber',
			operation: 'addMany',
			listId: byId(listId),
			source: 'items',
			options: { batchSize: 2 },
		}),
		audience(
			'Get Members',
			3,
			{ resource: 'subscriber', operation: 'getMany', listId: byId(listId), returnAll: true },
			{ executeOnce: true },
		),
		audience(
			'Delete Seed',
			4,
			{
				resource: 'subscriber',
				operation: 'delete',
				listId: byId(listId),
				subscriberId: 'sub-seed',
			},
			{ executeOnce: true },
		),
	],
	connections: chain('Start', 'Members', 'Add Members', 'Get Members', 'Delete Seed'),
});

const walletTemplateWorkflow = {
	id: 'amSmokeWTpl01',
	name: 'smoke: wallet template',
	nodes: [
		trigger,
		audience('Templates', 1, {
			resource: 'walletTemplate',
			operation: 'getMany',
			returnAll: true,
			sort: { rule: [{ field: 'name', direction: 'descending' }] },
			select: ['serial', 'name'],
		}),
	],
	connections: chain('Start', 'Templates'),
};

const walletPassWorkflow = {
	id: 'amSmokeWPass01',
	name: 'smoke: wallet pass',
	nodes: [
		trigger,
		code(
			'Members',
			1,
			"return ['ada', 'grace'].map((name) => ({ json: { email: `${name}@example.com`, name } }));",
		),
		audience('Create Passes', 2, {
			resource: 'walletPass',
			operation: 'create',
			templateSerial: byId('tpl-gold-member'),
			recipientId: '={{ $json.email }}',
			fields: { field: [{ place: 'BACK', label: 'Member', value: '={{ $json.name }}' }] },
		}),
	],
	connections: chain('Start', 'Members', 'Create Passes'),
};

const senderWorkflow = {
	id: 'amSmokeSender01',
	name: 'smoke: sender',
	nodes: [
		trigger,
		audience('Create Sender', 1, {
			resource: 'sender',
			operation: 'create',
			providerId: 'prov-smoke',
			name: 'Smoke',
			address: '+1 555 010 0200',
			accountTier: 1,
		}),
		audience('Get Sender', 2, {
			resource: 'sender',
			operation: 'get',
			senderId: "={{ $('Create Sender').first().json.id }}",
		}),
	],
	connections: chain('Start', 'Create Sender', 'Get Sender'),
};

const messageTemplateWorkflow = (senderId: string) => ({
	id: 'amSmokeMTpl01',
	name: 'smoke: message template',
	nodes: [
		trigger,
		audience('Message Templates', 1, {
			resource: 'messageTemplate',
			operation: 'getMany',
			senderId,
			returnAll: true,
		}),
	],
	connections: chain('Start', 'Message Templates'),
});

const messageWorkflow = {
	id: 'amSmokeMessage01',
	name: 'smoke: message',
	nodes: [
		trigger,
		audience('Send Text', 1, {
			resource: 'message',
			operation: 'send',
			messageType: 'text',
			from: SENDER,
			to: USER,
			text: 'Smoke: your order has shipped',
			options: { externalId: 'smokeText' },
		}),
		audience('Send Location', 2, {
			resource: 'message',
			operation: 'send',
			messageType: 'location',
			from: SENDER,
			to: USER,
			latitude: 48.8584,
			longitude: 2.2945,
			locationName: 'Smoke Store',
			locationAddress: '5 Av. Anatole France, Paris',
		}),
	],
	connections: chain('Start', 'Send Text', 'Send Location'),
};

const blacklistWorkflow = {
	id: 'amSmokeBlack01',
	name: 'smoke: blacklist',
	nodes: [
		trigger,
		audience('Unsubscribe', 1, {
			resource: 'blacklist',
			operation: 'add',
			channel: 'SMS',
			from: 'ACME',
			to: '+33 6 99 88 77 66',
		}),
		code(
			'Recipients',
			2,
			"return [{ json: { to: '+33699887766' } }, { json: { to: '+33611111111' } }];",
		),
		audience('Check', 3, {
			resource: 'blacklist',
			operation: 'check',
			channel: 'SMS',
			from: 'ACME',
			to: '={{ $json.to }}',
		}),
	],
	connections: chain('Start', 'Unsubscribe', 'Recipients', 'Check'),
};

// ------------------------------------------------------------------ the trigger round trip

const CALLBACK_SECRET = 'smokeCallbackSecret_4b9e27c1';
const TRIGGER_WEBHOOK_ID = '0c6f3a52-8e1d-4b7a-9f20-5d4c3b2a1e90';
const triggerPath = `${TRIGGER_WEBHOOK_ID}/callbacks`;
const triggerWorkflow = callbackTriggerWorkflow(
	'amSmokeTrigger01',
	'smoke: message callbacks',
	TRIGGER_WEBHOOK_ID,
	CALLBACK_CREDENTIAL,
);
const SEND_HOOK_PATH = 'smoke-send';

/**
 * POST /webhook/smoke-send {to, text} → Message › Send with the trigger's URL as callback; answers
 * with the Send node's item.
 */
const sendHookWorkflow = (n8nUrl: string) => ({
	id: 'amSmokeSendHook01',
	name: 'smoke: send with callbacks to the trigger',
	nodes: [
		{
			id: 'hook',
			name: 'Order Shipped',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: nodeAt(0),
			webhookId: '7a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
			parameters: {
				httpMethod: 'POST',
				path: SEND_HOOK_PATH,
				responseMode: 'lastNode',
				options: {},
			},
		},
		audience(
			'Send',
			1,
			{
				resource: 'message',
				operation: 'send',
				messageType: 'text',
				from: SENDER,
				to: '={{ $json.body.to }}',
				text: '={{ $json.body.text }}',
				sendToTrigger: true,
				triggerUrl: `${n8nUrl}/webhook/${triggerPath}`,
				options: { externalId: 'smokeRoundtrip' },
			},
			{
				credentials: {
					...CREDENTIAL,
					audienceMessagingCallbackApi: {
						id: CALLBACK_CREDENTIAL.id,
						name: CALLBACK_CREDENTIAL.name,
					},
				},
			},
		),
	],
	connections: chain('Order Shipped', 'Send'),
});

// ------------------------------------------------------------------ set-up

let seededListId = 0;
let activeSenderId = '';

const ctx = usePackageInN8n('am-smoke-', () => {
	// State the workflows refer to, seeded before they are imported.
	const list = ctx.sandbox.seedList({
		name: 'Smoke Members',
		columns: [{ name: 'email', type: 'STRING', unique: true, required: true }],
		rows: [{ id: 'sub-seed', email: 'seed@example.com' }],
	});
	seededListId = list.id;
	const sender = ctx.sandbox.seedSender(
		{ providerId: 'prov-smoke', name: 'ACME', address: SENDER_DIGITS, accountTier: 1 },
		{ active: true },
	);
	activeSenderId = sender.id;
	ctx.sandbox.seedMessageTemplate({
		name: 'order_shipped',
		category: 'Shipping Update',
		language: 'en',
		body: 'Your order {{ORDER}} has shipped',
		senderId: sender.id,
	});
	ctx.sandbox.seedMessageTemplate({
		name: 'appointment_reminder',
		category: 'Appointment Update',
		language: 'fr',
		body: 'Rendez-vous {{DATE}}',
		senderId: sender.id,
	});
	ctx.sandbox.simulateInbound(USER, SENDER_DIGITS);
	return [
		listWorkflow,
		subscriberWorkflow(list.id),
		walletTemplateWorkflow,
		walletPassWorkflow,
		senderWorkflow,
		messageTemplateWorkflow(sender.id),
		messageWorkflow,
		blacklistWorkflow,
	];
});

const requestsTo = (pathPrefix: string) =>
	ctx.sandbox.requests.filter((r) => r.path.startsWith(pathPrefix));

describe(`n8n ${runtime.version}: one workflow per resource (n8n execute-batch)`, () => {
	let results: Record<string, BatchResult>;
	const ok = (id: string) => {
		const result = results[id];
		expect({ id, status: result.status, error: result.error }).toEqual({
			id,
			status: 'success',
			error: undefined,
		});
		return result.runData!;
	};

	beforeAll(async () => {
		ctx.sandbox.clearRequests();
		results = await executeBatch(ctx.folder, [
			listWorkflow.id,
			'amSmokeSubscr01',
			walletTemplateWorkflow.id,
			walletPassWorkflow.id,
			senderWorkflow.id,
			'amSmokeMTpl01',
			messageWorkflow.id,
			blacklistWorkflow.id,
		]);
	});

	it('runs the selected n8n, with the package installed from the packed tarball', async () => {
		const version = await runN8n(ctx.folder, ['--version']);
		expect(version.stdout.trim().split('\n').pop()).toBe(runtime.version);
		expect(ctx.installed.name).toBe('n8n-nodes-audience-messaging');
		expect(ctx.installed.dir).toContain(
			`${ctx.folder.nodesDir}/node_modules/n8n-nodes-audience-messaging`,
		);
	});

	it('List: creates, gets and deletes a list', () => {
		const runData = ok(listWorkflow.id);
		const [created] = nodeItems(runData, 'Create List');
		expect(created.json).toMatchObject({ name: 'Smoke List', status: 'OK' });
		expect(nodeItems(runData, 'Get List')[0].json).toMatchObject({
			id: created.json.id,
			name: 'Smoke List',
		});
		expect(nodeItems(runData, 'Delete List')[0].json).toMatchObject({
			listId: String(created.json.id),
			deleted: true,
		});
		expect(ctx.sandbox.getList(Number(created.json.id))).toBeUndefined();
		const calls = requestsTo('/audience/v3/lists').filter(
			(r) => !r.path.includes('/subscribers') && r.path !== `/audience/v3/lists/${seededListId}`,
		);
		expect(calls.map((r) => r.method)).toEqual(['POST', 'GET', 'DELETE']);
		expect(calls[0].body).toMatchObject({ name: 'Smoke List' });
		expect(calls.every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
	});

	it('Subscriber: adds members in batches (a duplicate fails on its own), reads them all, deletes one', () => {
		const runData = ok('amSmokeSubscr01');
		const added = nodeItems(runData, 'Add Members');
		expect(added.map((i) => [i.json.status, (i.pairedItem as { item: number }).item])).toEqual([
			['added', 0],
			['added', 1],
			['failed', 2],
		]);
		expect(added[2].json.error).toMatchObject({ column: 'email', code: 'UNIQUE_VALUE_DUPLICATED' });
		expect(nodeItems(runData, 'Get Members').map((i) => i.json.email)).toEqual([
			'seed@example.com',
			'ada@example.com',
			'alan@example.com',
		]);
		expect(nodeItems(runData, 'Delete Seed')[0].json).toMatchObject({
			listId: String(seededListId),
			subscriberId: 'sub-seed',
			deleted: true,
		});
		expect(ctx.sandbox.listSubscribers(seededListId)?.map((s) => s.email)).toEqual([
			'ada@example.com',
			'alan@example.com',
		]);
		const bulk = requestsTo(`/audience/v3/lists/${seededListId}/subscribers/bulk`);
		expect(bulk.map((r) => (r.body as unknown[]).length)).toEqual([2, 1]);
	});

	it('Wallet Template: lists the templates sorted and reduced to the selected fields', () => {
		const runData = ok(walletTemplateWorkflow.id);
		expect(nodeItems(runData, 'Templates').map((i) => i.json)).toEqual([
			{ serial: 'tpl-silver-member', name: 'Silver member card' },
			{ serial: 'tpl-gold-member', name: 'Gold member card' },
			{ serial: 'tpl-classic-member', name: 'Classic member card' },
		]);
		expect(
			requestsTo('/wallet/v2/wallet/templates').filter((r) => r.method === 'GET').length,
		).toBeGreaterThanOrEqual(1);
	});

	it('Wallet Pass: creates one pass per item with its fields, in one batch request', () => {
		const runData = ok(walletPassWorkflow.id);
		const passes = nodeItems(runData, 'Create Passes');
		expect(
			passes.map((i) => [i.json.recipientId, (i.pairedItem as { item: number }).item]),
		).toEqual([
			['ada@example.com', 0],
			['grace@example.com', 1],
		]);
		expect(passes[0].json.url).toBe(
			`${ctx.sandbox.walletBaseUrl}/v2/wallet/templates/tpl-gold-member/passes/ada%40example.com/download`,
		);
		const batches = requestsTo('/wallet/v2/wallet/templates/tpl-gold-member/passes/batch');
		expect(batches.map((r) => (r.body as { items: unknown[] }).items.length)).toEqual([2]);
		expect(
			ctx.sandbox.walletPasses('tpl-gold-member').map((p) => [p.recipientId, p.fields]),
		).toEqual([
			['ada@example.com', [{ place: 'BACK', label: 'Member', fixed: false, value: 'ada' }]],
			['grace@example.com', [{ place: 'BACK', label: 'Member', fixed: false, value: 'grace' }]],
		]);
	});

	it('Sender: creates a sender (pending until approved) and gets it', () => {
		const runData = ok(senderWorkflow.id);
		const [created] = nodeItems(runData, 'Create Sender');
		expect(created.json).toMatchObject({
			state: 'PENDING_IMPLEMENTATION',
			address: '15550100200',
			name: 'Smoke',
		});
		expect(nodeItems(runData, 'Get Sender')[0].json).toMatchObject({
			id: created.json.id,
			state: 'PENDING_IMPLEMENTATION',
		});
		expect(requestsTo('/messaging/chatapp/senders').map((r) => `${r.method} ${r.path}`)).toEqual([
			'POST /messaging/chatapp/senders',
			`GET /messaging/chatapp/senders/${String(created.json.id)}`,
		]);
	});

	it("Message Template: lists the sender's templates", () => {
		const runData = ok('amSmokeMTpl01');
		expect(
			nodeItems(runData, 'Message Templates').map((i) => [
				i.json.name,
				i.json.category,
				i.json.senderId,
			]),
		).toEqual([
			['order_shipped', 'Shipping Update', activeSenderId],
			['appointment_reminder', 'Appointment Update', activeSenderId],
		]);
		expect(requestsTo('/messaging/chatapp/templates').map((r) => r.query)).toEqual([
			{ senderId: activeSenderId },
		]);
	});

	it('Message: sends a text and a location message', () => {
		const runData = ok(messageWorkflow.id);
		expect(nodeItems(runData, 'Send Text')[0].json).toMatchObject({
			status: 'QUEUE',
			type: 'text',
			from: SENDER_DIGITS,
			to: USER,
			externalId: 'smokeText',
		});
		expect(nodeItems(runData, 'Send Location')[0].json).toMatchObject({
			status: 'QUEUE',
			type: 'location',
			from: SENDER_DIGITS,
			to: USER,
		});
		const bodies = requestsTo('/messaging/chatapp/messages').map(
			(r) => r.body as Record<string, unknown>,
		);
		expect(bodies.map((b) => b.type)).toEqual(['text', 'location']);
		expect(bodies[0]).toMatchObject({ from: SENDER_DIGITS, to: USER, externalId: 'smokeText' });
		expect(bodies[1].location).toMatchObject({
			latitude: 48.8584,
			longitude: 2.2945,
			name: 'Smoke Store',
		});
	});

	it('Blacklist: adds a recipient, then checks it and a clean one', () => {
		const runData = ok(blacklistWorkflow.id);
		expect(nodeItems(runData, 'Unsubscribe')[0].json).toMatchObject({
			to: '+33699887766',
			reason: 'UNSUBSCRIBED',
		});
		expect(nodeItems(runData, 'Check').map((i) => [i.json.to, i.json.blacklisted])).toEqual([
			['+33699887766', true],
			['+33611111111', false],
		]);
		expect(ctx.sandbox.isBlacklisted('ACME', 'SMS', '+33699887766')).toBe(true);
	});

	it('keeps the API key out of every run', () => {
		expect(JSON.stringify(results)).not.toContain(API_KEY);
	});
});

describe(`n8n ${runtime.version}: the trigger round trip (n8n start)`, () => {
	let n8n: RunningN8n;

	beforeAll(async () => {
		const port = await freePort();
		await importCredentials(ctx.folder, [
			{ ...CALLBACK_CREDENTIAL, data: { secret: CALLBACK_SECRET } },
		]);
		await importWorkflows(ctx.folder, [
			triggerWorkflow,
			sendHookWorkflow(`http://127.0.0.1:${port}`),
		]);
		await publishWorkflow(ctx.folder, triggerWorkflow.id);
		await publishWorkflow(ctx.folder, 'amSmokeSendHook01');
		n8n = await startN8n(ctx.folder, {
			port,
			webhooks: [
				{ path: triggerPath, method: 'POST' },
				{ path: SEND_HOOK_PATH, method: 'POST' },
			],
		});
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	/** The trigger's executions once at least `count` are recorded and none is still running. */
	async function triggerExecutions(
		count: number,
		timeoutMs = 60_000,
	): Promise<RecordedExecution[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const executions = await listExecutions(ctx.folder, triggerWorkflow.id);
			if (
				executions.length >= count &&
				executions.every((e) => e.status !== 'running' && e.status !== 'new')
			)
				return executions;
			if (Date.now() > deadline)
				throw new Error(
					`${executions.length} of ${count} trigger executions recorded (${executions.map((e) => e.status).join(', ')}). n8n output:\n${n8n.logs()}`,
				);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	it('a webhook workflow sends a message whose status events reach the published trigger, one recorded execution each', async () => {
		ctx.sandbox.clearRequests();
		const response = await fetch(`${n8n.url}/webhook/${SEND_HOOK_PATH}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ to: USER, text: 'Smoke: round trip' }),
		});
		const answer = (await response.json()) as Record<string, unknown>;
		expect({ status: response.status, answer }).toMatchObject({
			status: 200,
			answer: { status: 'QUEUE', type: 'text', to: USER, externalId: 'smokeRoundtrip' },
		});
		const messageId = String(answer.id);

		// What reached the platform: the message, with the trigger's URL and the token (never the
		// secret) as its callback.
		const [sent] = requestsTo('/messaging/chatapp/messages');
		expect(sent.body).toMatchObject({
			to: USER,
			externalId: 'smokeRoundtrip',
			callbacks: `${n8n.url}/webhook/${triggerPath}?token=${callbackToken(CALLBACK_SECRET)}`,
		});
		expect(JSON.stringify(ctx.sandbox.requests)).not.toContain(CALLBACK_SECRET);

		const deliveries = await ctx.sandbox.waitForCallbacks(messageId, { timeoutMs: 60_000 });
		expect(deliveries.map((d) => [d.status, d.ok, d.httpStatus])).toEqual(
			DEFAULT_CALLBACK_STATUSES.map((status) => [status, true, 200]),
		);

		const executions = await triggerExecutions(DEFAULT_CALLBACK_STATUSES.length);
		expect(executions.map((e) => e.status)).toEqual(DEFAULT_CALLBACK_STATUSES.map(() => 'success'));
		const events = executions.map((e) => e.nodeItems['Message Events']?.[0]);
		expect(events.map((e) => [e?.messageId, e?.status])).toEqual(
			DEFAULT_CALLBACK_STATUSES.map((status) => [messageId, status]),
		);
		expect(events[0]).toMatchObject({
			to: USER,
			from: SENDER_DIGITS,
			externalId: 'smokeRoundtrip',
		});

		const sends = await listExecutions(ctx.folder, 'amSmokeSendHook01');
		expect(sends.map((e) => [e.status, e.mode])).toEqual([['success', 'webhook']]);
		for (const execution of [...executions, ...sends])
			expect(execution.stored).not.toContain(CALLBACK_SECRET);
	});
});
