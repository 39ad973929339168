// The "try it in the browser" stack behind `npm start`: the platform sandbox, a real n8n with
// this package installed as a community package, a credential pointing at the sandbox, the
// demo workflows of demo/workflows, and an owner account, all in one persistent user folder.
//
// It drives n8n with the end-to-end harness (test/e2e/n8n-harness.tsx, loaded through tsx), so
// n8n runs with the same environment here as in the tests. Every step that is already done in
// the folder is skipped (hashes in <dir>/demo-state.json), so a second start only boots n8n.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import {
	createWriteStream,
	existsSync,
	readFileSync,
	readdirSync,
	renameSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, dirname, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { seedDemoAccount } from './demo-account.mjs';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const workflowsDir = join(repoRoot, 'demo', 'workflows');

/**
 * The owner account created on first start (n8n's rules: 8+ characters, a digit, an uppercase
 * letter).
 */
export const DEMO_LOGIN = {
	email: 'demo@audience-messaging.local',
	password: 'Demo-Pass-2026',
	firstName: 'Demo',
	lastName: 'User',
};
export const SANDBOX_API_KEY = 'demo-sandbox-key';
/** Referenced by id and name from every demo workflow. */
export const DEMO_CREDENTIAL = {
	id: 'amDemoSandboxCrd',
	name: 'Audience Messaging (sandbox)',
	type: 'audienceMessagingApi',
};
/** The callback secret of demos 5a/5b (the trigger and the Send node share it). */
export const DEMO_CALLBACK_CREDENTIAL = {
	id: 'amDemoCallbackCrd',
	name: 'Audience Messaging callbacks (demo)',
	type: 'audienceMessagingCallbackApi',
	data: { secret: 'demo-callback-secret-2026' },
};
/**
 * The AI agent demo's chat model: the sandbox's scripted stand-in
 * (test/sandbox/scripted-model.tsx), no key, no internet.
 */
export const DEMO_MODEL_CREDENTIAL = {
	id: 'amDemoModelCred1',
	name: 'Scripted model (sandbox)',
	type: 'openAiApi',
};
export const DEFAULT_PORTS = { n8n: 5678, sandbox: 5680 }; // 5679 is n8n's task broker default
export const PLACEHOLDERS = { sandboxUrl: '__SANDBOX_URL__', n8nUrl: '__N8N_URL__' };

const TRIGGER_TYPE = 'n8n-nodes-audience-messaging.audienceMessagingTrigger';
const PACKAGE_INPUTS = [
	'nodes',
	'credentials',
	'src',
	'package.json',
	'README.md',
	'tsconfig.json',
	'scripts/build.mjs',
];

const sha256 = (...parts) => {
	const hash = createHash('sha256');
	for (const part of parts) hash.update(part).update('\0');
	return hash.digest('hex');
};
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

/**
 * Every file the packed package is made from, hashed: unchanged means the installed copy is
 * current.
 */
function packageInputsHash() {
	const files = [];
	const walk = (path) => {
		if (statSync(path).isDirectory())
			for (const name of readdirSync(path).sort()) walk(join(path, name));
		else files.push(path);
	};
	for (const input of PACKAGE_INPUTS)
		if (existsSync(join(repoRoot, input))) walk(join(repoRoot, input));
	return sha256(...files.flatMap((file) => [relative(repoRoot, file), readFileSync(file)]));
}

/** demo/workflows/*.json with the sandbox and n8n URLs filled in, in file-name order. */
export function loadDemoWorkflows({ sandboxUrl, n8nUrl }) {
	return readdirSync(workflowsDir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => {
			const text = readFileSync(join(workflowsDir, name), 'utf8')
				.replaceAll(PLACEHOLDERS.sandboxUrl, sandboxUrl)
				.replaceAll(PLACEHOLDERS.n8nUrl, n8nUrl);
			return { file: name, text, workflow: JSON.parse(text) };
		});
}

/** Production webhook paths of the Audience Messaging Triggers in a workflow. */
const triggerPaths = (workflow) =>
	workflow.nodes
		.filter((node) => node.type === TRIGGER_TYPE)
		.map((node) => `${node.webhookId}/callbacks`);

function assertPortFree(port, what) {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', (error) =>
			reject(
				new Error(
					error.code === 'EADDRINUSE'
						? `port ${port} (${what}) is in use: stop what uses it or choose another port (see docs/development.md, npm start)`
						: error.message,
				),
			),
		);
		server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
	});
}

/** Sends `signal` to a detached child's whole process group (n8n's task runner, tsx's worker). */
function killGroup(child, signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		/* already gone */
	}
}

/**
 * Runs a Node script with the terminal as its output; rejects on a non-zero exit; killed on abort.
 */
function runNode(args, { signal, label }) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, {
			cwd: repoRoot,
			stdio: ['ignore', 'inherit', 'inherit'],
		});
		const onAbort = () => child.kill('SIGTERM');
		signal?.addEventListener('abort', onAbort, { once: true });
		child.on('error', reject);
		child.on('exit', (code, sig) => {
			signal?.removeEventListener('abort', onAbort);
			if (code === 0) resolve();
			else reject(new Error(`${label} failed (${sig ?? `exit ${code}`})`));
		});
	});
}

/**
 * The sandbox CLI as a child process (its own process group); resolves once it printed its URLs.
 */
function startSandboxProcess({ port, logFile }) {
	const log = createWriteStream(logFile);
	const child = spawn(
		process.execPath,
		[
			'--import',
			'tsx',
			'test/sandbox/cli.tsx',
			'--port',
			String(port),
			'--api-key',
			SANDBOX_API_KEY,
			// As a platform does: Demo 9 shows what the sandbox got at n8n's link to the file.
			'--media-fetch',
		],
		{
			cwd: repoRoot,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		},
	);
	child.stderr.pipe(log);
	const exited = new Promise((resolve) => child.once('exit', resolve));
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		killGroup(child, 'SIGTERM');
		const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
		await exited;
		clearTimeout(timer);
	};
	return new Promise((resolve, reject) => {
		const lines = createInterface({ input: child.stdout });
		lines.once('line', (line) => {
			try {
				resolve({ ...JSON.parse(line), apiKey: SANDBOX_API_KEY, logFile, stop });
			} catch {
				void stop();
				reject(new Error(`the sandbox printed "${line}" instead of its URLs`));
			}
		});
		lines.on('line', (line) => log.write(`${line}\n`));
		child.once('exit', (code, signal) => {
			setTimeout(
				() => reject(new Error(`the sandbox exited (${signal ?? `exit ${code}`}); see ${logFile}`)),
				100,
			);
		});
	});
}

/** POST /rest/owner/setup once, so the editor opens on a login form rather than the set-up form. */
async function ensureOwner(url) {
	const settings = await (await fetch(`${url}/rest/settings`)).json();
	if (!settings.data?.userManagement?.showSetupOnFirstLoad) return false;
	const { email, password, firstName, lastName } = DEMO_LOGIN;
	const response = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email, firstName, lastName, password }),
	});
	if (!response.ok)
		throw new Error(`owner set-up answered ${response.status}: ${await response.text()}`);
	return true;
}

/** The table of Recipes 6a and 6b (docs/recipes.md): each message's latest status. */
const STATUS_TABLE = {
	name: 'message_statuses',
	columns: [
		...['messageId', 'campaign', 'recipient', 'status'].map((name) => ({ name, type: 'string' })),
		{ name: 'step', type: 'number' },
		{ name: 'statusDate', type: 'string' },
	],
};

/** Creates the Data table of Recipes 6a and 6b in the owner's project, as n8n's Data tables page does. */
async function ensureStatusTable(url) {
	const login = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ emailOrLdapLoginId: DEMO_LOGIN.email, password: DEMO_LOGIN.password }),
	});
	if (!login.ok) throw new Error(`login answered ${login.status}: ${await login.text()}`);
	const headers = {
		'content-type': 'application/json',
		cookie: login.headers
			.getSetCookie()
			.map((line) => line.split(';')[0])
			.join('; '),
	};
	const rest = async (path, body) => {
		const response = await fetch(`${url}/rest${path}`, {
			method: body ? 'POST' : 'GET',
			headers,
			body: body && JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
		return (await response.json()).data;
	};
	const project = await rest('/projects/personal');
	const tables = await rest(`/projects/${project.id}/data-tables`);
	const list = Array.isArray(tables) ? tables : (tables?.data ?? []);
	if (list.some((table) => table.name === STATUS_TABLE.name)) return 'already there';
	await rest(`/projects/${project.id}/data-tables`, STATUS_TABLE);
	return 'created';
}

/**
 * Brings the demo stack up in `dir` (an N8N_USER_FOLDER, created or reused) and resolves once the
 * editor can be used. Aborting `signal` (or calling `stop()`) stops n8n and the sandbox.
 * `log(line)` receives one line per step. `build: false` packs dist/ as it is (the tests, whose
 * command built it already and which must not rebuild it under other tests packing it).
 */
export async function startDemoStack({
	dir,
	n8nPort = DEFAULT_PORTS.n8n,
	sandboxPort = DEFAULT_PORTS.sandbox,
	build = true,
	log = console.log,
	signal,
} = {}) {
	const started = Date.now();
	const stoppers = []; // what runs, stopped last-started first
	let stopping; // one stop at a time; a later call also stops what started since
	const stop = () =>
		(stopping ??= (async () => {
			while (stoppers.length)
				await stoppers
					.pop()()
					.catch(() => undefined);
		})().finally(() => (stopping = undefined)));
	const onAbort = () => void stop();
	signal?.addEventListener('abort', onAbort, { once: true });
	const step = async (label, fn) => {
		signal?.throwIfAborted();
		const since = Date.now();
		const outcome = await fn();
		log(`${label}: ${outcome} (${seconds(since)})`);
	};

	try {
		await assertPortFree(n8nPort, 'n8n');
		await assertPortFree(sandboxPort, 'sandbox');
		await mkdir(dir, { recursive: true });
		const stateFile = join(dir, 'demo-state.json');
		const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : {};
		const saveState = () => writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);

		await step('n8n runtime', async () => {
			await runNode([join(repoRoot, 'test/n8n-runtime/install.mjs')], {
				signal,
				label: 'installing n8n',
			});
			return 'ready';
		});
		const { register } = await import('tsx/esm/api');
		register();
		const harness = await import(pathToFileURL(join(repoRoot, 'test/e2e/n8n-harness.tsx')).href);
		const folder = await harness.openUserFolder(dir);

		let sandbox;
		await step('sandbox', async () => {
			sandbox = await startSandboxProcess({ port: sandboxPort, logFile: join(dir, 'sandbox.log') });
			stoppers.push(sandbox.stop);
			return sandbox.url;
		});
		await step('sandbox account', async () =>
			seedDemoAccount({ ...sandbox, apiKey: SANDBOX_API_KEY }),
		);

		await step('package', async () => {
			const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
			const installed = existsSync(join(folder.nodesDir, 'node_modules', pkg.name, 'package.json'));
			const inputsHash = build ? packageInputsHash() : null; // without a build, dist/ may not match the sources
			if (build && installed && state.package?.inputsHash === inputsHash) return 'unchanged, kept';
			if (build) await runNode([join(repoRoot, 'scripts/build.mjs')], { signal, label: 'build' });
			const packDir = join(dir, 'package');
			const tarball = await harness.packPackage(repoRoot, packDir);
			const tarballHash = sha256(readFileSync(tarball));
			if (installed && state.package?.tarballHash === tarballHash) {
				rmSync(tarball);
				state.package.inputsHash = inputsHash;
				saveState();
				return `${build ? 'built' : 'packed'}, same tarball as installed, kept`;
			}
			// A new file name per content, so npm never reuses the copy it installed before.
			const named = tarball.replace(/\.tgz$/, `-${tarballHash.slice(0, 12)}.tgz`);
			renameSync(tarball, named);
			await harness.installCommunityPackage(folder, named);
			for (const old of readdirSync(packDir))
				if (join(packDir, old) !== named) rmSync(join(packDir, old), { force: true });
			state.package = { inputsHash, tarballHash, tarball: basename(named) };
			saveState();
			return `${build ? 'built, ' : ''}packed and installed into ${folder.nodesDir}`;
		});

		const n8nUrl = `http://127.0.0.1:${n8nPort}`;
		await step(`credential "${DEMO_CREDENTIAL.name}"`, async () => {
			const data = {
				apiKey: SANDBOX_API_KEY,
				listsBaseUrl: sandbox.listsBaseUrl,
				walletBaseUrl: sandbox.walletBaseUrl,
				baseUrl: sandbox.baseUrl,
			};
			const model = {
				...DEMO_MODEL_CREDENTIAL,
				data: { apiKey: 'scripted-model-needs-no-key', url: `${sandbox.url}/__sandbox/model/v1` },
			};
			const hash = sha256(
				JSON.stringify([{ ...DEMO_CREDENTIAL, data }, DEMO_CALLBACK_CREDENTIAL, model]),
			);
			if (state.credentialHash === hash) return 'unchanged';
			await harness.importCredentials(folder, [
				{ ...DEMO_CREDENTIAL, data },
				DEMO_CALLBACK_CREDENTIAL,
				model,
			]);
			state.credentialHash = hash;
			saveState();
			return `imported (sandbox ${sandbox.url})`;
		});

		const demos = loadDemoWorkflows({ sandboxUrl: sandbox.url, n8nUrl });
		const published = demos
			.filter((demo) => demo.workflow.active === true)
			.map((demo) => demo.workflow);
		await step('demo workflows', async () => {
			const hash = sha256(...demos.flatMap((demo) => [demo.file, demo.text]));
			if (state.workflowsHash === hash) return `${demos.length} unchanged`;
			// By n8n's own import: a user's folder holds only what n8n wrote.
			await harness.importWorkflows(
				folder,
				demos.map((demo) => ({ ...demo.workflow, active: false })),
				{ viaCli: true },
			);
			for (const workflow of published) await harness.publishWorkflow(folder, workflow.id);
			state.workflowsHash = hash;
			saveState();
			return `${demos.length} imported, ${published.length} published`;
		});

		// Left by an n8n that was killed rather than stopped; n8n would wait 10 s at start because of
		// it.
		const crashJournal = join(folder.n8nDir, 'crash.journal');
		if (existsSync(crashJournal)) {
			log('n8n: the previous session did not stop cleanly (removing its crash journal)');
			rmSync(crashJournal);
		}
		const logFile = join(dir, 'n8n.log');
		const n8nLog = createWriteStream(logFile);
		let n8n;
		await step('n8n', async () => {
			log(`n8n: starting on port ${n8nPort} (log: ${logFile})...`);
			n8n = await harness.startN8n(folder, {
				port: n8nPort,
				logLevel: 'info',
				// instance-ai: n8n's AI assistant preview, which the editor otherwise opens on after login.
				// Binary data on disk (n8n 2.x's default; n8n 1.x keeps it in memory, where Demo 9's file
				// could not be given a link).
				env: {
					N8N_LOG_FORMAT: 'text',
					N8N_DISABLED_MODULES: 'mcp-registry,instance-ai',
					N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
				},
				webhooks: published.flatMap(triggerPaths).map((path) => ({ path, method: 'POST' })),
				onOutput: (chunk) => n8nLog.write(chunk),
				signal,
			});
			stoppers.push(async () => {
				await n8n.stop();
				n8nLog.end();
			});
			return `ready at ${n8n.url}`;
		});

		await step('owner account', async () =>
			(await ensureOwner(n8n.url)) ? `created (${DEMO_LOGIN.email})` : 'already set up',
		);
		await step(`Data table "${STATUS_TABLE.name}" (Recipes 6a, 6b)`, () =>
			ensureStatusTable(n8n.url),
		);
		signal?.throwIfAborted();
		return {
			dir,
			editorUrl: n8n.url,
			n8nLogFile: logFile,
			/** The `n8n start` process, e.g. to notice it stopping on its own. */
			n8nProcess: n8n.process,
			sandbox: {
				url: sandbox.url,
				listsBaseUrl: sandbox.listsBaseUrl,
				walletBaseUrl: sandbox.walletBaseUrl,
				baseUrl: sandbox.baseUrl,
				apiKey: SANDBOX_API_KEY,
			},
			login: { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password },
			workflows: demos.map(({ file, workflow }) => ({
				/** What `npm run demo --` takes: the file name's start (3, 5b, r2). */
				key: file.split('-')[0],
				id: workflow.id,
				name: workflow.name,
				published: workflow.active === true,
			})),
			startedInMs: Date.now() - started,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
