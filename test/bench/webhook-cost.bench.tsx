/**
 * What one webhook request costs n8n (printed, not asserted): CPU time of the n8n process per
 * request, read from /proc before and after REQUESTS requests of one kind sent one after another,
 * after a warm-up and once the process is quiet. n8n 2.40.7 in regular mode (`n8n start`), the
 * package installed as a community package, each workflow its start node alone:
 *
 * - n8n's own Webhook node, and the same with Header Auth (what the trigger is measured against:
 *   both check a secret and start an execution);
 * - a status callback to the Audience Messaging Trigger that starts an execution, one its Only
 *   Selected Statuses drops, and one it has seen already (a repeat), of type version 2; one that
 *   starts an execution of version 1 (for which n8n evaluates an expression per request);
 * - a pace request to the same trigger (Share Pace Across Workers' turns, no execution);
 *
 * with n8n's defaults and with its isolate acquired only when an expression needs it
 * (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE). n8n skips the per-request expression isolate for its own
 * Webhook node only (`webhookPhaseNeedsIsolate` in n8n's live-webhooks.js). Prints the trigger's
 * cost over the Webhook with Header Auth.
 *
 * Run: npx tsx test/bench/webhook-cost.bench.tsx [--requests 200]
 */
import { readFileSync } from 'node:fs';

import { callbackToken } from '../../src/platform/callbacks';
import { paceToken } from '../../src/pace/board';
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
import type { RunningN8n } from '../e2e/n8n-harness';
import { callbackTriggerWorkflow } from '../e2e/package-setup';

const arg = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
};
const REQUESTS = Number(arg('requests', '200'));
const WARM_UP = 20;
const SECRET = 'benchWebhookCostSecret_4c1d';
const CREDENTIAL = { id: 'amBenchWhCostCrd', name: 'Audience Messaging callbacks (bench)' };
const WEBHOOK_ID = '5d0b8e2a-3c4f-4a6b-9e1d-7f2a0c3b5e91';
const WEBHOOK_ID_V1 = '7a2e4c6d-1b3f-4d5e-8a9c-0e1f2a3b4c5d';
/** The trigger of type version 2 (a new node's), and of version 1 (n8n reads no body for it). */
const triggerOf = (id: string, webhookId: string, typeVersion: number) => {
	const workflow = callbackTriggerWorkflow(
		id,
		`bench: webhook cost ${id}`,
		webhookId,
		CREDENTIAL,
		typeVersion,
	);
	workflow.nodes[0].parameters = {
		events: 'selected',
		statuses: ['READ'],
	} as (typeof workflow.nodes)[0]['parameters'];
	return workflow;
};
const trigger = triggerOf('amBenchWhCost1', WEBHOOK_ID, 2);
const triggerV1 = triggerOf('amBenchWhCost2', WEBHOOK_ID_V1, 1);

/** CPU time (user + system) of process `pid` so far, in ms. */
function cpuMs(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	// utime and stime are the 14th and 15th fields of the whole line (12th and 13th after "comm) ").
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** n8n's Webhook node (type version 2) on POST `path`, answering at once, with or without Header Auth. */
function n8nWebhook(id: string, path: string, headerAuth: boolean) {
	return {
		id,
		name: `bench: n8n Webhook ${path}`,
		nodes: [
			{
				id: `hook-${path}`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: `${path}-0000-4000-8000-000000000000`.slice(0, 36),
				parameters: {
					httpMethod: 'POST',
					path,
					responseMode: 'onReceived',
					options: {},
					...(headerAuth && { authentication: 'headerAuth' }),
				},
				...(headerAuth && { credentials: { httpHeaderAuth: HEADER_CREDENTIAL } }),
			},
		],
		connections: {},
	};
}
const HEADER_CREDENTIAL = { id: 'amBenchWhHeader1', name: 'Header Auth (bench)' };
const plain = n8nWebhook('amBenchWhPlain1', 'bench-plain', false);
const headerAuth = n8nWebhook('amBenchWhHeader2', 'bench-header', true);

/** Waits until the n8n process used under 5 % of a core for half a second (executions ended). */
async function quiet(pid: number): Promise<void> {
	for (let tries = 0; tries < 60; tries++) {
		const before = cpuMs(pid);
		await new Promise((resolve) => setTimeout(resolve, 500));
		if (cpuMs(pid) - before <= 25) return;
	}
}

interface Figure {
	label: string;
	cpuMs: number;
	line: string;
}

async function measure(
	n8n: RunningN8n,
	label: string,
	send: (i: number) => Promise<Response>,
): Promise<Figure> {
	for (let i = 0; i < WARM_UP; i++) await (await send(-1 - i)).arrayBuffer();
	const pid = n8n.process.pid!;
	await quiet(pid);
	const cpuBefore = cpuMs(pid);
	const started = performance.now();
	const statuses = new Map<number, number>();
	for (let i = 0; i < REQUESTS; i++) {
		const answer = await send(i);
		await answer.arrayBuffer();
		statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
	}
	const wallMs = (performance.now() - started) / REQUESTS;
	// The executions started run after their answer: counted once the process is quiet again.
	await quiet(pid);
	const cpu = (cpuMs(pid) - cpuBefore) / REQUESTS;
	const answered = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
	return {
		label,
		cpuMs: cpu,
		line: `${label}: ${cpu.toFixed(1)} ms CPU and ${wallMs.toFixed(1)} ms per request (${answered})`,
	};
}

async function run(setting: string, env: Record<string, string>): Promise<string[]> {
	const folder = await createUserFolder('am-bench-wh-');
	try {
		await installCommunityPackage(folder, await packPackage());
		await importCredentials(folder, [
			{ ...CREDENTIAL, type: 'audienceMessagingCallbackApi', data: { secret: SECRET } },
			{ ...HEADER_CREDENTIAL, type: 'httpHeaderAuth', data: { name: 'X-Token', value: SECRET } },
		]);
		const workflows = [trigger, triggerV1, plain, headerAuth];
		await importWorkflows(folder, workflows);
		for (const workflow of workflows) await publishWorkflow(folder, workflow.id);
		const n8n = await startN8n(folder, {
			env,
			webhooks: [
				{ path: `${WEBHOOK_ID}/callbacks`, method: 'POST' },
				{ path: `${WEBHOOK_ID}/pace`, method: 'POST' },
				{ path: `${WEBHOOK_ID_V1}/callbacks`, method: 'POST' },
				{ path: 'bench-plain', method: 'POST' },
				{ path: 'bench-header', method: 'POST' },
			],
		});
		try {
			const base = `${n8n.url}/webhook/${WEBHOOK_ID}`;
			const json = { 'content-type': 'application/json' };
			const event = (i: number, status: string) =>
				JSON.stringify([{ id: `msg_${status}_${i}`, to: '+33612345678', status }]);
			const callback = (body: string, webhookId = WEBHOOK_ID) =>
				fetch(`${n8n.url}/webhook/${webhookId}/callbacks?token=${callbackToken(SECRET)}`, {
					method: 'POST',
					headers: json,
					body,
				});
			const webhook = (path: string, headers: Record<string, string> = {}) =>
				fetch(`${n8n.url}/webhook/${path}`, {
					method: 'POST',
					headers: { ...json, ...headers },
					body: event(0, 'READ'),
				});
			const figures = [
				await measure(n8n, 'n8n Webhook', () => webhook('bench-plain')),
				await measure(n8n, 'n8n Webhook + Header Auth', () =>
					webhook('bench-header', { 'x-token': SECRET }),
				),
				await measure(n8n, 'trigger, a callback that starts an execution', (i) =>
					callback(event(i, 'READ')),
				),
				await measure(n8n, 'trigger, a callback it drops (status not selected)', (i) =>
					callback(event(i, 'QUEUE')),
				),
				await measure(n8n, 'trigger, a callback it drops (a repeat)', () =>
					callback(event(-1, 'READ')),
				),
				await measure(n8n, 'trigger version 1, a callback that starts an execution', (i) =>
					callback(event(i, 'READ'), WEBHOOK_ID_V1),
				),
				await measure(n8n, 'trigger, a pace request', () =>
					fetch(`${base}/pace`, {
						method: 'POST',
						headers: { ...json, 'x-pace-token': paceToken(SECRET) },
						body: JSON.stringify({ key: 'bench-sender', perSecond: 1000, count: 1 }),
					}),
				),
			];
			const of = (label: string) => figures.find((f) => f.label === label)!.cpuMs;
			const ratio = (label: string) => (of(label) / of('n8n Webhook + Header Auth')).toFixed(2);
			return [
				`${setting}:`,
				...figures.map((f) => `  ${f.line}`),
				`  trigger / Webhook + Header Auth: ${ratio('trigger, a callback that starts an execution')}× (version 1: ${ratio('trigger version 1, a callback that starts an execution')}×)`,
			];
		} finally {
			await n8n.stop();
		}
	} finally {
		await folder.cleanup();
	}
}

async function main() {
	await ensureRuntime();
	const lines = [
		...(await run("n8n's defaults", {})),
		...(await run('N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true', {
			N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
		})),
	];
	console.log(
		[
			`One webhook request in n8n (regular mode), ${REQUESTS} of each kind one after another:`,
			...lines.map((line) => `  ${line}`),
		].join('\n'),
	);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
