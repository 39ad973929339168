// The test command (`npm test`, called by .ci/run): build, make sure the real n8n (and the
// browser and queue services) the end-to-end tests use are installed, then every jest project,
// while the checks (lint, format, lint of the tests, typecheck) run one after another beside it.
// jest's first minute (packing the package, n8n's first start-ups) leaves about a core idle: the
// checks fill it instead of running before it (about 45 s of one core on the 2-core CI machine).
// Stops at the first failure; a failing check stops jest too, its output printed.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// Resolve a package's own file without going through its "exports" map.
const bin = (pkg, file) => join(dirname(require.resolve(`${pkg}/package.json`)), file);
const node = process.execPath;
const jestArgs = process.argv.slice(2);

const before = [
	['build', [join(root, 'scripts/build.mjs')]],
	['n8n runtime', [join(root, 'test/n8n-runtime/install.mjs')]],
	['chromium', [join(root, 'scripts/ensure-chromium.mjs')]],
	// Debian's redis-server and postgresql for the queue-mode end-to-end test (apt, when missing).
	['queue services', [join(root, 'scripts/ensure-queue-services.mjs')]],
];
const checks = [
	// n8n's own lint for community nodes (n8n-node lint: eslint.config.mjs, shipped code).
	['lint', [join(root, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint']],
	// Formatting: prettier with n8n's node-starter settings (.prettierrc.js); `npm run format` fixes it.
	['format', [bin('prettier', 'bin/prettier.cjs'), '--check', '.']],
	// The tests, the sandbox, benchmarks and scripts: their own config (eslint.tests.config.mjs).
	[
		'lint tests',
		[
			bin('eslint', 'bin/eslint.js'),
			'-c',
			'eslint.tests.config.mjs',
			'test',
			'scripts',
			'jest.config.js',
			'eslint.config.mjs',
			'eslint.tests.config.mjs',
		],
	],
	['typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.test.json']],
];
/** The summary's order: the steps as they were once run one after another. */
const ORDER = ['build', ...checks.map(([name]) => name), ...before.slice(1).map(([name]) => name)];

const results = new Map();
const seconds = (started) => ((Date.now() - started) / 1000).toFixed(1);
const record = (name, ok, started) =>
	results.set(name, `${name} ${ok ? 'ok' : 'FAILED'} (${seconds(started)}s)`);
function finish(status) {
	const summary = [...ORDER, 'jest']
		.filter((name) => results.has(name))
		.map((name) => results.get(name));
	const on = status === 0 ? ` on Node ${process.version}` : '';
	console.log(`\nTEST SUMMARY: ${summary.join(', ')}${on}`);
	process.exit(status);
}

for (const [name, args] of before) {
	const started = Date.now();
	console.log(`\n=== ${name} ===`);
	const result = spawnSync(node, args, { cwd: root, stdio: 'inherit', env: process.env });
	record(name, result.status === 0, started);
	if (result.status !== 0) finish(result.status ?? 1);
}

/** The check running now, stopped with jest. */
let running;
/** Runs a check with its output kept; prints it when the check fails. Resolves to its success. */
function check([name, args]) {
	const started = Date.now();
	return new Promise((resolve) => {
		// A group of its own too: n8n-node lint runs ESLint in a process of its own.
		const child = (running = spawn(node, args, { cwd: root, env: process.env, detached: true }));
		const output = [];
		child.stdout.on('data', (chunk) => output.push(chunk));
		child.stderr.on('data', (chunk) => output.push(chunk));
		child.on('error', (error) => output.push(Buffer.from(String(error))));
		child.on('close', (code) => {
			record(name, code === 0, started);
			console.log(`\n=== ${results.get(name)}, beside jest ===`);
			if (code !== 0) process.stdout.write(Buffer.concat(output));
			resolve(code === 0);
		});
	});
}

console.log(`\n=== jest, with ${checks.map(([name]) => name).join(', ')} beside it ===`);
const jestStarted = Date.now();
// In a process group of its own, so that a failing check stops its workers too; a stop of this
// command (Ctrl-C, SIGTERM) is passed on to it.
const jest = spawn(node, [bin('jest', 'bin/jest.js'), '--ci', ...jestArgs], {
	cwd: root,
	stdio: 'inherit',
	env: process.env,
	detached: true,
});
const stop = (child, signal) => {
	try {
		process.kill(-child.pid, signal);
	} catch {
		// Already ended.
	}
};
let stopped = false;
for (const signal of ['SIGINT', 'SIGTERM'])
	process.on(signal, () => {
		stopped = true;
		stop(jest, signal);
		if (running) stop(running, signal);
	});
const jestEnded = new Promise((resolve) =>
	jest.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
);
let checksOk = true;
for (const step of checks) {
	if (stopped || !(await check(step))) {
		checksOk = false;
		stop(jest, 'SIGTERM');
		break;
	}
}
const jestStatus = await jestEnded;
if (checksOk) record('jest', jestStatus === 0, jestStarted);
finish(!checksOk ? 1 : jestStatus);
