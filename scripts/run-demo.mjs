// `npm run demo -- <demo>`: runs a demo workflow of a running `npm start` through n8n's REST API,
// as the editor's "Execute workflow" does, and prints how it ended and what the sandbox received.
// For a terminal without a browser (a server, SSH).
//
//   npm run demo -- 3              Demo 3 (a demo's number or the start of its file name: 5b, 8)
//   npm run demo -- 8 --approve    answers Demo 8's question (--decline declines); without either,
//                                  it prints the links and waits for someone to answer
//   npm run demo -- r5             a run that waits for a time (Recipe 5's Wait node) is left
//                                  waiting in n8n, which resumes it then; --stop stops it instead
//   npm run demo -- list           the demos it can run
//   --port 5678 --sandbox-port 5680 (or N8N_PORT, SANDBOX_PORT), as given to npm start
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, DEMO_LOGIN, workflowsDir } from './demo-stack.mjs';

const USAGE = `Usage: npm run demo -- <key> [--approve | --decline | --stop] [--port N] [--sandbox-port N]

  <key>            a demo or recipe, as npm start lists them: 3, 5b, 8, r2 (list: all of them)
  --approve        Demo 8 or Recipe 3: answer the question as the person, approving
  --decline        the same, declining (without either, it prints the links and waits)
  --stop           Recipe 5: stop the execution when it waits for a time (without it, the
                   execution is left waiting in n8n, which resumes it then)
  --port, --sandbox-port
                   the ports npm start was given, if not 5678 and 5680 (or N8N_PORT, SANDBOX_PORT)

It needs npm start running (in another terminal). It starts a new run of the workflow, as the
editor's Execute workflow does, and prints how it ended and what the sandbox received.`;

let values;
let positionals;
try {
	({ values, positionals } = parseArgs({
		allowPositionals: true,
		options: {
			port: { type: 'string' },
			'sandbox-port': { type: 'string' },
			approve: { type: 'boolean' },
			decline: { type: 'boolean' },
			stop: { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
		},
	}));
} catch (error) {
	console.error(`npm run demo: ${error.message}\n\n${USAGE}`);
	process.exit(2);
}
if (values.help) {
	console.log(USAGE);
	process.exit(0);
}
const fail = (message) => {
	console.error(`npm run demo: ${message}`);
	process.exit(1);
};
const n8nUrl = `http://127.0.0.1:${values.port ?? process.env.N8N_PORT ?? DEFAULT_PORTS.n8n}`;
const sandboxUrl = `http://127.0.0.1:${
	values['sandbox-port'] ?? process.env.SANDBOX_PORT ?? DEFAULT_PORTS.sandbox
}`;
const PHONE =
	'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36';
const MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
const WAIT_LIMIT_MS = 15 * 60_000;

const demos = readdirSync(workflowsDir)
	.filter((name) => name.endsWith('.json'))
	.sort()
	.map((file) => ({ file, workflow: JSON.parse(readFileSync(join(workflowsDir, file), 'utf8')) }))
	.filter(({ workflow }) => workflow.nodes.some((node) => node.type === MANUAL_TRIGGER));
const choices = demos.map(({ file, workflow }) => `  ${file.split('-')[0]}  ${workflow.name}`);
const wanted = positionals[0];
if (!wanted || wanted === 'list') {
	console.log(`${USAGE}\n\nDemos and recipes:\n${choices.join('\n')}`);
	process.exit(wanted ? 0 : 2);
}
const demo = demos.find(({ file }) => file === wanted || file.startsWith(`${wanted}-`));
if (!demo) fail(`no demo "${wanted}" to run; these are:\n${choices.join('\n')}`);
const { workflow } = demo;

async function call(url, init = {}, what = url) {
	try {
		return await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
	} catch (error) {
		fail(
			`nothing answers at ${what} (${error.cause?.code ?? error.message}). Start the demo with ` +
				'`npm start` in another terminal and wait for "Ready", then run this again. If npm start ' +
				'was given other ports, give them here too: --port N --sandbox-port N.',
		);
	}
}
const sandboxState = async () =>
	await (await call(`${sandboxUrl}/__sandbox/state`, {}, sandboxUrl)).json();

/** Where the session is kept between runs: n8n allows only a few logins a minute. */
const sessionFile = join(tmpdir(), `am-npm-run-demo-${new URL(n8nUrl).port}.json`);
const HEADERS = { 'content-type': 'application/json', 'browser-id': 'npm-run-demo' };

/** The demo owner's session (npm start's login): the one kept if n8n still takes it. */
async function logIn() {
	try {
		const kept = { ...HEADERS, cookie: JSON.parse(readFileSync(sessionFile, 'utf8')).cookie };
		if ((await call(`${n8nUrl}/rest/login`, { headers: kept }, n8nUrl)).status === 200) return kept;
	} catch {
		/* none kept, or no longer valid: log in */
	}
	const login = () =>
		call(
			`${n8nUrl}/rest/login`,
			{
				method: 'POST',
				headers: HEADERS,
				body: JSON.stringify({
					emailOrLdapLoginId: DEMO_LOGIN.email,
					password: DEMO_LOGIN.password,
				}),
			},
			n8nUrl,
		);
	let response = await login();
	if (response.status === 429) {
		const seconds = Math.min(Number(response.headers.get('retry-after')) || 60, 120);
		console.log(`n8n allows only a few logins a minute; trying again in ${seconds} s...`);
		await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
		response = await login();
	}
	if (response.status !== 200)
		fail(`n8n at ${n8nUrl} refused the demo login (HTTP ${response.status}): is it npm start's?`);
	const cookie = response.headers
		.getSetCookie()
		.map((value) => value.split(';')[0])
		.join('; ');
	writeFileSync(sessionFile, JSON.stringify({ cookie }), { mode: 0o600 });
	return { ...HEADERS, cookie };
}

/** n8n stores run data as "flatted" JSON: every string and object is an index into one array. */
function unflatten(text) {
	const input = JSON.parse(text);
	const done = new Map();
	const at = (index) => {
		const value = input[index];
		if (typeof value !== 'object' || value === null) return value;
		if (done.has(index)) return done.get(index);
		const out = Array.isArray(value) ? [] : {};
		done.set(index, out);
		for (const [key, entry] of Object.entries(value))
			out[key] = typeof entry === 'string' ? at(Number(entry)) : entry;
		return out;
	};
	return at(0);
}

const short = (value, max = 150) => {
	const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' ');
	return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** What the sandbox holds now that it did not hold `before`, one line per entry. */
function received(before, after) {
	const lines = [];
	const fresh = (list = [], old = []) => {
		const seen = new Set(old.map((entry) => entry.id ?? JSON.stringify(entry)));
		return list.filter((entry) => !seen.has(entry.id ?? JSON.stringify(entry)));
	};
	for (const list of fresh(after.lists, before.lists))
		lines.push(`list ${list.id} "${list.name}": ${list.subscribers?.length ?? 0} subscribers`);
	for (const pass of fresh(after.walletPasses, before.walletPasses))
		lines.push(`wallet pass ${short(pass, 120)}`);
	for (const entry of fresh(after.blacklist, before.blacklist))
		lines.push(`blacklist ${short(entry, 120)}`);
	for (const sender of fresh(after.chatapp?.senders, before.chatapp?.senders))
		lines.push(`sender ${sender.address ?? ''} ${sender.state ?? ''}`.trim());
	for (const message of fresh(after.chatapp?.messages, before.chatapp?.messages)) {
		// What the message says: the text, or the request without what the line already shows.
		const content = Object.fromEntries(
			Object.entries(message.request ?? {}).filter(
				([key]) => !['from', 'to', 'type', 'externalId'].includes(key),
			),
		);
		const shown =
			message.type === 'text' ? short(String(content.body ?? ''), 110) : short(content, 110);
		lines.push(`message to ${message.to} (${message.type}, ${message.status}): ${shown}`);
	}
	const callbacks = fresh(after.callbacks, before.callbacks).length;
	if (callbacks) lines.push(`${callbacks} status callbacks sent to n8n`);
	return lines;
}

/** Answers Send and Wait for Response as a person: opens the link, presses the page's button. */
async function answer(link) {
	const opened = await call(link, { headers: { 'user-agent': PHONE } });
	const page = await opened.text();
	if (!page.includes('<form method="post"')) return `the link answered at once (${opened.status})`;
	const pressed = await call(link, {
		method: 'POST',
		headers: { 'user-agent': PHONE, 'content-type': 'application/x-www-form-urlencoded' },
		body: 'confirm=yes',
	});
	return `pressed the page's button (HTTP ${pressed.status})`;
}

const before = await sandboxState();
const headers = await logIn();
const trigger = workflow.nodes.find((node) => node.type === MANUAL_TRIGGER);
console.log(`Running "${workflow.name}" in n8n at ${n8nUrl}...`);
const started = await call(`${n8nUrl}/rest/workflows/${workflow.id}/run`, {
	method: 'POST',
	headers,
	body: JSON.stringify({ triggerToStartFrom: { name: trigger.name } }),
});
const executionId = (await started.json())?.data?.executionId;
if (!executionId)
	fail(
		`n8n did not start the workflow (HTTP ${started.status}): is it imported? Restart npm start.`,
	);

const deadline = Date.now() + WAIT_LIMIT_MS;
let asked = false;
let execution;
for (;;) {
	const response = await call(`${n8nUrl}/rest/executions/${executionId}`, { headers });
	execution = (await response.json()).data;
	if (execution && !['new', 'running', 'waiting'].includes(execution.status)) break;
	if (execution?.status === 'waiting' && !asked) {
		asked = true;
		const messages = (await sandboxState()).chatapp?.messages ?? [];
		const links = messages
			.flatMap((message) => String(message.request?.body ?? '').match(/https?:\/\/\S+/g) ?? [])
			.filter((link) => link.includes(`/webhook-waiting/${executionId}/`));
		// No answer links: a Wait node waits for a time (Recipe 5), and n8n resumes it by itself.
		if (links.length === 0) {
			const until = execution.waitTill ? new Date(execution.waitTill).toISOString() : 'later';
			if (values.stop) {
				const stopped = await call(`${n8nUrl}/rest/executions/${executionId}/stop`, {
					method: 'POST',
					headers,
				});
				console.log(`The execution waited until ${until}: stopped (HTTP ${stopped.status}).`);
				continue;
			}
			console.log(
				`The execution waits in n8n until ${until} (UTC), then goes on by itself and sends what` +
					` it held. It stays in n8n's executions list as Waiting until then; stop it there, or` +
					` run with --stop to stop such a wait at once. What it did so far:`,
			);
			break;
		}
		console.log('The execution waits for an answer to the message with these links:');
		for (const link of links) console.log(`  ${link}`);
		const choice = values.approve ? 'approved=true' : values.decline ? 'approved=false' : '';
		const link = choice && links.find((candidate) => candidate.includes(choice));
		if (link) console.log(`Answering as the person (${choice}): ${await answer(link)}`);
		else
			console.log(
				'Open the approve or decline link in a browser and press its button, or run this again' +
					' with --approve or --decline. Waiting (Ctrl-C stops waiting; n8n keeps the execution)...',
			);
	}
	if (Date.now() > deadline) fail(`execution ${executionId} did not end within 15 minutes`);
	await new Promise((resolve) => setTimeout(resolve, 500));
}

const runData = unflatten(execution.data)?.resultData?.runData ?? {};
console.log(`\nExecution ${executionId}: ${execution.status}`);
for (const [node, runs] of Object.entries(runData)) {
	const last = runs.at(-1);
	const items = last?.data?.main?.[0] ?? [];
	const error = last?.error?.message;
	const first = items[0]?.json;
	// The items' `status` values, counted ("3 sentBefore"): what a run did at a glance.
	const statuses = Object.entries(
		items.reduce((counts, item) => {
			const status = item.json?.status;
			if (typeof status === 'string') counts[status] = (counts[status] ?? 0) + 1;
			return counts;
		}, {}),
	).map(([status, count]) => `${count} ${status}`);
	const count = `${items.length} item${items.length === 1 ? '' : 's'}`;
	console.log(
		`  ${node}: ${error ? `error: ${error}` : count}` +
			(statuses.length && !error ? ` (${statuses.join(', ')})` : '') +
			(first && !error ? `, first ${short(first, 110)}` : ''),
	);
}
const lines = received(before, await sandboxState());
console.log(`\nWhat the sandbox received (state: ${sandboxUrl}/__sandbox/state):`);
console.log(lines.length ? lines.map((line) => `  ${line}`).join('\n') : '  nothing');
// A wait left in n8n, or one stopped as asked, is how such a run ends here.
const ended = ['success', 'waiting', ...(values.stop ? ['canceled'] : [])];
process.exit(ended.includes(execution.status) ? 0 : 1);
