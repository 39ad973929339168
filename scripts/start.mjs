// `npm start`: the platform sandbox and a real n8n with this package, a sandbox credential and the
// demo workflows, in a persistent folder; prints the editor URL and the login; Ctrl-C stops it all.
//
//   npm start [-- --port 5678 --sandbox-port 5680 --dir .demo] [-- --no-build]
//   env fallbacks: N8N_PORT, SANDBOX_PORT, DEMO_DIR
// --no-build packs dist/ as it is instead of building it first.
//
// When started with an IPC channel (the end-to-end test does), it also sends
// { type: 'ready', editorUrl, sandbox, login, dir, workflows } once ready.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, repoRoot, startDemoStack } from './demo-stack.mjs';

const { values } = parseArgs({
	options: {
		port: { type: 'string' },
		'sandbox-port': { type: 'string' },
		dir: { type: 'string' },
		'no-build': { type: 'boolean' },
	},
});
const port = (value, name, fallback) => {
	if (value === undefined || value === '') return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 1 || n > 65535) {
		console.error(`npm start: ${name} must be a port number (got "${value}")`);
		process.exit(2);
	}
	return n;
};
const n8nPort = port(values.port ?? process.env.N8N_PORT, 'N8N_PORT / --port', DEFAULT_PORTS.n8n);
const sandboxPort = port(
	values['sandbox-port'] ?? process.env.SANDBOX_PORT,
	'SANDBOX_PORT / --sandbox-port',
	DEFAULT_PORTS.sandbox,
);
const dir = resolve(values.dir ?? process.env.DEMO_DIR ?? resolve(repoRoot, '.demo'));
const log = (line) => console.log(`[start] ${line}`);

const controller = new AbortController();
log(`demo folder ${dir}`);
const starting = startDemoStack({
	dir,
	n8nPort,
	sandboxPort,
	build: !values['no-build'],
	log,
	signal: controller.signal,
});
let stopping = false;
async function shutdown(signal) {
	if (stopping) return;
	stopping = true;
	log(`${signal}: stopping n8n and the sandbox...`);
	controller.abort();
	// Once started: stop it; while starting: the aborted start stops what it started, then rejects.
	await starting.then(
		(stack) => stack.stop(),
		() => undefined,
	);
	log('stopped');
	process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGHUP', () => void shutdown('SIGHUP'));

let stack;
try {
	stack = await starting;
} catch (error) {
	if (stopping) await new Promise(() => {}); // shutdown() exits
	console.error(`\nnpm start failed: ${error.message}`);
	process.exit(1);
}

stack.n8nProcess.once('exit', async (code, signal) => {
	if (stopping) return;
	stopping = true;
	console.error(
		`\nn8n stopped on its own (${signal ?? `exit ${code}`}); see ${stack.n8nLogFile}. Stopping the sandbox.`,
	);
	await stack.stop();
	process.exit(1);
});

const { editorUrl, sandbox, login, workflows } = stack;
console.log(`
Ready in ${(stack.startedInMs / 1000).toFixed(1)} s.

  n8n editor   ${editorUrl}
  log in with  ${login.email} / ${login.password}
  sandbox      ${sandbox.url} (API key ${sandbox.apiKey}; state: ${sandbox.url}/__sandbox/state)

  Demo workflows and recipes: open one, then "Execute workflow"; without a browser, run
  \`npm run demo -- <key>\` in another terminal (e.g. npm run demo -- 3).
${workflows.map((w) => `    ${w.key.padEnd(4)}${w.name}${w.published ? ' (published: it runs on each callback)' : ''}`).join('\n')}

  n8n's log: ${stack.n8nLogFile}. Stop with Ctrl-C.
`);
process.send?.({ type: 'ready', editorUrl, sandbox, login, dir: stack.dir, workflows });
