/**
 * What Message › Send › Skip Messages Sent Before costs, in a real n8n 2.40.7 (regular mode, its
 * SQLite database holding the history), figures printed, not asserted. The packed package is
 * installed as a community package; workflows start by webhook (Webhook → Code → Send, the webhook
 * answering when the run ends); node times are those n8n stored. The sandbox runs in this process,
 * with a sender that never refuses, so the run's time is the node's and the platform's.
 *
 * - Send of 10,000 messages (new recipients each run) at no pacing, option off and on alternately,
 *   median of 3 each: on / off (issue 47's target: ≤ 1.15);
 * - one run of 100,000 messages with the option off, one with it on, then the store's size for
 *   those keys (the length of the history's value in n8n's processed_data table);
 * - the same 100,000 items again (every one sent before: nothing sent), and 10,000 new messages on
 *   top of that history: what a large history costs a run.
 *
 * Run: npx tsx test/bench/send-once.bench.tsx [-- --messages 10000 --big 100000 --repeat 3]
 */
import os from 'node:os';
import { join } from 'node:path';

import { HISTORY_MAX_VALUES } from '../../src/history';
import { startSandbox } from '../sandbox';
import {
	createUserFolder,
	ensureRuntime,
	getRuntime,
	importCredentials,
	importWorkflows,
	installCommunityPackage,
	packPackage,
	publishWorkflow,
	runProcess,
	startN8n,
} from '../e2e/n8n-harness';

const arg = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
};
const MESSAGES = Number(arg('messages', '10000'));
const BIG = Number(arg('big', '100000'));
const REPEAT = Number(arg('repeat', '3'));
const API_KEY = 'bench-send-once-key';
const CREDENTIAL = { id: 'amBenchOnceCred', name: 'Audience Messaging bench' };
const SENDER = '15550100100';

/** Recipient `index` of run `run` (each run its own recipients, unless it repeats one). */
const recipient = (run: number, index: number) =>
	`+336${String(run).padStart(2, '0')}${String(index).padStart(6, '0')}`;

const workflow = (id: string, path: string, skipSentBefore: boolean) => ({
	id,
	name: `bench ${path}`,
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: 'n0',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: `bench-${path}`,
			parameters: {
				httpMethod: 'POST',
				path,
				responseMode: 'lastNode',
				responseData: 'noData',
				options: {},
			},
		},
		{
			id: 'n1',
			name: 'Recipients',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				jsCode: `const { run, count } = $input.first().json.body;
return Array.from({ length: count }, (_, i) => ({ json: { to: '+336' + String(run).padStart(2, '0') + String(i).padStart(6, '0') } }));`,
			},
		},
		{
			id: 'n2',
			name: 'Send',
			type: 'n8n-nodes-audience-messaging.audienceMessaging',
			typeVersion: 1,
			position: [440, 0],
			credentials: { audienceMessagingApi: CREDENTIAL },
			onError: 'continueRegularOutput',
			parameters: {
				resource: 'message',
				operation: 'send',
				messageType: 'text',
				from: `+${SENDER}`,
				to: '={{ $json.to }}',
				text: 'Spring sale: 20 % off',
				options: { messagesPerSecond: 0, parallelRequests: 50, skipSentBefore },
			},
		},
	],
	connections: {
		Webhook: { main: [[{ node: 'Recipients', type: 'main', index: 0 }]] },
		Recipients: { main: [[{ node: 'Send', type: 'main', index: 0 }]] },
	},
});

/** Runs a read-only query on n8n's SQLite database with the runtime's own sqlite3. */
async function query(n8nDir: string, sql: string): Promise<unknown> {
	const rt = getRuntime();
	const script = `
		const sqlite3 = require(${JSON.stringify(join(rt.runtimeDir, 'node_modules/sqlite3'))});
		const { parse } = require(${JSON.stringify(join(rt.runtimeDir, 'node_modules/flatted'))});
		const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY);
		db.all(process.argv[2], (error, rows) => {
			if (error) { console.error(error.message); process.exit(1); }
			process.stdout.write(JSON.stringify(rows.map((row) => row.data ? { ...row, data: Object.fromEntries(Object.entries(parse(row.data).resultData.runData).map(([node, runs]) => [node, runs[0].executionTime])) } : row)));
		});`;
	const result = await runProcess(
		rt.node,
		['--max-old-space-size=8192', '-e', script, join(n8nDir, 'database.sqlite'), sql],
		{ cwd: n8nDir, env: process.env, timeoutMs: 300_000 },
	);
	if (result.code !== 0) throw new Error(`query failed: ${result.stderr}`);
	return JSON.parse(result.stdout);
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
	await ensureRuntime();
	const sandbox = await startSandbox({ apiKey: API_KEY });
	const folder = await createUserFolder('am-bench-once-');
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
		const off = workflow('amBenchOnceOff', 'once-off', false);
		const on = workflow('amBenchOnceOn1', 'once-on', true);
		await importWorkflows(folder, [off, on]);
		for (const wf of [off, on]) await publishWorkflow(folder, wf.id);
		const sender = sandbox.seedSender(
			{ providerId: 'p', name: 'Bench', address: `+${SENDER}`, accountTier: 4 },
			{ active: true },
		);
		sandbox.approveSender(sender.id, { rateLimit: 1_000_000, dailyQuota: 10_000_000 });
		const n8n = await startN8n(folder, {
			webhooks: [{ path: 'once-off' }, { path: 'once-on' }],
			timeoutMs: 180_000,
		});
		console.log(
			`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, n8n 2.40.7`,
		);
		let runs = 0;
		/** One execution of `path` for `count` recipients of run `run`; the Send node's time (ms). */
		const execute = async (path: string, run: number, count: number) => {
			for (let index = 0; index < count; index++)
				sandbox.simulateInbound(recipient(run, index), SENDER);
			sandbox.clearRequests();
			const answer = await fetch(`${n8n.url}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ run, count }),
				signal: AbortSignal.timeout(1_800_000),
			});
			if (answer.status !== 200) throw new Error(`${path}: HTTP ${answer.status}`);
			runs++;
			const [last] = (await query(
				folder.n8nDir,
				'SELECT d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id ORDER BY e.id DESC LIMIT 1',
			)) as Array<{ data: Record<string, number> }>;
			const posted = sandbox.requests.filter((request) => request.method === 'POST').length;
			return { ms: last.data.Send, posted };
		};
		try {
			const times = { off: [] as number[], on: [] as number[] };
			for (let r = 0; r < REPEAT; r++) {
				times.off.push((await execute('once-off', 10 + 2 * r, MESSAGES)).ms);
				times.on.push((await execute('once-on', 11 + 2 * r, MESSAGES)).ms);
			}
			const [offMs, onMs] = [median(times.off), median(times.on)];
			console.log(
				`send ${MESSAGES} messages, no pacing, 50 in flight, median of ${REPEAT}: option off ${(offMs / 1000).toFixed(2)} s (${times.off.map((ms) => (ms / 1000).toFixed(2)).join(', ')}), on ${(onMs / 1000).toFixed(2)} s (${times.on.map((ms) => (ms / 1000).toFixed(2)).join(', ')}); on / off = ${(onMs / offMs).toFixed(2)} (target ≤ 1.15)`,
			);
			const bigOff = await execute('once-off', 49, BIG);
			const big = await execute('once-on', 50, BIG);
			const rows = (await query(
				folder.n8nDir,
				"SELECT context, length(value) AS bytes FROM processed_data WHERE workflowId = 'amBenchOnceOn1'",
			)) as Array<{ context: string; bytes: number }>;
			console.log(
				`send ${BIG} messages: option off ${(bigOff.ms / 1000).toFixed(1)} s, on ${(big.ms / 1000).toFixed(1)} s (on / off = ${(big.ms / bigOff.ms).toFixed(2)}); the node's history after ${REPEAT * MESSAGES + BIG} messages: ${rows.map((row) => `${(row.bytes / 2 ** 20).toFixed(1)} MB (${row.context})`).join(', ')}, about ${Math.round((rows[0]?.bytes ?? 0) / Math.min(HISTORY_MAX_VALUES, 3 * (REPEAT * MESSAGES + BIG)))} bytes a value`,
			);
			const again = await execute('once-on', 50, BIG);
			console.log(
				`the same ${BIG} items again (all sent before): ${(again.ms / 1000).toFixed(1)} s, ${again.posted} messages sent`,
			);
			const onTop = await execute('once-on', 60, MESSAGES);
			const offTop = await execute('once-off', 61, MESSAGES);
			console.log(
				`send ${MESSAGES} new messages on top of that history: on ${(onTop.ms / 1000).toFixed(2)} s, off ${(offTop.ms / 1000).toFixed(2)} s; on / off = ${(onTop.ms / offTop.ms).toFixed(2)} (${runs} executions)`,
			);
		} finally {
			await n8n.stop();
		}
	} finally {
		await sandbox.close();
		await folder.cleanup();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
