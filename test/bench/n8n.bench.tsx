/**
 * Bulk figures measured in a real n8n 2.40.7 (printed, not asserted): the packed package is
 * installed as a community package, workflows are published and started by webhook on `n8n
 * start` (regular mode), node times come from the run data n8n stored, peak memory from the n8n
 * process (/proc, VmHWM reset before each run). The sandbox runs in this process.
 *
 * - Subscriber › Add Many from items at 10,000 / 100,000 / 300,000 items (batch 500; median of 3
 *   runs): node time, requests, peak RSS growth, the ratios 100k/10k and 300k/100k, and the same
 *   batches posted by a plain HTTP client to the same sandbox (the floor);
 * - Wallet Pass › Create of 10,000 passes (the first size; median of 5 runs, batch 500): Pass Data
 *   "From Input Item Fields" paired with an Add Many and a plain client, "Define Below" with two
 *   plain $json references right after it, and a stock Code + HTTP Request workflow creating the
 *   same passes right after that; issue 24's target line;
 * - Message › Send of 1,000 messages at 80 ms latency with the sender's rate limit R = 50/s:
 *   messages/s as a share of R, 429s, duplicates, lost items;
 * - List › Create From CSV of a 190 MB member export (test/helpers/member-csv.tsx: 1.7 million
 *   unique rows) read by Read/Write Files from Disk, to a counting sink, with n8n in `filesystem`
 *   and in `database` binary mode: node time and peak RSS growth over idle (the read into n8n's
 *   binary store included), for the whole node (every row checked, then uploaded) and for the
 *   check alone (Preview Without Sending: the same check, nothing uploaded); the upload's time is
 *   the difference. Issue 50's targets, side by side with the stock HTTP Request upload (REPEAT
 *   runs of each, medians): the check at ≥ 300 MB/s, the whole node within 1.5× the stock upload's
 *   time and 64 MB of its peak memory, in filesystem mode.
 *
 * Run: npm run bench [-- --sizes 10000,100000,300000 --messages 1000 --latency-ms 80 --rate 50
 * --csv-mb 190 --repeat 3] Profiling: `npx tsx test/bench/n8n.bench.tsx --parts add --cpu-prof
 * <dir>` runs only the named parts (add, stock, pass, send, csv) with n8n under `--cpu-prof`; open
 * the .cpuprofile files in Chrome DevTools or read them with `node test/bench/cpu-profile.mjs
 * <file>`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { join } from 'node:path';

import { writeMemberCsv } from '../helpers/member-csv';
import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
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
const SIZES = arg('sizes', '10000,100000,300000').split(',').map(Number);
const MESSAGES = Number(arg('messages', '1000'));
const LATENCY_MS = Number(arg('latency-ms', '80'));
const RATE = Number(arg('rate', '50'));
const CSV_MB = Number(arg('csv-mb', '190'));
const REPEAT = Number(arg('repeat', '3'));
const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const PARTS = new Set(arg('parts', 'add,stock,pass,send,csv').split(','));
const CPU_PROF = arg('cpu-prof', '');
/** The binary data modes the CSV part runs in. */
const CSV_MODES = arg('csv-modes', 'filesystem,database').split(',');
const BATCH = 500;
/**
 * Wallet Pass runs, each paired with an Add Many run (figures of a tenth of a second: more runs
 * than the others).
 */
const PAIRS = Math.max(REPEAT, 5);
const API_KEY = 'bench-key';
const NODE_TYPE = 'n8n-nodes-audience-messaging.audienceMessaging';
const CREDENTIAL = { id: 'amBenchCred', name: 'Audience Messaging (bench)' };
const SINK_CREDENTIAL = { id: 'amBenchSink', name: 'Audience Messaging (counting sink)' };
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * A published workflow: Webhook (answers with the last node's first item) → Code generating items →
 * the node → Code summary.
 */
function workflow(
	id: string,
	path: string,
	generate: string | Record<string, unknown>,
	node: Record<string, unknown>,
	summary: string,
) {
	const at = (i: number): [number, number] => [i * 220, 0];
	const source =
		typeof generate === 'string'
			? { type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: generate } }
			: generate;
	const nodes = [
		{
			id: 'hook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: at(0),
			webhookId: `bench-${path}`,
			parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
		},
		{ id: 'gen', name: 'Generate', position: at(1), ...source },
		{
			id: 'node',
			name: 'Node',
			type: NODE_TYPE,
			typeVersion: 1,
			position: at(2),
			credentials: { audienceMessagingApi: CREDENTIAL },
			...node,
		},
		{
			id: 'sum',
			name: 'Summary',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: at(3),
			parameters: { jsCode: summary },
		},
	];
	const names = nodes.map((n) => n.name);
	const connections = Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
	return {
		id,
		name: `bench ${path}`,
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
	};
}

/**
 * A published workflow of any chain of nodes after a Webhook (answers with the last node's first
 * item).
 */
function chain(id: string, path: string, nodes: Array<Record<string, unknown>>) {
	const all = [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: `bench-${path}`,
			parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
		},
		...nodes,
	].map((node, i): Record<string, unknown> => ({ id: `n${i}`, position: [i * 220, 0], ...node }));
	const names = all.map((n) => n.name as string);
	const connections = Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
	return {
		id,
		name: `bench ${path}`,
		nodes: all,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
	};
}

/** POST without a client-side time limit (a 300,000-item run may take minutes). */
function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const request = http.request(
			url,
			{ method: 'POST', headers: { 'content-type': 'application/json' } },
			(response) => {
				let text = '';
				response.on('data', (chunk) => (text += chunk));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
			},
		);
		request.on('error', reject);
		request.end(JSON.stringify(body));
	});
}

const procStatus = (pid: number, field: string) =>
	Number(
		new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ??
			0,
	) * 1024;

/** The node times n8n stored for the newest execution. */
async function nodeTimes(n8nDir: string): Promise<Record<string, number>> {
	const rt = getRuntime();
	const script = `
		const sqlite3 = require(${JSON.stringify(join(rt.runtimeDir, 'node_modules/sqlite3'))});
		const { parse } = require(${JSON.stringify(join(rt.runtimeDir, 'node_modules/flatted'))});
		const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY);
		db.get('SELECT d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id ORDER BY e.id DESC LIMIT 1', (error, row) => {
			if (error) { console.error(error.message); process.exit(1); }
			const runData = parse(row.data).resultData.runData;
			process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(runData).map(([node, runs]) => [node, runs[0].executionTime]))));
		});`;
	const result = await runProcess(
		rt.node,
		['--max-old-space-size=8192', '-e', script, join(n8nDir, 'database.sqlite')],
		{ cwd: n8nDir, env: process.env, timeoutMs: 300_000 },
	);
	if (result.code !== 0) throw new Error(`reading the execution failed: ${result.stderr}`);
	return JSON.parse(result.stdout) as Record<string, number>;
}

/** The same rows in the same batches, posted one batch after the other by a plain client. */
async function plainClient(sandbox: Sandbox, listId: number, count: number): Promise<number> {
	const started = performance.now();
	for (let start = 0; start < count; start += BATCH) {
		const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => ({
			email: `p${start + i}@x.io`,
			plan: (start + i) % 3 ? 'free' : 'pro',
		}));
		const response = await fetch(`${sandbox.listsBaseUrl}/lists/${listId}/subscribers/bulk`, {
			method: 'POST',
			headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify(rows),
		});
		if (response.status !== 200) throw new Error(`plain client: HTTP ${response.status}`);
		await response.arrayBuffer();
	}
	return performance.now() - started;
}

/**
 * The same passes in the same batches, posted one batch after the other by a plain client: the
 * platform's share of a Wallet Pass run.
 */
async function plainPassClient(sandbox: Sandbox, serial: string, count: number): Promise<number> {
	const started = performance.now();
	for (let start = 0; start < count; start += BATCH) {
		const items = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => ({
			recipientId: `u${start + i}@x.io`,
			uniqueValues: {
				fields: [
					{ place: 'BACK', label: 'Plan', fixed: false, value: (start + i) % 3 ? 'free' : 'pro' },
				],
			},
		}));
		const response = await fetch(
			`${sandbox.walletBaseUrl}/v2/wallet/templates/${serial}/passes/batch`,
			{
				method: 'POST',
				headers: {
					authorization: `Bearer ${API_KEY}`,
					'content-type': 'application/json;charset=UTF-8',
				},
				body: JSON.stringify({ items }),
			},
		);
		if (response.status !== 200) throw new Error(`plain pass client: HTTP ${response.status}`);
		await response.arrayBuffer();
	}
	return performance.now() - started;
}

/**
 * A lists API that counts the bytes of an upload and answers a created list: the sandbox would
 * store 2 million rows.
 */
async function countingSink() {
	let received = 0;
	const server = http.createServer((request, response) => {
		request.on('data', (chunk: Buffer) => (received += chunk.length));
		request.on('end', () => {
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					meta: { timestamp: Date.now(), transactionId: 'bench' },
					data: { id: 1, name: 'Big', status: 'OK' },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
	return {
		url,
		received: () => received,
		reset: () => (received = 0),
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function main() {
	await ensureRuntime();
	const sandbox = await startSandbox({ apiKey: API_KEY });
	const sink = await countingSink();
	const files = mkdtempSync(join(os.tmpdir(), 'am-bench-files-'));
	const csvFile = join(files, 'big.csv');
	writeMemberCsv(csvFile, CSV_MB * 1024 * 1024);
	const folder = await createUserFolder('am-bench-');
	// Whatever fails, the sandbox, the sink and the temporary folders go (a failed run left them
	// behind).
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
				...SINK_CREDENTIAL,
				type: 'audienceMessagingApi',
				data: {
					apiKey: API_KEY,
					listsBaseUrl: sink.url,
					walletBaseUrl: sink.url,
					baseUrl: sink.url,
				},
			},
		]);

		// One empty list per size and repetition, for the node and for the plain client each.
		const emptyList = (name: string) =>
			sandbox.seedList({
				name,
				columns: [
					{ name: 'email', type: 'STRING', unique: true },
					{ name: 'plan', type: 'STRING' },
				],
			});
		const lists = SIZES.map((size) =>
			Array.from({ length: REPEAT }, (_, r) => emptyList(`Bench ${size} #${r + 1}`)),
		);
		const plainLists = SIZES.map((size) =>
			Array.from({ length: REPEAT }, (_, r) => emptyList(`Plain ${size} #${r + 1}`)),
		);
		const sender = sandbox.seedSender(
			{ providerId: 'p', name: 'Bench', address: '+15550100100', accountTier: 4 },
			{ active: true },
		);
		sandbox.approveSender(sender.id, { rateLimit: RATE, dailyQuota: MESSAGES * 2 });
		const recipients = Array.from({ length: MESSAGES }, (_, i) => `+336${String(10_000_000 + i)}`);
		for (const to of recipients) sandbox.simulateInbound(to, '15550100100');
		// Issue 14's comparison: 400 messages at 20/s, the node against a stock HTTP Request with
		// Batching (20 per 1 s).
		const COMPARED = 400;
		const COMPARED_RATE = 20;
		const slowSender = sandbox.seedSender(
			{ providerId: 'p', name: 'Bench 20', address: '+15550100200', accountTier: 4 },
			{ active: true },
		);
		sandbox.approveSender(slowSender.id, { rateLimit: COMPARED_RATE, dailyQuota: COMPARED * 4 });
		const compared = recipients.slice(0, COMPARED);
		for (const to of compared) sandbox.simulateInbound(to, '15550100200');
		const comparedItems = `return ${JSON.stringify(compared)}.map((to, i) => ({ json: { to, ref: 'c' + i } }));`;

		const countStatuses = `const counts = {}; for (const item of $input.all()) { const s = item.json.status ?? (item.json.error ? 'error' : 'none'); counts[s] = (counts[s] ?? 0) + 1; } return [{ json: { items: $input.all().length, counts } }];`;
		const generate = (size: number) =>
			`return Array.from({ length: ${size} }, (_, i) => ({ json: { email: 'u' + i + '@x.io', plan: i % 3 ? 'free' : 'pro' } }));`;
		// What a user wires by hand with stock nodes: all items into one, cut into batches, one HTTP
		// Request per batch.
		const stockList = sandbox.seedList({
			name: 'Bench stock',
			columns: [
				{ name: 'email', type: 'STRING', unique: true },
				{ name: 'plan', type: 'STRING' },
			],
		});
		const stock = chain('amBenchStock', 'stock', [
			{
				name: 'Generate',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: generate(SIZES[0]) },
			},
			{
				name: 'Aggregate',
				type: 'n8n-nodes-base.aggregate',
				typeVersion: 1,
				parameters: {
					aggregate: 'aggregateAllItemData',
					destinationFieldName: 'rows',
					options: {},
				},
			},
			{
				name: 'Batches',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: {
					jsCode: `const rows = $input.first().json.rows; const out = []; for (let i = 0; i < rows.length; i += ${BATCH}) out.push({ json: { rows: rows.slice(i, i + ${BATCH}) } }); return out;`,
				},
			},
			{
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: `${sandbox.listsBaseUrl}/lists/${stockList.id}/subscribers/bulk`,
					sendHeaders: true,
					headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${API_KEY}` }] },
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify($json.rows) }}',
					options: {},
				},
			},
			{
				name: 'Summary',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: 'return [{ json: { batches: $input.all().length } }];' },
			},
		]);
		const passCounts =
			'const counts = {}; for (const item of $input.all()) counts[item.json.url ? "created" : "other"] = (counts[item.json.url ? "created" : "other"] ?? 0) + 1; return [{ json: counts }];';
		// Pass Data "Define Below" with two plain $json references (Recipient ID, one field value):
		// read from the items by the node's fast path, not evaluated by n8n per item. One workflow and
		// template per repetition, as below.
		const passesDefined = Array.from({ length: PAIRS }, (_, r) =>
			workflow(
				`amBenchPass${r}`,
				`pass-${r}`,
				generate(SIZES[0]),
				{
					parameters: {
						resource: 'walletPass',
						operation: 'create',
						templateSerial: { __rl: true, mode: 'id', value: `tpl-define-${r}` },
						recipientId: '={{ $json.email }}',
						fields: { field: [{ place: 'BACK', label: 'Plan', value: '={{ $json.plan }}' }] },
						options: { batchSize: BATCH },
					},
				},
				passCounts,
			),
		);
		// What a user wires by hand with stock nodes for the same passes: a Code node building the
		// batch bodies from the items, one HTTP Request per batch.
		const passesStock = Array.from({ length: PAIRS }, (_, r) =>
			chain(`amBenchPassStock${r}`, `pass-stock-${r}`, [
				{
					name: 'Generate',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: generate(SIZES[0]) },
				},
				{
					name: 'Batches',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: {
						jsCode: `const items = $input.all(); const out = []; for (let i = 0; i < items.length; i += ${BATCH}) out.push({ json: { items: items.slice(i, i + ${BATCH}).map(({ json }) => ({ recipientId: json.email, uniqueValues: { fields: [{ place: 'BACK', label: 'Plan', fixed: false, value: json.plan }] } })) } }); return out;`,
					},
				},
				{
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					parameters: {
						method: 'POST',
						url: `${sandbox.walletBaseUrl}/v2/wallet/templates/tpl-stock-${r}/passes/batch`,
						sendHeaders: true,
						headerParameters: {
							parameters: [{ name: 'Authorization', value: `Bearer ${API_KEY}` }],
						},
						sendBody: true,
						specifyBody: 'json',
						jsonBody: '={{ JSON.stringify({ items: $json.items }) }}',
						options: {},
					},
				},
				{
					name: 'Summary',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: {
						jsCode:
							'const passes = $input.all().reduce((sum, item) => sum + (item.json.items?.length ?? 0), 0); return [{ json: { batches: $input.all().length, passes } }];',
					},
				},
			]),
		);
		// The same passes read from the items' fields by name (Pass Data "From Input Item Fields"): no
		// expression per item, as Add Many reads its rows. One workflow and template per repetition: a
		// recipient may hold one pass per template.
		for (let r = 0; r < PAIRS; r++) {
			sandbox.seedTemplate({ serial: `tpl-bench-${r}`, name: `Bench ${r}` });
			sandbox.seedTemplate({ serial: `tpl-plain-${r}`, name: `Plain ${r}` });
			sandbox.seedTemplate({ serial: `tpl-define-${r}`, name: `Define Below ${r}` });
			sandbox.seedTemplate({ serial: `tpl-stock-${r}`, name: `Stock ${r}` });
		}
		// Each Wallet Pass run is paired with an Add Many run of the same items just before it, into a
		// list of its own: at a tenth of a second each, the state of the machine moves both, and the
		// median of the pairs' ratios is steadier than a ratio of medians.
		const pairedAdds = Array.from({ length: PAIRS }, (_, r) =>
			workflow(
				`amBenchPairAdd${r}`,
				`pair-add-${r}`,
				generate(SIZES[0]),
				{
					parameters: {
						resource: 'subscriber',
						operation: 'addMany',
						listId: { __rl: true, mode: 'id', value: String(emptyList(`Pair ${r + 1}`).id) },
						source: 'items',
						columnsToSend: 'email, plan',
						options: { batchSize: BATCH },
					},
				},
				countStatuses,
			),
		);
		const passesFromFields = Array.from({ length: PAIRS }, (_, r) =>
			workflow(
				`amBenchPassFields${r}`,
				`pass-fields-${r}`,
				generate(SIZES[0]),
				{
					parameters: {
						resource: 'walletPass',
						operation: 'create',
						templateSerial: { __rl: true, mode: 'id', value: `tpl-bench-${r}` },
						passData: 'itemFields',
						recipientIdField: 'email',
						fieldsFromInput: { field: [{ place: 'BACK', label: 'Plan', inputField: 'plan' }] },
						options: { batchSize: BATCH },
					},
				},
				passCounts,
			),
		);
		// n8n's own cost of the same two expressions per item, in a stock Set node.
		const expressions = chain('amBenchSet', 'set', [
			{
				name: 'Generate',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: generate(SIZES[0]) },
			},
			{
				name: 'Set',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				parameters: {
					mode: 'manual',
					assignments: {
						assignments: [
							{ id: 'a1', name: 'recipient', value: '={{ $json.email }}', type: 'string' },
							{ id: 'a2', name: 'plan', value: '={{ $json.plan }}', type: 'string' },
						],
					},
					options: {},
				},
			},
			{
				name: 'Summary',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: 'return [{ json: { items: $input.all().length } }];' },
			},
		]);
		const workflows = [
			stock,
			...passesDefined,
			...passesStock,
			...passesFromFields,
			...pairedAdds,
			expressions,
			...SIZES.flatMap((size, i) =>
				lists[i].map((list, r) =>
					workflow(
						`amBenchAdd${i}r${r}`,
						`add-${size}-${r}`,
						`return Array.from({ length: ${size} }, (_, i) => ({ json: { email: 'u' + i + '@x.io', plan: i % 3 ? 'free' : 'pro' } }));`,
						{
							parameters: {
								resource: 'subscriber',
								operation: 'addMany',
								listId: { __rl: true, mode: 'id', value: String(list.id) },
								source: 'items',
								columnsToSend: 'email, plan',
								options: { batchSize: BATCH },
							},
						},
						countStatuses,
					),
				),
			),
			workflow(
				'amBenchSend',
				'send',
				`return ${JSON.stringify(recipients)}.map((to, i) => ({ json: { to, ref: 'b' + i } }));`,
				{
					parameters: {
						resource: 'message',
						operation: 'send',
						messageType: 'text',
						from: '+1 555 010 0100',
						to: '={{ $json.to }}',
						text: 'Bench',
						options: { externalId: '={{ $json.ref }}', rateLimitSenderId: sender.id },
					},
				},
				countStatuses,
			),
			workflow(
				'amBenchSend20',
				'send-20',
				comparedItems,
				// As many in flight as the stock node sends at once (a batch of 20): each second's burst
				// leaves together.
				{
					parameters: {
						resource: 'message',
						operation: 'send',
						messageType: 'text',
						from: '+1 555 010 0200',
						to: '={{ $json.to }}',
						text: 'Bench',
						options: {
							externalId: '={{ $json.ref }}',
							messagesPerSecond: COMPARED_RATE,
							parallelRequests: COMPARED_RATE,
						},
					},
				},
				countStatuses,
			),
			chain('amBenchStockSend', 'stock-send', [
				{
					name: 'Generate',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: comparedItems },
				},
				{
					name: 'HTTP Request',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					parameters: {
						method: 'POST',
						url: `${sandbox.baseUrl}/chatapp/messages`,
						sendHeaders: true,
						headerParameters: {
							parameters: [{ name: 'Authorization', value: `Bearer ${API_KEY}` }],
						},
						sendBody: true,
						specifyBody: 'json',
						jsonBody:
							'={{ JSON.stringify({ from: "15550100200", to: $json.to, type: "text", body: "Bench", externalId: "s" + $itemIndex }) }}',
						// A 429 becomes an item instead of stopping the workflow: the count of stored messages
						// tells.
						options: {
							batching: { batch: { batchSize: COMPARED_RATE, batchInterval: 1000 } },
							response: { response: { neverError: true } },
						},
					},
				},
				{
					name: 'Summary',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: { jsCode: 'return [{ json: { items: $input.all().length } }];' },
				},
			]),
		];
		const csvWorkflow = workflow(
			'amBenchCsv',
			'csv',
			{
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				parameters: { operation: 'read', fileSelector: csvFile, options: {} },
			},
			{
				parameters: {
					resource: 'list',
					operation: 'createFromCsv',
					name: 'Big',
					binaryPropertyName: 'data',
				},
				credentials: { audienceMessagingApi: SINK_CREDENTIAL },
			},
			'return [{ json: { id: $input.first().json.id } }];',
		);
		// The same node with Preview Without Sending: every row checked, nothing uploaded.
		const csvCheckWorkflow = workflow(
			'amBenchCsvCheck',
			'csv-check',
			{
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				parameters: { operation: 'read', fileSelector: csvFile, options: {} },
			},
			{
				parameters: {
					resource: 'list',
					operation: 'createFromCsv',
					name: 'Big',
					binaryPropertyName: 'data',
					options: { preview: true },
				},
				credentials: { audienceMessagingApi: SINK_CREDENTIAL },
			},
			'return [{ json: { rows: $input.first().json.request.body.csvFile.rows } }];',
		);
		// The upload alone, by n8n's own HTTP Request node: the same file as the multipart part csvFile
		// to the same sink, unchecked.
		const csvStockUpload = chain('amBenchCsvStock', 'csv-stock', [
			{
				name: 'Generate',
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				parameters: { operation: 'read', fileSelector: csvFile, options: {} },
			},
			{
				name: 'Node',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: `${sink.url}/lists?name=Big`,
					sendBody: true,
					contentType: 'multipart-form-data',
					bodyParameters: {
						parameters: [
							{ parameterType: 'formBinaryData', name: 'csvFile', inputDataFieldName: 'data' },
						],
					},
					options: {},
				},
			},
			{
				name: 'Summary',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: 'return [{ json: { uploaded: true } }];' },
			},
		]);
		// The same read with nothing after it: n8n's own cost of holding the file, to tell the node's
		// share.
		const readOnly = workflow(
			'amBenchCsvRead',
			'csv-read',
			{
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1.1,
				parameters: { operation: 'read', fileSelector: csvFile, options: {} },
			},
			{ type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {}, credentials: undefined },
			'return [{ json: { read: true } }];',
		);
		await importWorkflows(folder, [
			...workflows,
			csvWorkflow,
			csvCheckWorkflow,
			csvStockUpload,
			readOnly,
		]);
		await publishWorkflow(folder, csvWorkflow.id);
		await publishWorkflow(folder, csvCheckWorkflow.id);
		await publishWorkflow(folder, csvStockUpload.id);
		await publishWorkflow(folder, readOnly.id);
		for (const wf of workflows) await publishWorkflow(folder, wf.id);
		const profiling = CPU_PROF
			? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF}` }
			: undefined;
		const n8n = await startN8n(folder, {
			webhooks: workflows.map((wf) => ({
				path: (wf.nodes[0] as { parameters: { path: string } }).parameters.path,
			})),
			timeoutMs: 180_000,
			env: profiling,
		});
		const pid = n8n.process.pid!;
		console.log(
			`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${mb(os.totalmem())} RAM, Node ${process.version} (bench), n8n 2.40.7`,
		);
		const print = (line: string) => console.log(line);
		/**
		 * Issue 14's targets, each with the figure this run measured: printed together at the end of
		 * the n8n parts.
		 */
		const targets: Array<{ what: string; value: number; bound: string; holds: boolean }> = [];
		/** Issue 24's target for Define Below (two ratios, one line). */
		let passTarget: { size: number; overFields: number; overStock: number } | undefined;
		const target = (what: string, value: number, bound: '≤' | '≥', limit: number) =>
			targets.push({
				what,
				value,
				bound: `${bound} ${limit}`,
				holds: bound === '≤' ? value <= limit : value >= limit,
			});
		try {
			const nodeMs: number[] = [];
			// The 10,000-item comparisons run right after the 10,000-item Add Many runs, before the
			// larger ones leave a heap of a gigabyte to collect (which slowed the next runs tenfold).
			const compareAt10k = async () => {
				if (PARTS.has('stock')) {
					const stockAnswer = await post(`${n8n.url}/webhook/stock`, {});
					if (stockAnswer.status !== 200)
						throw new Error(`stock: HTTP ${stockAnswer.status} ${stockAnswer.text.slice(0, 300)}`);
					const stockTimes = await nodeTimes(folder.n8nDir);
					const stockMs = stockTimes.Aggregate + stockTimes.Batches + stockTimes['HTTP Request'];
					if (nodeMs.length)
						target(
							`Add Many / stock Aggregate + HTTP Request, ${SIZES[0]} items`,
							nodeMs[0] / stockMs,
							'≤',
							1,
						);
					print(
						`stock nodes in n8n: ${SIZES[0]} items, Aggregate + Code (batches of ${BATCH}) + HTTP Request: ${(stockMs / 1000).toFixed(2)} s (${stockAnswer.text}); Add Many / stock = ${(nodeMs[0] / stockMs).toFixed(2)}`,
					);
				}
				if (PARTS.has('pass')) {
					const fieldsRuns: Array<{ ms: number; addMs: number; plainMs: number; text: string }> =
						[];
					const defineRuns: Array<{
						ms: number;
						fieldsMs: number;
						stockMs: number;
						text: string;
						stockText: string;
					}> = [];
					const run = async (path: string) => {
						const answer = await post(`${n8n.url}/webhook/${path}`, {});
						if (answer.status !== 200)
							throw new Error(`${path}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
						return { text: answer.text, times: await nodeTimes(folder.n8nDir) };
					};
					for (let r = 0; r < PAIRS; r++) {
						const plainMs = await plainPassClient(sandbox, `tpl-plain-${r}`, SIZES[0]);
						const addMs = (await run(`pair-add-${r}`)).times.Node;
						const fields = await run(`pass-fields-${r}`);
						fieldsRuns.push({ ms: fields.times.Node, addMs, plainMs, text: fields.text });
						const defined = await run(`pass-${r}`);
						const stock = await run(`pass-stock-${r}`);
						defineRuns.push({
							ms: defined.times.Node,
							fieldsMs: fields.times.Node,
							stockMs: stock.times.Batches + stock.times['HTTP Request'],
							text: defined.text,
							stockText: stock.text,
						});
					}
					const fieldsMs = median(fieldsRuns.map((run) => run.ms));
					const pairRatio = median(fieldsRuns.map((run) => run.ms / run.addMs));
					target(
						`Wallet Pass (From Input Item Fields) / Add Many, ${SIZES[0]} items, median of ${PAIRS} pairs`,
						pairRatio,
						'≤',
						2,
					);
					const againstMedian = nodeMs.length
						? `; against the Add Many median above: ${(fieldsMs / nodeMs[0]).toFixed(2)}`
						: '';
					print(
						`wallet pass in n8n: ${SIZES[0]} items, batch ${BATCH}, Pass Data "From Input Item Fields" (recipient and field value read from the items by name, as Add Many reads its rows), median of ${PAIRS}: node ${(fieldsMs / 1000).toFixed(2)} s (${fieldsRuns.map((run) => (run.ms / 1000).toFixed(2)).join(' / ')}), ${fieldsRuns[0].text}; each run paired with an Add Many of the same items just before it (${fieldsRuns.map((run) => (run.addMs / 1000).toFixed(2)).join(' / ')} s): Wallet Pass / Add Many = ${pairRatio.toFixed(2)} (median of the pairs: ${fieldsRuns.map((run) => (run.ms / run.addMs).toFixed(2)).join(' / ')})${againstMedian}; the same pass batches posted by a plain client ${(median(fieldsRuns.map((run) => run.plainMs)) / 1000).toFixed(2)} s, so Wallet Pass / plain = ${median(fieldsRuns.map((run) => run.ms / run.plainMs)).toFixed(2)}`,
					);
					const setAnswer = await post(`${n8n.url}/webhook/set`, {});
					if (setAnswer.status !== 200)
						throw new Error(`set: HTTP ${setAnswer.status} ${setAnswer.text.slice(0, 300)}`);
					const setMs = (await nodeTimes(folder.n8nDir)).Set;
					const defineMs = median(defineRuns.map((run) => run.ms));
					const stockMs = median(defineRuns.map((run) => run.stockMs));
					const overFields = median(defineRuns.map((run) => run.ms / run.fieldsMs));
					const overStock = median(defineRuns.map((run) => run.ms / run.stockMs));
					const seconds = (list: number[]) => list.map((ms) => (ms / 1000).toFixed(2)).join(' / ');
					print(
						`wallet pass in n8n: ${SIZES[0]} items, batch ${BATCH}, Pass Data "Define Below", Recipient ID and one field value as plain $json references (={{ $json.email }}, ={{ $json.plan }}), median of ${PAIRS}: node ${(defineMs / 1000).toFixed(2)} s (${seconds(defineRuns.map((run) => run.ms))}), ${defineRuns[0].text}; each run right after a From Input Item Fields run: Define Below / From Input Item Fields = ${overFields.toFixed(2)} (${defineRuns.map((run) => (run.ms / run.fieldsMs).toFixed(2)).join(' / ')}); stock Code (batch bodies) + HTTP Request creating the same passes right after it: ${(stockMs / 1000).toFixed(2)} s (${seconds(defineRuns.map((run) => run.stockMs))}), ${defineRuns[0].stockText}, so Define Below / stock = ${overStock.toFixed(2)} (${defineRuns.map((run) => (run.ms / run.stockMs).toFixed(2)).join(' / ')})${nodeMs.length ? `; Define Below / Add Many = ${(defineMs / nodeMs[0]).toFixed(2)}` : ''}; a stock Set node evaluating the same two expressions: ${(setMs / 1000).toFixed(2)} s`,
					);
					passTarget = { size: SIZES[0], overFields, overStock };
				}
			};
			for (const [i, size] of SIZES.entries()) {
				if (!PARTS.has('add')) break;
				const runs: Array<{
					nodeMs: number;
					plainMs: number;
					requests: number;
					growth: number;
					summary: string;
				}> = [];
				for (let r = 0; r < REPEAT; r++) {
					// The floor first, into a list of its own: both runs start from an empty list and an idle
					// n8n.
					const plainMs = await plainClient(sandbox, plainLists[i][r].id, size);
					sandbox.clearRequests();
					writeFileSync(`/proc/${pid}/clear_refs`, '5');
					const idle = procStatus(pid, 'VmRSS');
					const answer = await post(`${n8n.url}/webhook/add-${size}-${r}`, {});
					if (answer.status !== 200)
						throw new Error(`add ${size}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
					const growth = procStatus(pid, 'VmHWM') - idle;
					const times = await nodeTimes(folder.n8nDir);
					runs.push({
						nodeMs: times.Node,
						plainMs,
						requests: sandbox.requests.length,
						growth,
						summary: answer.text,
					});
				}
				const node = median(runs.map((run) => run.nodeMs));
				const plain = median(runs.map((run) => run.plainMs));
				nodeMs.push(node);
				if (i === 0) target(`Add Many / plain client, ${size} items`, node / plain, '≤', 5);
				print(
					`add many in n8n: ${size} items, batch ${BATCH}, median of ${REPEAT}: node ${(node / 1000).toFixed(2)} s (${runs.map((run) => (run.nodeMs / 1000).toFixed(2)).join(' / ')}), ${runs[0].requests} requests, summary ${runs[0].summary}, peak RSS +${mb(Math.max(...runs.map((run) => run.growth)))} over idle; plain client ${(plain / 1000).toFixed(2)} s (${runs.map((run) => (run.plainMs / 1000).toFixed(2)).join(' / ')}); node / plain = ${(node / plain).toFixed(2)}`,
				);
				if (i === 0) await compareAt10k();
			}
			if (!PARTS.has('add')) await compareAt10k();
			for (let i = 1; i < nodeMs.length; i++)
				print(
					`add many ratio ${SIZES[i]}/${SIZES[i - 1]} items: ${(nodeMs[i] / nodeMs[i - 1]).toFixed(2)} (linear: ${(SIZES[i] / SIZES[i - 1]).toFixed(2)})`,
				);

			if (PARTS.has('send')) {
				sandbox.clearRequests();
				sandbox.configureChatapp({ callbackStatuses: ['QUEUE'] });
				// Bulk adds measure the node, not the network; the sends run against a platform LATENCY_MS
				// away.
				sandbox.setLatency(LATENCY_MS);
				const answer = await post(`${n8n.url}/webhook/send`, {});
				sandbox.setLatency(0);
				if (answer.status !== 200)
					throw new Error(`send: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
				const times = await nodeTimes(folder.n8nDir);
				const stored = sandbox.messages().map((message) => message.externalId);
				const sends = sandbox.requests.filter((request) =>
					request.path.endsWith('/chatapp/messages'),
				);
				const perSecond = MESSAGES / (times.Node / 1000);
				print(
					`send in n8n: ${MESSAGES} messages, ${LATENCY_MS} ms latency, sender rate ${RATE}/s: node ${(times.Node / 1000).toFixed(1)} s, ${perSecond.toFixed(1)} messages/s = ${((perSecond / RATE) * 100).toFixed(0)} % of the rate; ${sends.filter((r) => r.status === 429).length} answered 429, ${stored.length - new Set(stored).size} duplicates, ${MESSAGES - new Set(stored).size} lost`,
				);
				// The node and the stock node one after the other, REPEAT times (the order alternating):
				// medians.
				sandbox.setLatency(LATENCY_MS);
				const storedWith = (prefix: string) =>
					sandbox.messages().filter((message) => String(message.externalId).startsWith(prefix))
						.length;
				const refusedWith = (prefix: string) =>
					sandbox.requests.filter(
						(request) =>
							request.status === 429 &&
							String((request.body as { externalId?: string } | undefined)?.externalId).startsWith(
								prefix,
							),
					).length;
				const runs: Record<
					'ours' | 'theirs',
					Array<{ ms: number; stored: number; refused: number }>
				> = { ours: [], theirs: [] };
				try {
					for (let r = 0; r < REPEAT; r++) {
						for (const who of r % 2
							? (['theirs', 'ours'] as const)
							: (['ours', 'theirs'] as const)) {
							const prefix = who === 'ours' ? 'c' : 's';
							const [storedBefore, refusedBefore] = [storedWith(prefix), refusedWith(prefix)];
							// Each run starts in a second of its own: the previous run's last requests count
							// against the limit for up to 1 s.
							await new Promise((resolve) => setTimeout(resolve, 1500));
							const answer = await post(
								`${n8n.url}/webhook/${who === 'ours' ? 'send-20' : 'stock-send'}`,
								{},
							);
							if (answer.status !== 200)
								throw new Error(
									`send comparison (${who}): HTTP ${answer.status} ${answer.text.slice(0, 300)}`,
								);
							const ms = (await nodeTimes(folder.n8nDir))[who === 'ours' ? 'Node' : 'HTTP Request'];
							runs[who].push({
								ms,
								stored: storedWith(prefix) - storedBefore,
								refused: refusedWith(prefix) - refusedBefore,
							});
						}
					}
				} finally {
					sandbox.setLatency(0);
				}
				const rate = (ms: number) => COMPARED / (ms / 1000);
				const describe = (list: Array<{ ms: number; stored: number; refused: number }>) =>
					`${(median(list.map((x) => x.ms)) / 1000).toFixed(1)} s = ${rate(median(list.map((x) => x.ms))).toFixed(1)}/s (${list.map((x) => rate(x.ms).toFixed(1)).join(' / ')}), stored ${list.map((x) => x.stored).join(' / ')} of ${COMPARED}, 429s ${list.map((x) => x.refused).join(' / ')}`;
				target(
					`Send: node / stock HTTP Request with Batching, ${COMPARED} messages at ${COMPARED_RATE}/s (messages per second)`,
					median(runs.theirs.map((x) => x.ms)) / median(runs.ours.map((x) => x.ms)),
					'≥',
					1,
				);
				print(
					`send ${COMPARED} messages at ${COMPARED_RATE}/s, ${LATENCY_MS} ms latency, median of ${REPEAT}: the node (Messages per Second ${COMPARED_RATE}, Parallel Requests ${COMPARED_RATE}) ${describe(runs.ours)}; stock HTTP Request with Batching ${COMPARED_RATE} per 1 s ${describe(runs.theirs)} (its 429s are lost, not resent); node / stock = ${(median(runs.theirs.map((x) => x.ms)) / median(runs.ours.map((x) => x.ms))).toFixed(2)}`,
				);
			}
			for (const { what, value, bound, holds } of targets)
				print(`target: ${what} = ${value.toFixed(2)}, ${bound}: ${holds ? 'holds' : 'MISSED'}`);
			if (passTarget) {
				const { size, overFields, overStock } = passTarget;
				print(
					`target: Wallet Pass › Create, ${size.toLocaleString('en-US')} passes, Define Below with two $json references: ≤ 2× From Input Item Fields and faster than the stock Code + HTTP Request workflow: Define Below / From Input Item Fields = ${overFields.toFixed(2)} (≤ 2: ${overFields <= 2 ? 'holds' : 'MISSED'}), Define Below / stock = ${overStock.toFixed(2)} (< 1: ${overStock < 1 ? 'holds' : 'MISSED'}): ${overFields <= 2 && overStock < 1 ? 'holds' : 'MISSED'}`,
				);
			}
		} finally {
			await n8n.stop();
		}

		if (!PARTS.has('csv')) return;
		const fileBytes = readFileSync(csvFile).length;
		/**
		 * Peak RSS growth of a fresh n8n running one workflow (memory a previous run left resident
		 * would hide it), and the node times of that first run (the node's code not yet compiled by
		 * V8: a first file after n8n starts) and of a second run in the same n8n (as a long-lived
		 * n8n runs it).
		 */
		const runIn = async (mode: string, path: string) => {
			const csvN8n = await startN8n(folder, {
				webhooks: [{ path }],
				timeoutMs: 180_000,
				env: {
					N8N_DEFAULT_BINARY_DATA_MODE: mode,
					N8N_RESTRICT_FILE_ACCESS_TO: files,
					...(CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF}` } : {}),
				},
			});
			try {
				const csvPid = csvN8n.process.pid!;
				writeFileSync(`/proc/${csvPid}/clear_refs`, '5');
				const idle = procStatus(csvPid, 'VmRSS');
				const run = async () => {
					const answer = await post(`${csvN8n.url}/webhook/${path}`, {});
					if (answer.status !== 200)
						throw new Error(
							`${path} (${mode}): HTTP ${answer.status} ${answer.text.slice(0, 300)}`,
						);
					return await nodeTimes(folder.n8nDir);
				};
				const first = await run();
				const growth = procStatus(csvPid, 'VmHWM') - idle;
				const second = await run();
				return { growth, first, second };
			} finally {
				await csvN8n.stop();
			}
		};
		const middle = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
		for (const mode of CSV_MODES) {
			const readGrowth = (await runIn(mode, 'csv-read')).growth;
			// Side by side (issue 50): the stock upload, the check alone and the whole node, one after
			// the other, REPEAT times, each in a fresh n8n run twice; medians.
			const runs: Record<string, number[]> = {};
			const keep = (name: string, value: number) => (runs[name] ??= []).push(value);
			let stockBytes = 0;
			let uploaded = 0;
			let readMs = 0;
			for (let repeat = 0; repeat < REPEAT; repeat++) {
				sink.reset();
				const stock = await runIn(mode, 'csv-stock');
				stockBytes = sink.received() / 2;
				const check = await runIn(mode, 'csv-check');
				sink.reset();
				const whole = await runIn(mode, 'csv');
				uploaded = sink.received() / 2;
				readMs = whole.second.Generate;
				for (const [name, measured] of Object.entries({ stock, check, whole })) {
					keep(`${name}Growth`, measured.growth);
					keep(`${name}First`, measured.first.Node);
					keep(`${name}Second`, measured.second.Node);
				}
			}
			const m = Object.fromEntries(
				Object.entries(runs).map(([name, values]) => [name, middle(values)]),
			);
			const rate = (ms: number) => fileBytes / 1024 / 1024 / (ms / 1000);
			const seconds = (name: string) =>
				`${(m[name] / 1000).toFixed(2)} s (${runs[name].map((ms) => (ms / 1000).toFixed(2)).join(' / ')})`;
			print(
				`create from csv in n8n, ${mode} binary mode (${REPEAT} fresh n8n per workflow, each run twice; medians): ${mb(fileBytes)} file, ${mb(uploaded)} uploaded, read by Read/Write Files from Disk in ${(readMs / 1000).toFixed(1)} s. Second run (n8n warm): the whole node ${seconds('wholeSecond')}, the check alone (Preview Without Sending) ${seconds('checkSecond')} = ${rate(m.checkSecond).toFixed(0)} MB/s, the stock HTTP Request upload ${seconds('stockSecond')}, ${mb(stockBytes)} sent; whole / stock = ${(m.wholeSecond / m.stockSecond).toFixed(2)}. First run after n8n starts: the whole node ${seconds('wholeFirst')}, the check alone ${seconds('checkFirst')} = ${rate(m.checkFirst).toFixed(0)} MB/s, the stock upload ${seconds('stockFirst')}; whole / stock = ${(m.wholeFirst / m.stockFirst).toFixed(2)}. Peak RSS over idle (first run): the whole node +${mb(m.wholeGrowth)}, the check alone +${mb(m.checkGrowth)}, the stock upload +${mb(m.stockGrowth)}, the read alone +${mb(readGrowth)}`,
			);
			if (mode === 'filesystem') {
				target(
					'CSV check in n8n (warm), 190 MB, filesystem mode, read from the store included, MB/s',
					rate(m.checkSecond),
					'≥',
					300,
				);
				target(
					'Create From CSV (check + upload) time / the stock upload time (warm), filesystem mode',
					m.wholeSecond / m.stockSecond,
					'≤',
					1.5,
				);
				target(
					'Create From CSV (check + upload) time / the stock upload time (first run), filesystem mode',
					m.wholeFirst / m.stockFirst,
					'≤',
					1.5,
				);
				target(
					"Create From CSV (check + upload) peak RSS growth − the stock upload's, filesystem mode, MB",
					(m.wholeGrowth - m.stockGrowth) / 1024 / 1024,
					'≤',
					64,
				);
			}
		}
		for (const { what, value, bound, holds } of targets.filter((one) => one.what.includes('CSV')))
			print(`target: ${what}: ${value.toFixed(1)} ${bound}: ${holds ? 'met' : 'MISSED'}`);
	} finally {
		await Promise.all([sandbox.close(), sink.close(), folder.cleanup()]);
		rmSync(files, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
