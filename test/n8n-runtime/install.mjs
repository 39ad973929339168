#!/usr/bin/env node
// Installs the real n8n that the end-to-end tests (and `npm start`) run, once,
// into a cache folder outside the repository that every clone reuses:
//   ${N8N_RUNTIME_DIR:-${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-audience-messaging/n8n-<version>}
//
//   node test/n8n-runtime/install.mjs           install if needed (no-op when cached)
//   node test/n8n-runtime/install.mjs --force   reinstall
//   node test/n8n-runtime/install.mjs --n8n-version=2.41.1   another committed version
//        (same as N8N_VERSION=2.41.1: test/n8n-runtime/versions/<version>/, see paths.mjs)
//
// Steps: copy the version's package.json and package-lock.json there, `npm ci` with
// --ignore-scripts (a line every 15 s while it runs), build sqlite3 from source (its prebuilt
// download needs the internet), check `n8n --version` under Node 24, then write a
// marker holding a hash of package.json + lockfile. A mkdir-based lock keeps two
// concurrent runs from installing at once. No dependencies; runs on any Node >= 18.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	createWriteStream,
	existsSync,
	mkdirSync,
	readFileSync,
	rmSync,
	statSync,
	statfsSync,
	writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { resolveRuntime } from './paths.mjs';

const t0 = Date.now();
const force = process.argv.includes('--force');
const versionArg = process.argv.find((a) => a.startsWith('--n8n-version='));
if (versionArg) process.env.N8N_VERSION = versionArg.slice('--n8n-version='.length);
const say = (msg) => process.stdout.write(`[n8n-runtime] ${msg}\n`);
const secs = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

const rt = resolveRuntime();
const { runtimeDir, n8nBin, markerFile, node, version } = rt;
const { packageJsonPath: runtimePackageJsonPath, lockfilePath: runtimeLockfilePath } = rt;
const lockDir = `${runtimeDir}.lock`;
const logFile = join(runtimeDir, 'install.log');

function wantedHash() {
	const h = createHash('sha256');
	h.update(readFileSync(runtimePackageJsonPath));
	h.update('\0');
	h.update(readFileSync(runtimeLockfilePath));
	return h.digest('hex');
}

function isInstalled(hash) {
	try {
		return readFileSync(markerFile, 'utf8').trim() === hash && existsSync(n8nBin);
	} catch {
		return false;
	}
}

// ---------------------------------------------------------------- lock
let ownLock = false;
function releaseLock() {
	if (!ownLock) return;
	ownLock = false;
	rmSync(lockDir, { recursive: true, force: true });
}
function lockIsStale() {
	try {
		const owner = JSON.parse(readFileSync(join(lockDir, 'owner.json'), 'utf8'));
		if (Date.now() - owner.started > 2 * 60 * 60 * 1000) return true; // 2 h: nobody installs that long
		if (owner.host !== hostname()) return false;
		try {
			process.kill(owner.pid, 0);
			return false;
		} catch (e) {
			return e.code === 'ESRCH';
		}
	} catch {
		// No owner file yet: the owner may be between mkdir and write; stale only if old.
		try {
			return Date.now() - statSync(lockDir).mtimeMs > 60 * 1000;
		} catch {
			return false;
		}
	}
}
async function acquireLock() {
	mkdirSync(dirname(lockDir), { recursive: true });
	const deadline = Date.now() + 60 * 60 * 1000;
	let told = false;
	for (;;) {
		try {
			mkdirSync(lockDir);
			ownLock = true;
			writeFileSync(join(lockDir, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname(), started: Date.now() }));
			return;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
		}
		if (lockIsStale()) {
			say(`removing stale lock ${lockDir}`);
			rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (!told) {
			say(`another install is running (lock ${lockDir}); waiting...`);
			told = true;
		}
		if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${lockDir}`);
		await new Promise((r) => setTimeout(r, 2000));
	}
}
let currentChild; // the npm/node process running now, stopped with us
process.on('exit', releaseLock);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(sig, () => {
		if (currentChild && currentChild.exitCode === null) currentChild.kill('SIGTERM');
		releaseLock();
		process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
	});
}

// ---------------------------------------------------------------- steps
const nodeBinDir = dirname(node);
// npm (a `#!/usr/bin/env node` script) and node-gyp then run under Node 24 too.
const childEnv = {
	...process.env,
	PATH: [nodeBinDir, process.env.PATH ?? ''].join(delimiter),
	npm_config_update_notifier: 'false',
	JOBS: process.env.JOBS ?? 'max', // node-gyp: compile sqlite3 on all cores
};

/** Headers to build native modules against, offline. */
function nodeHeadersDir() {
	const own = dirname(nodeBinDir); // a Node install's {bin,include}, when it has its headers
	if (existsSync(join(own, 'include', 'node', 'common.gypi'))) return own;
	if (existsSync('/usr/include/node/common.gypi')) return '/usr'; // N-API: Node 20 headers are fine
	return undefined;
}

function tail(file, lines = 40) {
	try {
		return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

/** A step that runs longer says how far it is this often (ms). */
const PROGRESS_MS = 15_000;

/** Free bytes on the runtime folder's disk (what a step has written shows as their drop). */
const freeBytes = () => {
	const { bavail, bsize } = statfsSync(runtimeDir);
	return bavail * bsize;
};

/** What a long step has done so far: what it has written to disk, when that is something. */
function progressOf(freeAtStart) {
	const written = freeAtStart - freeBytes();
	return written >= 100e6 ? `${(written / 1e9).toFixed(1)} GB written` : 'still running';
}

function run(label, cmd, args, { capture = false } = {}) {
	const started = Date.now();
	say(`${label}...`);
	return new Promise((resolvePromise, reject) => {
		const log = createWriteStream(logFile, { flags: 'a' });
		log.write(`\n$ ${cmd} ${args.join(' ')}\n`);
		const child = spawn(cmd, args, { cwd: runtimeDir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
		currentChild = child;
		const freeAtStart = freeBytes();
		const progress = setInterval(() => say(`${label}: ${progressOf(freeAtStart)}, ${secs(started)} so far`), PROGRESS_MS);
		let out = '';
		child.stdout.on('data', (d) => {
			out += d;
			log.write(d);
		});
		child.stderr.on('data', (d) => log.write(d));
		child.on('error', (e) => {
			clearInterval(progress);
			log.end();
			reject(new Error(`${label}: cannot run ${cmd}: ${e.message}`));
		});
		child.on('close', (code, signal) => {
			clearInterval(progress);
			log.end(() => {
				if (code === 0) {
					say(`${label}: done in ${secs(started)}`);
					resolvePromise(capture ? out : undefined);
				} else {
					reject(
						new Error(
							`${label} failed (${signal ?? `exit ${code}`}) after ${secs(started)}; ` +
								`log ${logFile}, last lines:\n${tail(logFile)}`,
						),
					);
				}
			});
		});
	});
}

async function install(hash) {
	mkdirSync(runtimeDir, { recursive: true });
	rmSync(markerFile, { force: true });
	writeFileSync(logFile, `install of n8n ${version} started ${new Date().toISOString()} with node ${node}\n`);
	copyFileSync(runtimePackageJsonPath, join(runtimeDir, 'package.json'));
	copyFileSync(runtimeLockfilePath, join(runtimeDir, 'package-lock.json'));
	const npmFlags = ['--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=warn'];
	await run('npm ci: n8n and its packages (about 4 min, about 2.6 GB)', 'npm', ['ci', ...npmFlags]);

	const headers = nodeHeadersDir();
	const rebuildArgs = ['rebuild', 'sqlite3', '--ignore-scripts=false', '--build-from-source', '--foreground-scripts'];
	if (headers) {
		rebuildArgs.push(`--nodedir=${headers}`);
		childEnv.npm_config_nodedir = headers;
	}
	childEnv.npm_config_build_from_source = 'true';
	await run(`build sqlite3 from source${headers ? ` (headers ${headers})` : ''}`, 'npm', rebuildArgs);

	await run('check sqlite3 loads under Node 24', node, [
		'-e',
		"const s=require('sqlite3');new s.Database(':memory:').close()",
	]);
	const out = await run('check n8n --version under Node 24', node, [n8nBin, '--version'], { capture: true });
	const got = String(out).trim().split('\n').pop();
	if (got !== version) throw new Error(`n8n --version printed "${got}", expected "${version}"`);

	writeFileSync(markerFile, hash + '\n');
}

async function main() {
	if (!existsSync(runtimeLockfilePath))
		throw new Error(`${runtimeLockfilePath} is missing: see test/n8n-runtime/versions/README.md`);
	const hash = wantedHash();
	if (!force && isInstalled(hash)) {
		say(`n8n ${version} ready in ${runtimeDir} (cached, ${secs(t0)})`);
		return;
	}
	await acquireLock();
	try {
		if (!force && isInstalled(hash)) {
			say(`n8n ${version} ready in ${runtimeDir} (installed by another run, ${secs(t0)})`);
			return;
		}
		say(
			`installing n8n ${version} into ${runtimeDir} (node ${node}): once per n8n version, about 4 min; later starts reuse it`,
		);
		await install(hash);
		say(`n8n ${version} ready in ${runtimeDir} (installed in ${secs(t0)})`);
	} finally {
		releaseLock();
	}
}

main().catch((e) => {
	process.stderr.write(`[n8n-runtime] ERROR: ${e.message}\n`);
	releaseLock();
	process.exit(1);
});
