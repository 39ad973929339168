/**
 * Message › Send against a platform that counts a sender's limit in different ways, in a real n8n
 * 2.40.7 (printed, not asserted): the packed package installed as a community package, one run at
 * a time started by webhook (regular mode), against the sandbox LATENCY_MS away whose sender
 * allows LIMIT messages per second counted per second of its clock (`second`, a fixed window) or
 * over any 1,000 ms (`sliding`). Each run sends MESSAGES messages paced four ways: Messages per
 * Second at the limit, at twice the limit, at the limit with Skip Messages Sent Before (a key per
 * message), and Sender ID for Rate Limit (the sender's rateLimit,
 * the limit). For each: accepted messages per second from the first request to the last
 * acceptance as a share of the limit, the share of requests answered 429, duplicates and lost
 * messages, against the targets: paced at the limit (with Skip Messages Sent Before off and on, or
 * by the sender), ≥ 95 % of the limit and ≤ 1 % answered 429; told twice the limit, ≥ 90 % and ≤ 2
 * %; none lost or twice. The same cases simulated: test/bench/shared-sender.bench.tsx.
 *
 * Run: npx tsx test/bench/send-windows.bench.tsx [--messages 400 --limit 20 --latency-ms 80]
 * (part of `npm run bench`).
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
	startN8n,
} from '../e2e/n8n-harness';

const arg = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
};
const MESSAGES = Number(arg('messages', '400'));
const LIMIT = Number(arg('limit', '20'));
const LATENCY_MS = Number(arg('latency-ms', '80'));
const API_KEY = 'bench-windows-key';
const CREDENTIAL = { id: 'amBenchWindowsCred', name: 'Audience Messaging (windows bench)' };
const SENDER = '+15550100300';
const USER = '+33612348888';
const WINDOWS = ['sliding', 'second'] as const;

async function main() {
	await ensureRuntime();
	const sandbox = await startSandbox({ apiKey: API_KEY });
	const folder = await createUserFolder('am-bench-windows-');
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
		]);
		const sender = sandbox.seedSender(
			{ providerId: 'p', name: 'Windows bench', address: SENDER, accountTier: 4 },
			{ active: true },
		);
		sandbox.approveSender(sender.id, { rateLimit: LIMIT, dailyQuota: 1_000_000 });
		sandbox.configureChatapp({ callbackStatuses: ['QUEUE'] });
		sandbox.simulateInbound(USER, SENDER);

		const paces = [
			{
				path: 'w-limit',
				label: `Messages per Second ${LIMIT} (the limit)`,
				options: { messagesPerSecond: LIMIT },
			},
			{
				path: 'w-twice',
				label: `Messages per Second ${2 * LIMIT} (twice the limit)`,
				options: { messagesPerSecond: 2 * LIMIT },
			},
			{
				path: 'w-once',
				label: `Messages per Second ${LIMIT}, Skip Messages Sent Before`,
				options: { messagesPerSecond: LIMIT, skipSentBefore: true, messageKey: '={{ $json.ref }}' },
			},
			{
				path: 'w-sender',
				label: `Sender ID for Rate Limit (rateLimit ${LIMIT})`,
				options: { rateLimitSenderId: sender.id },
			},
		];
		const workflows = paces.map((pace, p) => {
			const nodes = [
				{
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: `bench-${pace.path}`,
					parameters: {
						httpMethod: 'POST',
						path: pace.path,
						responseMode: 'lastNode',
						options: {},
					},
				},
				{
					name: 'Messages',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: {
						jsCode: `const run = $('Webhook').first().json.body.run; return Array.from({ length: ${MESSAGES} }, (_, i) => ({ json: { ref: run + 'n' + i } }));`,
					},
				},
				{
					name: 'Send',
					type: 'n8n-nodes-audience-messaging.audienceMessaging',
					typeVersion: 1,
					credentials: { audienceMessagingApi: CREDENTIAL },
					parameters: {
						resource: 'message',
						operation: 'send',
						messageType: 'text',
						from: SENDER,
						to: USER,
						text: 'Bench',
						options: { externalId: '={{ $json.ref }}', rateLimitWait: 600, ...pace.options },
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
				id: `amBenchWindows${p}`,
				name: `bench windows ${pace.path}`,
				nodes,
				connections,
				active: false,
				settings: { executionOrder: 'v1' },
			};
		});
		await importWorkflows(folder, workflows);
		for (const workflow of workflows) await publishWorkflow(folder, workflow.id);
		const n8n = await startN8n(folder, {
			webhooks: paces.map((pace) => ({ path: pace.path })),
			timeoutMs: 180_000,
		});
		console.log(
			`Message › Send against a sender limit of ${LIMIT}/s, ${MESSAGES} messages, ${LATENCY_MS} ms latency, Parallel Requests 10; n8n 2.40.7, machine ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version} (bench)`,
		);
		let missed = 0;
		try {
			sandbox.setLatency(LATENCY_MS);
			for (const window of WINDOWS) {
				sandbox.configureChatapp({ rateLimitWindow: window });
				for (const pace of paces) {
					const run = `${window.slice(0, 2)}${pace.path.slice(2)}`;
					// A run of its own: the previous run's last messages count against the limit for up to 1
					// s.
					await new Promise((resolve) => setTimeout(resolve, 1500));
					const response = await fetch(`${n8n.url}/webhook/${pace.path}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ run }),
					});
					const text = await response.text();
					if (response.status !== 200)
						throw new Error(`${pace.path}: HTTP ${response.status} ${text.slice(0, 300)}`);
					const mine = sandbox.requests.filter(
						(request) =>
							request.path.endsWith('/chatapp/messages') &&
							String((request.body as { externalId?: string } | undefined)?.externalId).startsWith(
								`${run}n`,
							),
					);
					const accepted = mine.filter((request) => request.status < 300);
					const refused = mine.filter((request) => request.status === 429).length;
					const stored = sandbox
						.messages()
						.map((message) => String(message.externalId))
						.filter((id) => id.startsWith(`${run}n`));
					const seconds =
						(Math.max(...accepted.map((request) => request.receivedAt)) -
							Math.min(...mine.map((request) => request.receivedAt))) /
						1000;
					const share = accepted.length / seconds / LIMIT;
					const refusedShare = refused / mine.length;
					const lost = MESSAGES - new Set(stored).size;
					const duplicates = stored.length - new Set(stored).size;
					// Paced at the limit, a run holds 95 % of it; told twice the limit, it learns it from 429s.
					const [least, most] = pace.path === 'w-twice' ? [0.9, 0.02] : [0.95, 0.01];
					const met = share >= least && refusedShare <= most && lost === 0 && duplicates === 0;
					if (!met) missed++;
					console.log(
						`  ${window} window, ${pace.label}: ${(share * 100).toFixed(1)} % of the limit (${(accepted.length / seconds).toFixed(1)}/s over ${seconds.toFixed(1)} s); ${refused} answered 429 (${(refusedShare * 100).toFixed(1)} % of requests); ${duplicates} duplicates, ${lost} lost ${met ? '[target met]' : '[TARGET MISSED]'}`,
					);
				}
			}
		} finally {
			sandbox.setLatency(0);
			await n8n.stop();
		}
		console.log(
			`targets missed: ${missed} of ${WINDOWS.length * paces.length} (targets: ≥ 95 % of the limit and ≤ 1 % answered 429 paced at the limit, ≥ 90 % and ≤ 2 % told twice the limit; none lost or twice)`,
		);
	} finally {
		await sandbox.close();
		await folder.cleanup();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
