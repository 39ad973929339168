// The compatibility matrix (`npm run test:matrix`): for each n8n version with a committed runtime
// (test/n8n-runtime/package.json, the pinned default, and test/n8n-runtime/versions/<version>/),
// check it lies in the range package.json declares (engines.n8n), install that n8n if needed
// (test/n8n-runtime/install.mjs, cached), then run the package's end-to-end tests against it: the
// smoke test (one workflow per resource and the trigger round trip) and the other package tests
// that do not depend on the version. One summary line per version, then `MATRIX SUMMARY:`; exits
// non-zero if any version fails.
//
//   npm run test:matrix                                   every version, newest first
//   npm run test:matrix -- --versions 2.41.1,1.123.81     some of them
//   npm run test:matrix -- --smoke-only                   the smoke test only
//   npm run test:matrix -- --check                        only the static checks (no n8n): every
// version is in engines.n8n, has a lockfile,
// and is a job of .github/workflows/matrix.yml
//
// Each version's jest output is also written to test/artifacts/matrix/n8n-<version>.log.
// Not part of `npm test` (which runs everything, the smoke test included, on the pinned version).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import {
	availableVersions,
	compareVersions,
	defaultN8nVersion,
	runtimeDir,
	runtimeSource,
} from '../test/n8n-runtime/paths.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const node = process.execPath;
const jestBin = join(dirname(require.resolve('jest/package.json')), 'bin', 'jest.js');
const WORKFLOW = '.github/workflows/matrix.yml';

/**
 * The package tests run on every version: they drive n8n through the harness only, nothing
 * version-specific.
 */
export const MATRIX_TESTS = [
	'test/e2e/smoke.e2e.test.tsx',
	'test/e2e/lists.e2e.test.tsx',
	'test/e2e/wallet.e2e.test.tsx',
	'test/e2e/chatapp.e2e.test.tsx',
	'test/e2e/blacklist.e2e.test.tsx',
	'test/e2e/trigger.e2e.test.tsx',
	'test/e2e/credential.e2e.test.tsx',
	'test/e2e/send-and-wait.e2e.test.tsx',
	'test/e2e/send-once.e2e.test.tsx',
];

// ------------------------------------------------------------------ a tiny semver range check

/**
 * Whether `version` satisfies `range`: comparators (`>=1.2.3`, `<3.0.0`, `=2.0.0`, `2.0.0`)
 * separated by spaces (all must hold), alternatives separated by `||`. Enough for engines.n8n.
 */
export function satisfies(version, range) {
	return range.split('||').some((alternative) =>
		alternative
			.trim()
			.split(/\s+/)
			.filter(Boolean)
			.every((comparator) => {
				const m = /^(>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
				const c = compareVersions(version, m[2]);
				return { '>=': c >= 0, '<=': c <= 0, '>': c > 0, '<': c < 0, '=': c === 0 }[m[1] ?? '='];
			}),
	);
}

// ------------------------------------------------------------------ checks without n8n

/** Problems of one version's set-up (empty when fine): range, committed files, CI job. */
function staticProblems(version, { range, workflowVersions }) {
	const problems = [];
	if (!range) problems.push('package.json declares no engines.n8n');
	else if (!satisfies(version, range))
		problems.push(`n8n ${version} is outside package.json engines.n8n "${range}"`);
	let source;
	try {
		source = runtimeSource(version);
	} catch (e) {
		problems.push(e.message);
		return problems;
	}
	if (!existsSync(source.lockfilePath))
		problems.push(
			`${relative(root, source.lockfilePath)} is missing (installs would not be reproducible)`,
		);
	else {
		const lock = JSON.parse(readFileSync(source.lockfilePath, 'utf8'));
		const locked = lock.packages?.['node_modules/n8n']?.version;
		if (locked !== version)
			problems.push(`${relative(root, source.lockfilePath)} locks n8n ${locked}, not ${version}`);
	}
	if (workflowVersions && !workflowVersions.includes(version))
		problems.push(`${WORKFLOW} has no job for n8n ${version}`);
	return problems;
}

/** The versions listed by `n8n: [...]` in the CI workflow's strategy.matrix, or undefined. */
function workflowMatrixVersions() {
	const file = join(root, WORKFLOW);
	if (!existsSync(file)) return undefined;
	const m = /^\s*n8n:\s*\[([^\]]*)\]/m.exec(readFileSync(file, 'utf8'));
	return m
		? m[1]
				.split(',')
				.map((v) => v.trim().replace(/^['"]|['"]$/g, ''))
				.filter(Boolean)
		: undefined;
}

// ------------------------------------------------------------------ running

const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
const human = (ms) =>
	ms >= 60_000
		? `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`
		: secs(ms);

/**
 * Runs a command, its output to the terminal and (when given) to a log; resolves with exit code and
 * output.
 */
function run(cmd, args, { env, log }) {
	return new Promise((resolvePromise) => {
		const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		const onData = (stream) => (d) => {
			out += d;
			stream.write(d);
			log?.write(d);
		};
		child.stdout.on('data', onData(process.stdout));
		child.stderr.on('data', onData(process.stderr));
		child.on('error', (e) =>
			resolvePromise({ code: 127, out: `${out}\ncannot run ${cmd}: ${e.message}` }),
		);
		child.on('close', (code, signal) => resolvePromise({ code: code ?? (signal ? 128 : 1), out }));
	});
}

function diskUse(dir) {
	const du = spawnSync('du', ['-sk', dir], { encoding: 'utf8' });
	const kb = Number(du.stdout?.split('\t')[0]);
	return Number.isFinite(kb) && kb > 0 ? `${(kb / 1024 / 1024).toFixed(2)} GB` : 'unknown';
}

/** "Tests: 1 failed, 40 passed, 41 total" of jest's summary, without colours. */
function jestCounts(out) {
	const plain = out.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
	const line = plain
		.split('\n')
		.filter((l) => /^Tests:\s/.test(l))
		.pop();
	return line ? line.replace(/^Tests:\s+/, '').trim() : 'no jest summary';
}

async function runVersion(version, { tests, checks }) {
	const started = Date.now();
	const env = { ...process.env, N8N_VERSION: version };
	const line = (status, details) => ({
		version,
		ok: status === 'ok',
		text: `n8n ${version}: ${status} (${details.join(', ')}, ${human(Date.now() - started)} in all)`,
	});
	console.log(`\n=== n8n ${version} ===`);

	const problems = staticProblems(version, checks);
	if (problems.length) {
		for (const p of problems) console.error(`[matrix] ${p}`);
		return line('FAILED', [`set-up: ${problems.join('; ')}`]);
	}

	const installStarted = Date.now();
	const install = await run(node, [join(root, 'test/n8n-runtime/install.mjs')], { env });
	const installTime = `${/\(cached/.test(install.out) ? 'install cached' : 'installed'} ${secs(Date.now() - installStarted)}`;
	const disk = `runtime ${diskUse(runtimeDir(version))}`;
	if (install.code !== 0)
		return line('FAILED', [`install failed (exit ${install.code})`, installTime]);

	const logDir = join(root, 'test/artifacts/matrix');
	mkdirSync(logDir, { recursive: true });
	const logFile = join(logDir, `n8n-${version}.log`);
	const log = createWriteStream(logFile);
	const testsStarted = Date.now();
	const jest = await run(
		node,
		[jestBin, '--ci', '--selectProjects', 'e2e', '--runInBand', ...tests],
		{ env, log },
	);
	await new Promise((r) => log.end(r));
	const testTime = `tests ${secs(Date.now() - testsStarted)}`;
	const counts = jestCounts(jest.out);
	return line(jest.code === 0 ? 'ok' : 'FAILED', [
		`${counts} in ${tests.length} files`,
		testTime,
		installTime,
		disk,
		`log ${relative(root, logFile)}`,
	]);
}

async function main() {
	const { values } = parseArgs({
		options: {
			versions: { type: 'string' },
			'smoke-only': { type: 'boolean', default: false },
			check: { type: 'boolean', default: false },
			help: { type: 'boolean', short: 'h', default: false },
		},
		strict: true,
	});
	if (values.help) {
		console.log(
			readFileSync(fileURLToPath(import.meta.url), 'utf8')
				.split('\n')
				.filter((l) => l.startsWith('//'))
				.map((l) => l.slice(3))
				.join('\n'),
		);
		return 0;
	}
	const available = availableVersions();
	const versions = values.versions
		? values.versions
				.split(',')
				.map((v) => v.trim())
				.filter(Boolean)
		: available;
	const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.n8n;
	const workflowVersions = workflowMatrixVersions();
	const checks = { range, workflowVersions };

	if (values.check) {
		const lines = versions.map((v) => ({ v, problems: staticProblems(v, checks) }));
		const extra = (workflowVersions ?? [])
			.filter((v) => !available.includes(v))
			.map((v) => `${WORKFLOW} has a job for n8n ${v}, which has no committed runtime`);
		if (!workflowVersions) extra.push(`${WORKFLOW}: no \`n8n: [...]\` list in strategy.matrix`);
		for (const { v, problems } of lines)
			console.log(
				`n8n ${v}: ${problems.length ? `FAILED (${problems.join('; ')})` : `ok (in engines.n8n "${range}", lockfile committed, CI job)`}`,
			);
		for (const p of extra) console.log(p);
		const failed = lines.filter((l) => l.problems.length).length + extra.length;
		console.log(
			`MATRIX CHECK: ${failed ? 'FAILED' : 'ok'}: ${versions.length} versions (${versions.join(', ')}; default ${defaultN8nVersion()}) against engines.n8n "${range}"`,
		);
		return failed ? 1 : 0;
	}

	const tests = values['smoke-only'] ? MATRIX_TESTS.slice(0, 1) : MATRIX_TESTS;
	const started = Date.now();
	console.log(
		`[matrix] n8n ${versions.join(', ')} (default ${defaultN8nVersion()}); engines.n8n "${range}"; ${tests.length} test files each`,
	);
	// The tests pack dist/: build it once, as npm test does.
	const build = await run(node, [join(root, 'scripts/build.mjs')], { env: process.env });
	if (build.code !== 0) {
		console.log(`\nMATRIX SUMMARY: FAILED: the build failed (exit ${build.code})`);
		return 1;
	}
	const results = [];
	for (const version of versions) results.push(await runVersion(version, { tests, checks }));

	console.log('');
	for (const r of results) console.log(r.text);
	const failed = results.filter((r) => !r.ok);
	console.log(
		`MATRIX SUMMARY: ${failed.length ? 'FAILED' : 'ok'}: ${results.length - failed.length}/${results.length} n8n versions passed ` +
			`(${results.map((r) => `${r.version} ${r.ok ? 'ok' : 'FAILED'}`).join(', ')}) in ${human(Date.now() - started)} on Node ${process.version}`,
	);
	return failed.length ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	main().then(
		(code) => process.exit(code),
		(e) => {
			console.error(`[matrix] ${e.stack ?? e.message}`);
			console.log(`MATRIX SUMMARY: FAILED: ${e.message}`);
			process.exit(1);
		},
	);
}
