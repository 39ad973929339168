/**
 * What one webhook request costs n8n (printed, not asserted): CPU time of the n8n process per
 * request, read from /proc before and after REQUESTS requests sent one after another, after a
 * warm-up. n8n 2.40.7 in regular mode (`n8n start`), the package installed as a community package.
 *
 * - a status callback to the Audience Messaging Trigger that its Only Selected Statuses drops (no
 *   execution);
 * - a pace request to the same trigger (Share Pace Across Workers' turns, no execution);
 * - the same two with n8n's isolate acquired only when an expression needs it
 *   (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE), and with its expression engine set to `legacy`
 *   (N8N_EXPRESSION_ENGINE), to show the part of n8n 2.x's per-request expression isolate: n8n
 *   skips it for its own Webhook node only (`webhookPhaseNeedsIsolate` in n8n's live-webhooks.js).
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
const trigger = callbackTriggerWorkflow(
	'amBenchWhCost1',
	'bench: webhook cost',
	WEBHOOK_ID,
	CREDENTIAL,
);
trigger.nodes[0].parameters = {
	events: 'selected',
	statuses: ['READ'],
} as (typeof trigger.nodes)[0]['parameters'];

/** CPU time (user + system) of process `pid` so far, in ms. */
function cpuMs(pid: number): number {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	// utime and stime are the 14th and 15th fields of the whole line (12th and 13th after "comm) ").
	return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function measure(
	n8n: RunningN8n,
	label: string,
	send: (i: number) => Promise<Response>,
): Promise<string> {
	for (let i = 0; i < WARM_UP; i++) await (await send(i)).arrayBuffer();
	const pid = n8n.process.pid!;
	const cpuBefore = cpuMs(pid);
	const started = performance.now();
	const statuses = new Map<number, number>();
	for (let i = 0; i < REQUESTS; i++) {
		const answer = await send(i);
		await answer.arrayBuffer();
		statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
	}
	const wallMs = (performance.now() - started) / REQUESTS;
	const cpu = (cpuMs(pid) - cpuBefore) / REQUESTS;
	const answered = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
	return `${label}: ${cpu.toFixed(1)} ms CPU and ${wallMs.toFixed(1)} ms per request (${answered})`;
}

async function run(engine: string, env: Record<string, string>): Promise<string[]> {
	const folder = await createUserFolder('am-bench-wh-');
	try {
		await installCommunityPackage(folder, await packPackage());
		await importCredentials(folder, [
			{ ...CREDENTIAL, type: 'audienceMessagingCallbackApi', data: { secret: SECRET } },
		]);
		await importWorkflows(folder, [trigger]);
		await publishWorkflow(folder, trigger.id);
		const n8n = await startN8n(folder, {
			env,
			webhooks: [
				{ path: `${WEBHOOK_ID}/callbacks`, method: 'POST' },
				{ path: `${WEBHOOK_ID}/pace`, method: 'POST' },
			],
		});
		try {
			const base = `${n8n.url}/webhook/${WEBHOOK_ID}`;
			const callback = (i: number) =>
				fetch(`${base}/callbacks?token=${callbackToken(SECRET)}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify([{ id: `msg_${i}`, to: '+33612345678', status: 'QUEUE' }]),
				});
			const pace = () =>
				fetch(`${base}/pace`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-pace-token': paceToken(SECRET) },
					body: JSON.stringify({ key: 'bench-sender', perSecond: 1000, count: 1 }),
				});
			return [
				await measure(n8n, `engine ${engine}, a status callback the trigger drops`, callback),
				await measure(n8n, `engine ${engine}, a pace request`, pace),
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
		...(await run('vm', {})),
		...(await run('vm, lazy acquire', { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' })),
		...(await run('legacy', { N8N_EXPRESSION_ENGINE: 'legacy' })),
	];
	console.log(
		[
			`One webhook request to the Audience Messaging Trigger in n8n (regular mode), ${REQUESTS} one after another:`,
			...lines.map((line) => `  ${line}`),
		].join('\n'),
	);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
