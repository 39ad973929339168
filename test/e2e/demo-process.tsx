/** `npm start`'s script as a child process, for the tests that need the whole demo stack. */
import { spawn } from 'child_process';
import type { ChildProcess } from 'child_process';

import { repoRoot } from './n8n-harness';

export interface Ready {
	type: 'ready';
	editorUrl: string;
	sandbox: { url: string; apiKey: string };
	login: { email: string; password: string };
	dir: string;
	workflows: Array<{ id: string; name: string; published: boolean }>;
}

export interface RunningStack {
	child: ChildProcess;
	ready: Ready;
	output: () => string;
	startedInMs: number;
}

/**
 * `node scripts/start.mjs --no-build` (the test command built dist/ already) until it reports ready
 * over IPC.
 */
export function startStack(env: Record<string, string>): Promise<RunningStack> {
	const started = Date.now();
	const child = spawn(process.execPath, ['scripts/start.mjs', '--no-build'], {
		cwd: repoRoot,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
	});
	let output = '';
	child.stdout!.on('data', (d: Buffer) => (output += d));
	child.stderr!.on('data', (d: Buffer) => (output += d));
	return new Promise((resolve, reject) => {
		child.on('message', (message: Ready) => {
			if (message?.type === 'ready')
				resolve({ child, ready: message, output: () => output, startedInMs: Date.now() - started });
		});
		child.on('exit', (code, signal) =>
			reject(new Error(`start.mjs exited (${signal ?? code}) before it was ready:\n${output}`)),
		);
	});
}

/**
 * `npm start -- --no-build` as a process manager runs it: npm's own process, its output read until
 * it says Ready (npm gives its script no IPC channel). Resolves with npm's process and the URLs.
 */
export function startWithNpm(env: Record<string, string>): Promise<{
	npm: ChildProcess;
	editorUrl: string;
	sandboxUrl: string;
	output: () => string;
}> {
	const npm = spawn('npm', ['start', '--', '--no-build'], {
		cwd: repoRoot,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	return new Promise((resolve, reject) => {
		const read = (chunk: Buffer) => {
			output += chunk;
			const editor = /n8n editor\s+(\S+)/.exec(output)?.[1];
			const sandbox = /sandbox\s+(http\S+)/.exec(output)?.[1];
			if (/Ready in/.test(output) && editor && sandbox)
				resolve({ npm, editorUrl: editor, sandboxUrl: sandbox, output: () => output });
		};
		npm.stdout!.on('data', read);
		npm.stderr!.on('data', read);
		npm.on('exit', (code, signal) =>
			reject(new Error(`npm start exited (${signal ?? code}) before it was ready:\n${output}`)),
		);
	});
}

/** Ctrl-C: SIGINT to start.mjs; resolves with its exit code. */
export async function stopStack(stack: RunningStack): Promise<number | null> {
	if (stack.child.exitCode !== null) return stack.child.exitCode;
	const exited = new Promise<number | null>((resolve) =>
		stack.child.once('exit', (code) => resolve(code)),
	);
	stack.child.kill('SIGINT');
	return await exited;
}

/** A browser session of the demo owner: the auth cookie is bound to the browser-id header. */
export async function logIn(
	ready: Ready,
): Promise<{ status: number; email?: string; headers: Record<string, string> }> {
	const browserId = 'demo-e2e-browser';
	const response = await fetch(`${ready.editorUrl}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': browserId },
		body: JSON.stringify({ emailOrLdapLoginId: ready.login.email, password: ready.login.password }),
	});
	const body = (await response.json()) as { data?: { email?: string } };
	const cookie = response.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	return {
		status: response.status,
		email: body.data?.email,
		headers: { cookie, 'browser-id': browserId, 'content-type': 'application/json' },
	};
}
