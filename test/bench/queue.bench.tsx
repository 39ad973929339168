/**
 * Message › Send in n8n's queue mode (printed, not asserted): main + two workers + one webhook
 * process on their own Redis and PostgreSQL (test/e2e/queue-harness.tsx), the packed package
 * installed as a community package. Four executions start at once, each sending its own
 * messages from ONE sender whose platform limit is R per second, against a sandbox LATENCY_MS away:
 *
 * - each execution paced at the sender's rateLimit (Sender ID for Rate Limit: what a user sets
 *   for one run), so together they ask for 4 × R and the platform refuses the excess with 429;
 * - each execution paced at R / 4 (Messages per Second: the README's advice for runs that send
 *   at once).
 *
 * For each: messages accepted per second between the first and the last acceptance as a share of
 * R, wall time, 429s, duplicates (must be 0) and lost items (must be 0).
 *
 * - each execution paced at the sender's rateLimit with Share Pace Across Workers: turns from an
 *   Audience Messaging Trigger published on the webhook process.
 *
 * Run: npx tsx test/bench/queue.bench.tsx [--messages 100 --rate 10 --latency-ms 80 --only
 * q-shared-turns] (part of `npm run bench`).
 */
import os from 'node:os';

import { startSandbox } from '../sandbox';
import {
	createUserFolder,
	ensureRuntime,
	importCredentials,
	importWorkflows,
	installCommunityPackage,
	packPackage,
	publishWorkflow,
	waitForWebhook,
} from '../e2e/n8n-harness';
import { prepareQueueMode } from '../e2e/queue-harness';

const arg = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
};
const PER_EXECUTION = Number(arg('messages', '100'));
const RATE = Number(arg('rate', '10'));
const LATENCY_MS = Number(arg('latency-ms', '80'));
const EXECUTIONS = 4;
/** One variant only, by its webhook path (q-sender-rate, q-shared-turns, q-shared-rate). */
const ONLY = arg('only', '');
const API_KEY = 'bench-queue-key';
const CREDENTIAL = { id: 'amBenchQueueCred', name: 'Audience Messaging (queue bench)' };
const SENDER = '+15550100400';
const CALLBACK_CREDENTIAL = {
	id: 'amBenchQueueCbCred',
	name: 'Audience Messaging callbacks (queue bench)',
};
const CALLBACK_SECRET = 'benchQueueCallbackSecret_3f9a';
/**
 * The trigger whose board gives the turns of Share Pace Across Workers (it starts nothing: only
 * READ events would, and the sandbox posts QUEUE).
 */
const PACE_TRIGGER_ID = 'bench-pace-trigger-0001';

async function main() {
	await ensureRuntime();
	// The status callbacks of Share Pace Across Workers' trigger are held back (an hour): the bench
	// measures pacing. With one per message on top, this 2-core machine's webhook process answered
	// in 2–11 s (docs/benchmarks.md).
	const sandbox = await startSandbox({
		apiKey: API_KEY,
		latencyMs: LATENCY_MS,
		callbackDelayMs: 3_600_000,
	});
	const folder = await createUserFolder('am-bench-queue-');
	const queue = await prepareQueueMode(folder);
	try {
		await installCommunityPackage(folder, await packPackage());
		await importCredentials(folder, [
			{
				...CREDENTIAL,
				type: 'audienceMessagingApi',
				data: {
					apiKey: API_KEY,
					listsBaseUrl: sandbox.listsBaseUrl,
					walletBaseUrl: sandbox.walletBaseUrl,
					baseUrl: sandbox.baseUrl,
				},
			},
			{
				...CALLBACK_CREDENTIAL,
				type: 'audienceMessagingCallbackApi',
				data: { secret: CALLBACK_SECRET },
			},
		]);
		const sender = sandbox.seedSender(
			{ providerId: 'p', name: 'Queue bench', address: SENDER, accountTier: 4 },
			{ active: true },
		);
		sandbox.approveSender(sender.id, { rateLimit: RATE, dailyQuota: 100_000 });
		sandbox.configureChatapp({ callbackStatuses: ['QUEUE'] });
		const USER = '+33612349999';
		sandbox.simulateInbound(USER, SENDER);

		const webhookUrl = queue.webhookUrl;
		const allVariants: Array<{
			path: string;
			label: string;
			options: Record<string, unknown>;
			parameters?: Record<string, unknown>;
		}> = [
			{
				path: 'q-sender-rate',
				label: `each paced at the sender's rateLimit (${RATE}/s, read with Sender › Get)`,
				options: { rateLimitSenderId: sender.id },
			},
			{
				path: 'q-shared-turns',
				label: `each paced at the sender's rateLimit (${RATE}/s), Share Pace Across Workers (turns from the trigger on the webhook process)`,
				options: { rateLimitSenderId: sender.id, sharePace: true },
				parameters: {
					sendToTrigger: true,
					triggerUrl: `${webhookUrl}/webhook/${PACE_TRIGGER_ID}/callbacks`,
				},
			},
			{
				path: 'q-shared-rate',
				label: `each paced at ${RATE}/${EXECUTIONS} = ${RATE / EXECUTIONS}/s (Messages per Second)`,
				options: { messagesPerSecond: RATE / EXECUTIONS },
			},
		];
		const variants = ONLY ? allVariants.filter((v) => v.path === ONLY) : allVariants;
		const workflows = variants.map((variant, v) => {
			const nodes = [
				{
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: `bench-${variant.path}`,
					parameters: {
						httpMethod: 'POST',
						path: variant.path,
						responseMode: 'lastNode',
						options: {},
					},
				},
				{
					name: 'Messages',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: {
						jsCode: `const batch = $('Webhook').first().json.body.batch; return Array.from({ length: ${PER_EXECUTION} }, (_, i) => ({ json: { ref: batch + 'n' + i } }));`,
					},
				},
				{
					name: 'Send',
					type: 'n8n-nodes-audience-messaging.audienceMessaging',
					typeVersion: 1,
					credentials: {
						audienceMessagingApi: CREDENTIAL,
						audienceMessagingCallbackApi: CALLBACK_CREDENTIAL,
					},
					parameters: {
						resource: 'message',
						operation: 'send',
						messageType: 'text',
						from: SENDER,
						to: USER,
						text: 'Bench',
						...variant.parameters,
						options: { externalId: '={{ $json.ref }}', rateLimitWait: 600, ...variant.options },
					},
				},
				{
					name: 'Summary',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: {
						jsCode:
							'return [{ json: { items: $input.all().length, ids: $input.all().filter((item) => item.json.id).length } }];',
					},
				},
			].map((node, i) => ({ id: `n${i}`, position: [i * 220, 0], ...node }));
			const names = nodes.map((node) => node.name);
			const connections = Object.fromEntries(
				names
					.slice(0, -1)
					.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
			);
			return {
				id: `amBenchQueue${v}`,
				name: `bench queue ${variant.path}`,
				nodes,
				connections,
				active: false,
				settings: { executionOrder: 'v1' },
			};
		});
		const trigger = {
			id: 'amBenchQueueTrigger',
			name: 'bench queue pace trigger',
			nodes: [
				{
					id: 'trigger',
					name: 'Message Events',
					type: 'n8n-nodes-audience-messaging.audienceMessagingTrigger',
					typeVersion: 1,
					position: [0, 0],
					webhookId: PACE_TRIGGER_ID,
					parameters: { events: 'selected', statuses: ['READ'] },
					credentials: { audienceMessagingCallbackApi: CALLBACK_CREDENTIAL },
				},
			],
			connections: {},
			active: false,
			settings: { executionOrder: 'v1' },
		};
		await importWorkflows(folder, [...workflows, trigger]);
		for (const workflow of [...workflows, trigger]) await publishWorkflow(folder, workflow.id);
		const stack = await queue.start({ workers: 2 });
		for (const path of [...variants.map((variant) => variant.path), `${PACE_TRIGGER_ID}/callbacks`])
			await waitForWebhook(stack.webhook, path, { timeoutMs: 120_000 });
		console.log(
			`queue mode: main + 2 workers (concurrency 10) + webhook process, Redis and PostgreSQL; machine ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version} (bench), n8n 2.40.7`,
		);

		for (const [v, variant] of variants.entries()) {
			sandbox.clearRequests();
			const prefix = `v${v}x`;
			const started = Date.now();
			const answers = await Promise.all(
				Array.from({ length: EXECUTIONS }, async (_, e) => {
					const response = await fetch(`${stack.webhook.url}/webhook/${variant.path}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ batch: `${prefix}${e}` }),
						signal: AbortSignal.timeout(30 * 60_000),
					});
					return `${response.status} ${await response.text()}`;
				}),
			);
			const wallMs = Date.now() - started;
			const sends = sandbox.requests.filter((request) =>
				request.path.endsWith('/chatapp/messages'),
			);
			const accepted = sends
				.filter((request) => request.status === 200)
				.map((request) => request.receivedAt);
			const stored = sandbox
				.messages()
				.map((message) => String(message.externalId))
				.filter((id) => id.startsWith(prefix));
			const expected = EXECUTIONS * PER_EXECUTION;
			const perSecond =
				(accepted.length - 1) / ((Math.max(...accepted) - Math.min(...accepted)) / 1000);
			console.log(
				`queue mode send, ${EXECUTIONS} executions × ${PER_EXECUTION} messages at once, one sender limited to ${RATE}/s, ${LATENCY_MS} ms latency, ${variant.label}: ` +
					`${perSecond.toFixed(1)} accepted/s = ${((perSecond / RATE) * 100).toFixed(0)} % of the limit, wall ${(wallMs / 1000).toFixed(1)} s; ` +
					`${sends.filter((request) => request.status === 429).length} answered 429, ${stored.length - new Set(stored).size} duplicates, ${expected - new Set(stored).size} lost; answers ${[...new Set(answers)].join(' | ')}`,
			);
		}
	} finally {
		await queue.stop();
		await sandbox.close();
		await folder.cleanup();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
