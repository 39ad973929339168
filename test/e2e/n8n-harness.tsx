/**
 * Drives a REAL n8n (installed by test/n8n-runtime/install.mjs into a cache folder
 * outside the repo: the pinned 2.x, or the version `N8N_VERSION` selects, 1.x included)
 * the way a user runs it: a throwaway N8N_USER_FOLDER,
 * community packages npm-installed into `<folder>/.n8n/nodes`, workflows and
 * credentials imported with the n8n CLI, executions through `n8n execute`, and
 * `n8n start` for webhook/trigger tests.
 *
 * Every n8n process runs under Node >= 24 with a fixed environment (see n8nEnv).
 */
import { ChildProcess, execFileSync, spawn } from 'child_process';
import { createCipheriv, createHash, randomBytes, randomUUID } from 'crypto';
import { existsSync, readFileSync } from 'fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'fs/promises';
import { createServer } from 'net';
import { createRequire } from 'module';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'os';
import { isAbsolute, join, resolve } from 'path';

export const repoRoot = resolve(__dirname, '..', '..');
const runtimeScriptsDir = join(repoRoot, 'test', 'n8n-runtime');

// ------------------------------------------------------------------ runtime

export interface N8nRuntime {
	version: string;
	/** Major version (1 or 2): where the CLI or the environment differ, the harness follows it. */
	major: number;
	/**
	 * The committed package.json and lockfile of this version
	 * (test/n8n-runtime[/versions/<version>]).
	 */
	packageJsonPath: string;
	lockfilePath: string;
	runtimeDir: string;
	n8nBin: string;
	markerFile: string;
	/** Node >= 24 binary that runs n8n. */
	node: string;
	repoRoot: string;
}

let runtimeCache: N8nRuntime | undefined;

/**
 * Where n8n is installed and which Node runs it (asks test/n8n-runtime/paths.mjs,
 * in a child process because jest's CommonJS runtime cannot import that ESM file).
 */
export function getRuntime(): N8nRuntime {
	if (!runtimeCache) {
		const out = execFileSync(process.execPath, [join(runtimeScriptsDir, 'paths.mjs')], {
			encoding: 'utf8',
			env: process.env,
		});
		runtimeCache = JSON.parse(out) as N8nRuntime;
	}
	return runtimeCache;
}

/**
 * Runs test/n8n-runtime/install.mjs (a sub-second no-op once installed; about
 * 6 minutes the first time on a machine). Its progress goes to the terminal.
 */
export async function ensureRuntime(timeoutMs = 30 * 60 * 1000): Promise<N8nRuntime> {
	const res = await runProcess(process.execPath, [join(runtimeScriptsDir, 'install.mjs')], {
		cwd: repoRoot,
		env: process.env,
		timeoutMs,
		forward: true,
	});
	if (res.code !== 0) {
		throw new Error(
			`test/n8n-runtime/install.mjs failed (exit ${res.code ?? res.signal}):\n${tailText(res.stderr + res.stdout, 60)}`,
		);
	}
	runtimeCache = undefined;
	const rt = getRuntime();
	if (!existsSync(rt.n8nBin))
		throw new Error(`install.mjs succeeded but ${rt.n8nBin} does not exist`);
	return rt;
}

// ------------------------------------------------------------------ processes

interface ProcessResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	durationMs: number;
	timedOut: boolean;
}

export function runProcess(
	cmd: string,
	args: string[],
	opts: {
		cwd?: string;
		env: NodeJS.ProcessEnv;
		timeoutMs: number;
		forward?: boolean;
		/** Given, once started, what kills its process group (a test stopping n8n mid-run). */
		onStart?: (kill: (signal: NodeJS.Signals) => void) => void;
	},
): Promise<ProcessResult> {
	const started = Date.now();
	return new Promise((resolvePromise, reject) => {
		const child = spawn(cmd, args, {
			cwd: opts.cwd,
			env: opts.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true, // own process group, so a time-out also kills n8n's task runner
		});
		const group = groupOf(child);
		opts.onStart?.((signal) => killGroup(child, signal, group));
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout!.on('data', (d: Buffer) => {
			stdout += d;
			if (opts.forward) process.stdout.write(d);
		});
		child.stderr!.on('data', (d: Buffer) => {
			stderr += d;
			if (opts.forward) process.stderr.write(d);
		});
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child, 'SIGKILL', group);
		}, opts.timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			reject(new Error(`cannot run ${cmd}: ${e.message}`));
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			resolvePromise({ code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
		});
	});
}

/**
 * When process `pid` started (field 22 of /proc/<pid>/stat, in clock ticks since boot), or
 * undefined when no process has that pid (or no /proc).
 */
function startOf(pid: number): string | undefined {
	try {
		return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[19];
	} catch {
		return undefined;
	}
}

/** What identifies a spawned process's group: its pid, and when that process started. */
export const groupOf = (child: ChildProcess) =>
	child.pid === undefined ? undefined : { pid: child.pid, start: startOf(child.pid) };

/**
 * Sends `signal` to the process group a child leads, unless its pid now belongs to another
 * process: pids wrap around quickly here (pid_max 32768, every thread takes one), and a group's
 * id is free again once its processes are gone, so a group signalled late may be someone else's
 * (an `n8n execute` of another test file was once killed so).
 */
export function killGroup(
	child: ChildProcess,
	signal: NodeJS.Signals,
	group: ReturnType<typeof groupOf>,
): void {
	if (!group) return;
	const now = startOf(group.pid);
	if (now !== undefined && group.start !== undefined && now !== group.start) return;
	try {
		process.kill(-group.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

function tailText(text: string, lines = 40): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/** A free TCP port on 127.0.0.1 (tiny race between closing it and n8n binding it). */
export function freePort(): Promise<number> {
	return new Promise((resolvePromise, reject) => {
		const srv = createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address();
			srv.close(() =>
				typeof addr === 'object' && addr ? resolvePromise(addr.port) : reject(new Error('no port')),
			);
		});
	});
}

/**
 * The safety net of spawnService and of temp folders: a small watchdog process, in a process
 * group of its own, told through its stdin which process groups are live and which temp folders
 * exist. When the test process ends in any way (a failed test, Ctrl-C, a CI time-out, SIGKILL),
 * its end of the pipe closes and the watchdog kills those groups, then removes those folders.
 * (Inside jest, `process.on('exit' | 'SIGINT')` listeners land on the test environment's copy
 * of `process` and never run, hence a process.)
 */
const WATCHDOG = `
	const groups = new Set();
	const folders = new Set();
	let rest = '';
	process.stdin.on('data', (d) => {
		const lines = (rest + d).split('\\n');
		rest = lines.pop();
		for (const line of lines) {
			const [kind, sign, value] = [line[0], line[1], line.slice(2)];
			const set = kind === 'g' ? groups : folders;
			if (sign === '+') set.add(value); else set.delete(value);
		}
	});
	process.stdin.on('end', () => {
		// Each group as "<pid>:<start>": not signalled when its pid now belongs to another process.
		const startOf = (pid) => { try { return require('fs').readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' ')[19]; } catch { return undefined; } };
		for (const group of groups) {
			const [pid, start] = group.split(':');
			const now = startOf(pid);
			if (now !== undefined && start && now !== start) continue;
			try { process.kill(-Number(pid), 'SIGKILL'); } catch {}
		}
		setTimeout(() => {
			for (const folder of folders) { try { require('fs').rmSync(folder, { recursive: true, force: true, maxRetries: 3 }); } catch {} }
			process.exit(0);
		}, 500);
	});`;
let watchdog: ChildProcess | undefined;
function watch(kind: 'group' | 'folder', value: number | string | undefined, live: boolean): void {
	if (value === undefined) return;
	if (!watchdog) {
		watchdog = spawn(process.execPath, ['-e', WATCHDOG], {
			stdio: ['pipe', 'ignore', 'ignore'],
			detached: true,
		});
		watchdog.unref();
		(watchdog.stdin as unknown as { unref?: () => void }).unref?.();
		watchdog.stdin!.on('error', () => undefined);
	}
	watchdog.stdin!.write(`${kind === 'group' ? 'g' : 'f'}${live ? '+' : '-'}${value}\n`);
}

/** A service's group, killed by the watchdog if the test process dies first (as "<pid>:<start>"). */
function watchGroup(group: ReturnType<typeof groupOf>, live: boolean): void {
	watch('group', group && `${group.pid}:${group.start ?? ''}`, live);
}

/**
 * A temp folder removed by the watchdog if the test process dies before removing it
 * (KEEP_N8N_FOLDERS=1 keeps it).
 */
export function watchTempFolder(path: string, live = true): void {
	if (process.env.KEEP_N8N_FOLDERS !== '1') watch('folder', path, live);
}

export interface Service {
	process: ChildProcess;
	stdout(): string;
	stderr(): string;
	/** Set once the process has exited. */
	exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
	/** Resolves when the process has exited. */
	whenExited: Promise<void>;
	/**
	 * One SIGTERM to the process group, SIGKILL after `graceMs` (default 20 s), then SIGKILL to what
	 * is left of the group.
	 */
	stop(): Promise<void>;
}

/**
 * A long-running process (n8n, Redis, PostgreSQL) in its own process group, its output kept;
 * stopped at the latest when the test process exits, even when a test failed.
 */
export function spawnService(
	cmd: string,
	args: string[],
	opts: {
		cwd?: string;
		env: NodeJS.ProcessEnv;
		uid?: number;
		gid?: number;
		graceMs?: number;
		onOutput?: (chunk: Buffer) => void;
	},
): Service {
	const child = spawn(cmd, args, {
		cwd: opts.cwd,
		env: opts.env,
		uid: opts.uid,
		gid: opts.gid,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	const group = groupOf(child);
	watchGroup(group, true);
	let stdout = '';
	let stderr = '';
	child.stdout!.on('data', (d: Buffer) => {
		stdout += d;
		opts.onOutput?.(d);
	});
	child.stderr!.on('data', (d: Buffer) => {
		stderr += d;
		opts.onOutput?.(d);
	});
	let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
	const whenExited = new Promise<void>((r) => {
		child.on('error', (e) => {
			stderr += `\ncannot run ${cmd}: ${e.message}`;
			exited ??= { code: null, signal: null };
			r();
		});
		child.on('exit', (code, signal) => {
			exited = { code, signal };
			r();
		});
	});
	let stopping: Promise<void> | undefined;
	const stop = () =>
		(stopping ??= (async () => {
			if (!exited) {
				killGroup(child, 'SIGTERM', group);
				const t = setTimeout(() => killGroup(child, 'SIGKILL', group), opts.graceMs ?? 20_000);
				await whenExited;
				clearTimeout(t);
			}
			killGroup(child, 'SIGKILL', group); // leftovers of the group (n8n's task runner), if any
			watchGroup(group, false);
		})());
	return {
		process: child,
		stdout: () => stdout,
		stderr: () => stderr,
		exited: () => exited,
		whenExited,
		stop,
	};
}

// ------------------------------------------------------------------ n8n log output

export interface N8nLogRecord {
	level: string;
	message: string;
	metadata?: Record<string, unknown>;
}

/**
 * n8n runs with N8N_LOG_FORMAT=json: each stdout line is one log record
 * `{"level","message","metadata"}`. Lines that are not (output of some library,
 * a node's console.log) become `{ level: 'raw', message: line }`.
 */
export function parseLogRecords(stdout: string): N8nLogRecord[] {
	const records: N8nLogRecord[] = [];
	for (const line of stdout.split('\n')) {
		if (!line.trim()) continue;
		if (line.startsWith('{')) {
			try {
				const rec = JSON.parse(line) as N8nLogRecord;
				if (rec && typeof rec === 'object' && typeof rec.level === 'string' && 'message' in rec) {
					records.push({ ...rec, message: String(rec.message) });
					continue;
				}
			} catch {
				/* not a log record */
			}
		}
		records.push({ level: 'raw', message: line });
	}
	return records;
}

/** n8n's output as readable text (log messages rather than JSON records), for error messages. */
export function readableLog(stdout: string, stderr = ''): string {
	const text = parseLogRecords(stdout)
		.map((r) => (r.level === 'raw' ? r.message : `[${r.level}] ${r.message}`))
		.join('\n');
	return [text, stderr.trim() ? `--- stderr ---\n${stderr.trimEnd()}` : '']
		.filter(Boolean)
		.join('\n');
}

export class N8nCommandError extends Error {
	constructor(
		readonly args: string[],
		readonly result: ProcessResult,
		reason: string,
	) {
		super(
			`n8n ${args.join(' ')}: ${reason} (exit ${result.code ?? result.signal}${result.timedOut ? ', timed out' : ''}, ` +
				`${(result.durationMs / 1000).toFixed(1)}s). Last output:\n${tailText(readableLog(result.stdout, result.stderr), 40)}`,
		);
		this.name = 'N8nCommandError';
	}
}

// ------------------------------------------------------------------ user folder

export interface N8nUserFolder {
	/** N8N_USER_FOLDER: n8n keeps its state in `<root>/.n8n`. */
	root: string;
	/** `<root>/.n8n` (database.sqlite, config, nodes). */
	n8nDir: string;
	/** `<root>/.n8n/nodes`: where users' community packages are npm-installed. */
	nodesDir: string;
	/** N8N_ENCRYPTION_KEY used by every n8n process on this folder. */
	encryptionKey: string;
	/**
	 * More environment for every n8n process on this folder (imports, publish, start, worker,
	 * webhook), e.g. queue mode's database and Redis settings (test/e2e/queue-harness.tsx).
	 */
	env?: Record<string, string>;
	/** Removes the folder (kept when KEEP_N8N_FOLDERS=1, for debugging). */
	cleanup(): Promise<void>;
}

/**
 * A throwaway N8N_USER_FOLDER under os.tmpdir(); with `from`, a copy of that folder (its
 * encryption key, database and installed packages: see makeTemplateFolder).
 */
export async function createUserFolder(prefix = 'n8n-e2e-', from?: string): Promise<N8nUserFolder> {
	const root = await mkdtemp(join(tmpdir(), prefix));
	watchTempFolder(root);
	if (from) await cp(from, root, { recursive: true });
	const folder = await openUserFolder(root);
	const cleanup = folder.cleanup;
	return {
		...folder,
		async cleanup() {
			await cleanup();
			if (process.env.KEEP_N8N_FOLDERS !== '1') watchTempFolder(root, false);
		},
	};
}

/**
 * An N8N_USER_FOLDER at `root`, created if needed and reused as it is otherwise (its
 * encryption key is kept in `<root>/harness.json`), e.g. the persistent folder of `npm start`.
 */
export async function openUserFolder(root: string): Promise<N8nUserFolder> {
	const n8nDir = join(root, '.n8n');
	const nodesDir = join(n8nDir, 'nodes');
	await mkdir(n8nDir, { recursive: true });
	const keyFile = join(root, 'harness.json');
	let encryptionKey: string;
	if (existsSync(keyFile)) {
		encryptionKey = (JSON.parse(await readFile(keyFile, 'utf8')) as { encryptionKey: string })
			.encryptionKey;
	} else {
		encryptionKey = randomBytes(24).toString('hex');
		await writeFile(
			keyFile,
			JSON.stringify({ encryptionKey, created: new Date().toISOString() }, null, 2),
		);
	}
	return {
		root,
		n8nDir,
		nodesDir,
		encryptionKey,
		async cleanup() {
			if (process.env.KEEP_N8N_FOLDERS === '1') return;
			await rm(root, { recursive: true, force: true, maxRetries: 3 });
		},
	};
}

/**
 * Prefixes of inherited variables that could change how n8n behaves; dropped from n8n's
 * environment.
 */
const SCRUBBED_ENV =
	/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_OPTIONS$|NODE_FUNCTION_ALLOW)/;

/**
 * The environment of every n8n process. Notes (measured on 2.40.7):
 * - NODE_ENV: jest sets `test`, and n8n then refuses to load nodes ("Not available in tests"):
 *   it must be overridden; `production` is what n8n's Docker image uses.
 * - N8N_RUNNERS_ENABLED no longer exists (runners are always on; setting it only triggers a
 *   deprecation warning). Each process starts a task broker on N8N_RUNNERS_BROKER_PORT (default
 *   5679), so every process gets its own free port or two concurrent n8n processes collide.
 * - N8N_LOG_FORMAT=json makes stdout one JSON record per line, which the parsers rely on.
 */
export function n8nEnv(
	folder: N8nUserFolder,
	extra: {
		logLevel?: 'error' | 'warn' | 'info' | 'debug';
		brokerPort: number;
		env?: Record<string, string>;
	},
): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!SCRUBBED_ENV.test(k)) env[k] = v;
	Object.assign(env, {
		NODE_ENV: 'production',
		N8N_USER_FOLDER: folder.root,
		N8N_ENCRYPTION_KEY: folder.encryptionKey,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_LOG_LEVEL: extra.logLevel ?? 'warn',
		N8N_LOG_FORMAT: 'json',
		N8N_LOG_OUTPUT: 'console',
		N8N_RUNNERS_BROKER_PORT: String(extra.brokerPort),
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
		N8N_SECURE_COOKIE: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true', // explicit: its default is announced to become false
		N8N_DISABLED_MODULES: 'mcp-registry', // only fetches api.n8n.io at start-up: an error offline
	});
	Object.assign(env, folder.env ?? {}, extra.env ?? {});
	return adaptEnvToVersion(env, getRuntime());
}

/**
 * The modules (N8N_DISABLED_MODULES / N8N_ENABLED_MODULES names) the installed n8n knows, read
 * from its @n8n/backend-common; undefined when that file is not where 1.123 and 2.40 keep it.
 */
const knownModulesCache = new Map<string, string[] | undefined>();
function knownModules(rt: N8nRuntime): string[] | undefined {
	if (!knownModulesCache.has(rt.runtimeDir)) {
		let names: string[] | undefined;
		try {
			const file = join(
				rt.runtimeDir,
				'node_modules',
				'@n8n',
				'backend-common',
				'dist',
				'modules',
				'modules.config.js',
			);
			const list = /MODULE_NAMES = \[([^\]]*)\]/.exec(readFileSync(file, 'utf8'))?.[1];
			if (list) names = [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
		} catch {
			names = undefined;
		}
		knownModulesCache.set(rt.runtimeDir, names);
	}
	return knownModulesCache.get(rt.runtimeDir);
}

/**
 * Where n8n versions differ in their environment (measured with 1.123.81, 2.40.7 and 2.41.1),
 * callers write the 2.x form and this translates it for the selected version:
 * - The public webhook URL is N8N_WEBHOOK_URL in 2.x; 1.x reads WEBHOOK_URL only.
 * - N8N_DISABLED_MODULES may only name modules the version has: 1.x has no `mcp-registry`
 *   and refuses to start on an unknown one (UnknownModuleError); unknown names are dropped.
 */
export function adaptEnvToVersion(env: NodeJS.ProcessEnv, rt: N8nRuntime): NodeJS.ProcessEnv {
	if (rt.major < 2 && env.N8N_WEBHOOK_URL !== undefined) {
		env.WEBHOOK_URL = env.N8N_WEBHOOK_URL;
		delete env.N8N_WEBHOOK_URL;
	}
	const known = knownModules(rt);
	if (known && env.N8N_DISABLED_MODULES) {
		const kept = env.N8N_DISABLED_MODULES.split(',')
			.map((m) => m.trim())
			.filter((m) => known.includes(m));
		if (kept.length) env.N8N_DISABLED_MODULES = kept.join(',');
		else delete env.N8N_DISABLED_MODULES;
	}
	return env;
}

export interface RunN8nOptions {
	logLevel?: 'error' | 'warn' | 'info' | 'debug';
	timeoutMs?: number;
	env?: Record<string, string>;
	onStart?: (kill: (signal: NodeJS.Signals) => void) => void;
}

/** Runs `n8n <args>` on a user folder under Node 24; resolves whatever the exit code. */
export async function runN8n(
	folder: N8nUserFolder,
	args: string[],
	opts: RunN8nOptions = {},
): Promise<ProcessResult> {
	const rt = getRuntime();
	const env = n8nEnv(folder, {
		logLevel: opts.logLevel,
		brokerPort: await freePort(),
		env: opts.env,
	});
	return runProcess(rt.node, [rt.n8nBin, ...args], {
		cwd: folder.root,
		env,
		timeoutMs: opts.timeoutMs ?? 180_000,
		onStart: opts.onStart,
	});
}

async function runN8nOk(
	folder: N8nUserFolder,
	args: string[],
	opts: RunN8nOptions = {},
): Promise<ProcessResult> {
	const res = await runN8n(folder, args, opts);
	if (res.code !== 0) throw new N8nCommandError(args, res, 'failed');
	return res;
}

// ------------------------------------------------------------------ packages

async function runNpm(args: string[], cwd: string, timeoutMs = 300_000): Promise<ProcessResult> {
	const env = { ...process.env, npm_config_update_notifier: 'false' };
	const res = await runProcess('npm', args, { cwd, env, timeoutMs });
	if (res.code !== 0) {
		throw new Error(
			`npm ${args.join(' ')} (in ${cwd}) failed (exit ${res.code ?? res.signal}${res.timedOut ? ', timed out' : ''}):\n` +
				tailText(res.stderr + '\n' + res.stdout, 40),
		);
	}
	return res;
}

interface PackageJson {
	name: string;
	version: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
	[k: string]: unknown;
}

/**
 * `npm pack` of a package (default: this project) into `destDir` (default: a fresh temp dir,
 * which the caller may delete with the tarball); returns the tarball path. Runs no scripts
 * (the test command builds dist/ first): it checks instead that every file listed in
 * package.json `n8n.nodes` / `n8n.credentials` exists and is in the tarball.
 */
export async function packPackage(
	projectDir: string = repoRoot,
	destDir?: string,
): Promise<string> {
	const pkg = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as PackageJson;
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = declared.filter((f) => !existsSync(join(projectDir, f)));
	if (missing.length) {
		throw new Error(
			`cannot pack ${pkg.name}: missing ${missing.join(', ')} (build it first, e.g. npm run build)`,
		);
	}
	// A temp folder of our own goes when the test process ends (the watchdog), the tarball staying
	// usable until then.
	const dest = destDir ?? (await mkdtemp(join(tmpdir(), 'n8n-e2e-pack-')));
	if (!destDir) watchTempFolder(dest);
	await mkdir(dest, { recursive: true });
	const res = await runNpm(
		[
			'pack',
			projectDir,
			'--pack-destination',
			dest,
			'--json',
			'--ignore-scripts',
			'--loglevel=warn',
		],
		projectDir,
	);
	let info: Array<{ filename: string; files: Array<{ path: string }> }>;
	try {
		info = JSON.parse(res.stdout);
	} catch {
		throw new Error(`npm pack printed no JSON:\n${tailText(res.stdout + res.stderr)}`);
	}
	const tarball = join(dest, info[0].filename.replace(/^@/, '').replace(/\//g, '-'));
	if (!existsSync(tarball))
		throw new Error(`npm pack reported ${info[0].filename} but ${tarball} does not exist`);
	const packed = new Set(info[0].files.map((f) => f.path));
	const notPacked = declared.filter((f) => !packed.has(f.replace(/^\.\//, '')));
	if (notPacked.length)
		throw new Error(`${tarball} lacks ${notPacked.join(', ')} (check "files" in package.json)`);
	return tarball;
}

export interface InstalledPackage {
	name: string;
	version: string;
	/** `<nodesDir>/node_modules/<name>` */
	dir: string;
}

/**
 * Installs a community package tarball the way a user does by hand:
 * `cd ~/.n8n/nodes && npm install <tarball>`. Peer dependencies are not installed
 * (`--legacy-peer-deps`), which is what n8n's own installer achieves by deleting
 * peerDependencies from the package.json before its `npm install`: `n8n-workflow`
 * then resolves to n8n's own copy (n8n adds its module paths to NODE_PATH).
 * n8n only scans `node_modules/n8n-nodes-*` and `node_modules/@scope/n8n-nodes-*`.
 */
export async function installCommunityPackage(
	folder: N8nUserFolder,
	tarball: string,
): Promise<InstalledPackage> {
	const tgz = isAbsolute(tarball) ? tarball : resolve(tarball);
	if (!existsSync(tgz)) throw new Error(`no such tarball: ${tgz}`);
	await mkdir(folder.nodesDir, { recursive: true });
	const pkgJsonPath = join(folder.nodesDir, 'package.json');
	if (!existsSync(pkgJsonPath)) {
		await writeFile(
			pkgJsonPath,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2) + '\n',
		);
	}
	const before = JSON.parse(await readFile(pkgJsonPath, 'utf8')) as {
		dependencies?: Record<string, string>;
	};
	await runNpm(
		[
			'install',
			tgz,
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--legacy-peer-deps',
			'--loglevel=warn',
		],
		folder.nodesDir,
	);
	const after = JSON.parse(await readFile(pkgJsonPath, 'utf8')) as {
		dependencies?: Record<string, string>;
	};
	const deps = after.dependencies ?? {};
	const name =
		Object.keys(deps).find(
			(n) => deps[n].startsWith('file:') && resolve(folder.nodesDir, deps[n].slice(5)) === tgz,
		) ?? Object.keys(deps).find((n) => !(n in (before.dependencies ?? {})));
	if (!name) throw new Error(`npm install ${tgz} did not add a dependency to ${pkgJsonPath}`);
	const dir = join(folder.nodesDir, 'node_modules', name);
	const installed = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageJson;
	if (!/^(@[^/]+\/)?n8n-nodes-/.test(name)) {
		throw new Error(
			`n8n only loads packages named n8n-nodes-* or @scope/n8n-nodes-*; "${name}" would be ignored`,
		);
	}
	return { name, version: installed.version, dir };
}

/** The package `folder` has installed from a tarball (what installCommunityPackage returned). */
export async function installedPackage(folder: N8nUserFolder): Promise<InstalledPackage> {
	const deps =
		(
			JSON.parse(await readFile(join(folder.nodesDir, 'package.json'), 'utf8')) as {
				dependencies?: Record<string, string>;
			}
		).dependencies ?? {};
	const name = Object.keys(deps).find((n) => deps[n].startsWith('file:'));
	if (!name) throw new Error(`${folder.nodesDir} has no package installed from a tarball`);
	const dir = join(folder.nodesDir, 'node_modules', name);
	const { version } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageJson;
	return { name, version, dir };
}

/**
 * What every package e2e file starts from, made once per jest run (test/e2e/global-setup.tsx):
 * a user folder with this project's tarball npm-installed as users do, n8n's SQLite database
 * migrated, and `credentials` in it with empty data (the import that migrates it). Each file
 * copies it (createUserFolder's `from`) instead of packing, installing and migrating again (about
 * 6 s a file), and gives those credentials its data by a database write (importCredentials).
 */
export async function makeTemplateFolder(
	root: string,
	credentials: Array<Omit<CredentialToImport, 'data'>> = [],
): Promise<void> {
	const folder = await openUserFolder(root);
	const tarball = await packPackage(repoRoot, join(root, 'pack'));
	await installCommunityPackage(folder, tarball);
	await importCredentials(
		folder,
		credentials.map((credential) => ({ ...credential, data: {} })),
	);
}

// ------------------------------------------------------------------ import

export interface CredentialToImport {
	id: string;
	name: string;
	type: string;
	/** Plain object: n8n encrypts it with the folder's key on import. */
	data: Record<string, unknown>;
}

async function withTempJson<T>(value: unknown, fn: (file: string) => Promise<T>): Promise<T> {
	const dir = await mkdtemp(join(tmpdir(), 'n8n-e2e-json-'));
	const file = join(dir, 'input.json');
	await writeFile(file, JSON.stringify(value, null, 2));
	try {
		return await fn(file);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

/**
 * Credential data as n8n stores it (n8n-core's CipherAes256CBC, read by every version from 1.x to
 * 2.41): "Salted__", an 8-byte salt, then AES-256-CBC under OpenSSL's MD5 key derivation from the
 * folder's encryption key.
 */
export function encryptCredentialData(data: object, encryptionKey: string): string {
	const salt = randomBytes(8);
	const password = Buffer.concat([Buffer.from(encryptionKey, 'binary'), salt]);
	const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();
	const first = md5(password);
	const second = md5(first, password);
	const cipher = createCipheriv(
		'aes-256-cbc',
		Buffer.concat([first, second]),
		md5(second, password),
	);
	const encrypted = [cipher.update(JSON.stringify(data)), cipher.final()];
	return Buffer.concat([Buffer.from('Salted__'), salt, ...encrypted]).toString('base64');
}

/**
 * The given credentials in the folder's n8n (ids kept). One the folder's SQLite database already
 * holds with that id and type (the e2e template's: see makeTemplateFolder) gets its name and data
 * by one database write; the others by `n8n import:credentials`, which costs an n8n start-up
 * (about 5 s of CPU). With none given, the CLI runs anyway: it creates and migrates the database.
 */
export async function importCredentials(
	folder: N8nUserFolder,
	creds: CredentialToImport[],
): Promise<{ byDatabase: string[]; byCli: string[] }> {
	const left: CredentialToImport[] = [];
	const sqlite = folder.env?.DB_TYPE !== 'postgresdb' && existsSync(databaseOf(folder));
	for (const c of creds) {
		const data = encryptCredentialData(c.data, folder.encryptionKey);
		const changed = sqlite
			? await updateDatabase(
					folder,
					'UPDATE credentials_entity SET name = $1, data = $2 WHERE id = $3 AND type = $4',
					[c.name, data, c.id, c.type],
				)
			: 0;
		if (changed === 0) left.push(c);
	}
	const ids = {
		byDatabase: creds.filter((c) => !left.includes(c)).map((c) => c.id),
		byCli: left.map((c) => c.id),
	};
	if (creds.length > 0 && left.length === 0) return ids;
	const now = new Date().toISOString();
	const rows = left.map((c) => ({ createdAt: now, updatedAt: now, ...c }));
	await withTempJson(rows, (file) => runN8nOk(folder, ['import:credentials', `--input=${file}`]));
	return ids;
}

/**
 * The given workflows in the folder's n8n, inactive (ids kept; each needs an `id`: execute and
 * publish address workflows by id; a missing `active` is set to false). Returns the ids. In a
 * SQLite database of n8n 2.x, by one database write (writeWorkflowRows); otherwise, or with
 * `viaCli`, by `n8n import:workflow` (one n8n start-up for all, about 5 s of CPU).
 */
export async function importWorkflows(
	folder: N8nUserFolder,
	workflows: object[],
	options: { viaCli?: boolean } = {},
): Promise<string[]> {
	const ids = workflows.map((w, i) => {
		const wf = w as { id?: unknown; name?: unknown };
		if (typeof wf.id !== 'string' || !wf.id)
			throw new Error(`workflow #${i} (${String(wf.name)}) needs a string id`);
		return wf.id;
	});
	const rows = workflows.map((w) => ({ active: false, settings: {}, pinData: {}, ...w }));
	if (!options.viaCli && writeWorkflowRows(folder, rows)) return ids;
	await withTempJson(rows, (file) => runN8nOk(folder, ['import:workflow', `--input=${file}`]));
	return ids;
}

/**
 * What `n8n import:workflow` writes in 2.x (ImportService.importWorkflows), written to the
 * folder's SQLite database from this process in one transaction: each node without an id gets one,
 * the workflow a new version id; its row is inserted, or updated when the id is there (inactive
 * either way); a new one is owned by the owner's personal project; its version goes into its
 * history. Not written: n8n's dependency index (workflow_dependency), which nothing the tests run
 * reads. False, with nothing written, where it does not apply (n8n 1.x, PostgreSQL, no database
 * yet, a credential named without its id, tags) or the tables are not as expected (said in a
 * warning): then the CLI imports, slower but the same rows.
 */
function writeWorkflowRows(
	folder: N8nUserFolder,
	workflows: Array<Record<string, unknown>>,
): boolean {
	const byName = (w: Record<string, unknown>) =>
		(w.nodes as Array<{ credentials?: Record<string, { id?: unknown }> }>).some((node) =>
			Object.values(node.credentials ?? {}).some((c) => typeof c !== 'object' || !c?.id),
		);
	if (
		getRuntime().major < 2 ||
		folder.env?.DB_TYPE === 'postgresdb' ||
		!existsSync(databaseOf(folder)) ||
		workflows.some((w) => !Array.isArray(w.nodes) || byName(w) || w.tags)
	)
		return false;
	try {
		withSqlite(folder, (db) => writeWorkflowsTo(db, workflows));
		return true;
	} catch (error) {
		console.warn(`workflows imported by n8n's CLI: writing them failed: ${String(error)}`);
		return false;
	}
}

type SqlValue = string | number | null;

/** writeWorkflowRows's write, in one transaction. */
function writeWorkflowsTo(db: DatabaseSync, workflows: Array<Record<string, unknown>>): void {
	const columns = (table: string) =>
		db.prepare(`PRAGMA table_info(${table})`).all() as Array<{
			name: string;
			notnull: number;
			dflt_value: unknown;
		}>;
	/** Inserts the values the table has columns for; fails on a required column not given. */
	const insert = (table: string, values: Record<string, SqlValue>) => {
		const known = columns(table);
		for (const c of known)
			if (c.notnull && c.dflt_value === null && !(c.name in values))
				throw new Error(`${table}.${c.name} is required and unknown here`);
		const names = known.map((c) => c.name).filter((name) => name in values);
		db.prepare(
			`INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
		).run(...names.map((n) => values[n]));
	};
	const projects = db.prepare("SELECT id FROM project WHERE type = 'personal'").all();
	if (projects.length !== 1) throw new Error(`${projects.length} personal projects`);
	const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
	const json = (value: unknown) =>
		value === undefined || value === null ? null : JSON.stringify(value);
	const entity = columns('workflow_entity').map((c) => c.name);
	db.exec('BEGIN');
	try {
		for (const w of workflows) {
			const nodes = (w.nodes as Array<{ id?: string }>).map((node) =>
				node.id ? node : { ...node, id: randomUUID() },
			);
			const versionId = randomUUID();
			const values: Record<string, SqlValue> = {
				name: String(w.name),
				active: 0,
				nodes: json(nodes),
				connections: json(w.connections ?? {}),
				settings: json(w.settings ?? {}),
				staticData: json(w.staticData),
				pinData: json(w.pinData ?? {}),
				meta: json(w.meta),
				versionId,
				activeVersionId: null,
				triggerCount: 0,
				isArchived: 0,
				description: typeof w.description === 'string' ? w.description : null,
				nodeGroups: json(w.nodeGroups ?? []),
				updatedAt: now,
			};
			const set = Object.keys(values).filter((name) => entity.includes(name));
			const updated = db
				.prepare(
					`UPDATE workflow_entity SET ${set.map((n) => `"${n}" = ?`).join(', ')} WHERE id = ?`,
				)
				.run(...set.map((n) => values[n]), String(w.id)).changes;
			if (Number(updated) === 0) {
				insert('workflow_entity', {
					...values,
					id: String(w.id),
					versionCounter: 1,
					parentFolderId: null,
					createdAt: now,
				});
				insert('shared_workflow', {
					workflowId: String(w.id),
					projectId: String(projects[0].id),
					role: 'workflow:owner',
					createdAt: now,
					updatedAt: now,
				});
			}
			insert('workflow_history', {
				versionId,
				workflowId: String(w.id),
				authors: 'import',
				nodes: values.nodes,
				connections: values.connections,
				nodeGroups: values.nodeGroups,
				name: null,
				description: null,
				autosaved: 0,
				createdAt: now,
				updatedAt: now,
			});
		}
		db.exec('COMMIT');
	} catch (error) {
		db.exec('ROLLBACK');
		throw error;
	}
}

// ------------------------------------------------------------------ execute

export interface N8nItem {
	json: Record<string, unknown>;
	binary?: Record<string, unknown>;
	pairedItem?: unknown;
	[k: string]: unknown;
}

export interface TaskData {
	startTime?: number;
	executionTime?: number;
	executionStatus?: string;
	source?: unknown[];
	data?: Record<string, Array<N8nItem[] | null>>;
	error?: Record<string, unknown>;
	[k: string]: unknown;
}

export type RunData = Record<string, TaskData[]>;

/** The IRun n8n prints (execute) or snapshots (execute-batch). */
export interface N8nRun {
	data: {
		resultData: { runData: RunData; lastNodeExecuted?: string; error?: Record<string, unknown> };
		[k: string]: unknown;
	};
	status?: string;
	finished?: boolean;
	mode?: string;
	startedAt?: string;
	stoppedAt?: string;
	[k: string]: unknown;
}

export interface ExecutionError {
	message: string;
	description?: string;
	/** Name of the node that failed, when n8n says. */
	node?: string;
	name?: string;
	raw: unknown;
}

export interface ExecuteResult {
	/** n8n's execution status: 'success', 'error', ... */
	status: string;
	run: N8nRun;
	runData: RunData;
	lastNodeExecuted?: string;
	/** `.json` of the items on output 0 of the last run of the last executed node. */
	lastNodeOutput: Array<Record<string, unknown>>;
	/** Set when the execution failed (n8n then exits 1). */
	error?: ExecutionError;
	exitCode: number | null;
	/** The signal that ended n8n, when one did (exitCode is then null). */
	signal: NodeJS.Signals | null;
	durationMs: number;
	stdout: string;
	stderr: string;
}

function isRun(v: unknown): v is N8nRun {
	const r = v as N8nRun | null;
	return (
		!!r && typeof r === 'object' && !!r.data && typeof r.data === 'object' && !!r.data.resultData
	);
}

/**
 * Finds the IRun in `n8n execute --rawOutput` output. In 2.40.7 --rawOutput only drops the
 * "Execution was successful:" header: the run is printed as JSON.stringify(run, null, 2)
 * through n8n's logger at level *info* (with N8N_LOG_LEVEL=warn nothing is printed at all),
 * interleaved with other log lines. On failure the run is logged (also at info) after
 * "Execution error:" and n8n exits 1. With N8N_LOG_FORMAT=json it is the `message` of one
 * record; with the text format it is a block of lines from `{` to `}`: both are handled.
 */
export function extractRun(stdout: string): N8nRun | undefined {
	let found: N8nRun | undefined;
	for (const rec of parseLogRecords(stdout)) {
		const m = rec.message.trimStart();
		if (!m.startsWith('{')) continue;
		try {
			const v = JSON.parse(m);
			if (isRun(v)) found = v;
		} catch {
			/* not JSON */
		}
	}
	if (found) return found;
	// Text log format: look for a multi-line JSON block.
	const lines = stdout.split('\n');
	for (let i = lines.length - 1; i >= 0; i--) {
		if (lines[i].trimEnd() !== '}') continue;
		for (let j = i; j >= 0; j--) {
			if (lines[j].trimEnd() !== '{') continue;
			try {
				const v = JSON.parse(lines.slice(j, i + 1).join('\n'));
				if (isRun(v)) return v;
			} catch {
				/* keep looking */
			}
		}
	}
	return undefined;
}

/** `.json` of the items a node produced (output `output`, run `run`; default: last run). */
export function nodeOutput(
	runData: RunData,
	nodeName: string,
	output = 0,
	run = -1,
): Array<Record<string, unknown>> {
	return nodeItems(runData, nodeName, output, run).map((i) => i.json);
}

/** Full items (json, binary, pairedItem) a node produced. */
export function nodeItems(runData: RunData, nodeName: string, output = 0, run = -1): N8nItem[] {
	const runs = runData[nodeName];
	if (!runs || runs.length === 0) {
		throw new Error(
			`node "${nodeName}" did not run; nodes that ran: ${Object.keys(runData).join(', ') || '(none)'}`,
		);
	}
	const task = runs.at(run);
	return task?.data?.main?.[output] ?? [];
}

function toExecutionError(run: N8nRun): ExecutionError | undefined {
	const err = run.data.resultData.error;
	if (!err) return undefined;
	const node =
		(err.node as { name?: string } | undefined)?.name ?? run.data.resultData.lastNodeExecuted;
	return {
		message: String(err.message ?? 'unknown error'),
		description: typeof err.description === 'string' ? err.description : undefined,
		node,
		name: typeof err.name === 'string' ? err.name : undefined,
		raw: err,
	};
}

function toResult(run: N8nRun, proc: ProcessResult): ExecuteResult {
	const runData = run.data.resultData.runData ?? {};
	const last = run.data.resultData.lastNodeExecuted;
	return {
		status: run.status ?? (run.data.resultData.error ? 'error' : 'success'),
		run,
		runData,
		lastNodeExecuted: last,
		lastNodeOutput: last && runData[last] ? nodeOutput(runData, last) : [],
		error: toExecutionError(run),
		exitCode: proc.code,
		signal: proc.signal,
		durationMs: proc.durationMs,
		stdout: proc.stdout,
		stderr: proc.stderr,
	};
}

/**
 * `n8n execute --id=<id> --rawOutput` (a new n8n process: about 4 s). Resolves with the
 * run, also when the workflow failed (then `error` is set); rejects when n8n printed no
 * run (unknown id, crash, time-out) with n8n's output in the message.
 */
export async function executeWorkflow(
	folder: N8nUserFolder,
	id: string,
	opts: RunN8nOptions = {},
): Promise<ExecuteResult> {
	const args = ['execute', `--id=${id}`, '--rawOutput'];
	const proc = await runN8n(folder, args, { ...opts, logLevel: 'info' });
	const run = extractRun(proc.stdout);
	if (!run) throw new N8nCommandError(args, proc, 'printed no execution result');
	return toResult(run, proc);
}

export interface BatchResult {
	workflowId: string;
	/** 'success' | 'error' | 'warning' (n8n's batch statuses; a time-out is a warning) | 'missing' */
	status: string;
	/** n8n's one-line summary for a failed run: "<message> on node <name>". */
	error?: string;
	/** Full run (successful runs only: n8n snapshots nothing else). */
	run?: N8nRun;
	runData?: RunData;
	lastNodeExecuted?: string;
	lastNodeOutput?: Array<Record<string, unknown>>;
	executionTimeS?: number;
}

/**
 * `n8n execute-batch`: runs many workflows in ONE n8n process (one start-up instead of
 * one per workflow). Successful runs come back in full (from --snapshot files); failed
 * ones only with n8n's error summary: use executeWorkflow to inspect a failure.
 * n8n ignores ids without a digit.
 */
export async function executeBatch(
	folder: N8nUserFolder,
	ids: string[],
	opts: RunN8nOptions & { concurrency?: number } = {},
): Promise<Record<string, BatchResult>> {
	const bad = ids.filter((id) => !/\d/.test(id) || id.includes(','));
	if (bad.length)
		throw new Error(
			`execute-batch ignores ids without a digit (or with commas): ${bad.join(', ')}`,
		);
	const work = await mkdtemp(join(tmpdir(), 'n8n-e2e-batch-'));
	try {
		const snapshots = join(work, 'snapshots');
		await mkdir(snapshots);
		const output = join(work, 'output.json');
		const args = [
			'execute-batch',
			`--ids=${ids.join(',')}`,
			`--snapshot=${snapshots}`,
			`--output=${output}`,
			'--retries=0',
			`--concurrency=${opts.concurrency ?? 1}`,
		];
		const proc = await runN8n(folder, args, {
			timeoutMs: 600_000,
			...opts,
			logLevel: opts.logLevel ?? 'warn',
		});
		if (!existsSync(output)) throw new N8nCommandError(args, proc, 'wrote no --output file');
		const summary = JSON.parse(await readFile(output, 'utf8')) as {
			executions: Array<{
				workflowId: string;
				executionStatus: string;
				error?: string;
				executionTime?: number;
			}>;
		};
		const results: Record<string, BatchResult> = {};
		for (const id of ids) results[id] = { workflowId: id, status: 'missing' };
		for (const e of summary.executions) {
			const r: BatchResult = {
				workflowId: e.workflowId,
				status: e.executionStatus,
				error: e.error,
				executionTimeS: e.executionTime,
			};
			const snap = join(snapshots, `${e.workflowId}-snapshot.json`);
			if (existsSync(snap)) {
				const run = JSON.parse(await readFile(snap, 'utf8')) as N8nRun;
				const full = toResult(run, proc);
				Object.assign(r, {
					run,
					runData: full.runData,
					lastNodeExecuted: full.lastNodeExecuted,
					lastNodeOutput: full.lastNodeOutput,
				});
			}
			results[e.workflowId] = r;
		}
		return results;
	} finally {
		await rm(work, { recursive: true, force: true });
	}
}

// ------------------------------------------------------------------ publish / start

/**
 * Makes a workflow's triggers live at the next start (run it while n8n is stopped, then startN8n).
 * In 2.x, what `n8n publish:workflow --id=<id>` does (WorkflowRepository.publishVersion: the
 * current version, which must be in the workflow's history, becomes the active one), written to
 * n8n's database in one statement: a CLI run costs an n8n start-up, about 5 s of CPU, per workflow.
 * In 1.x, which has no publish:workflow, `n8n update:workflow --id=<id> --active=true`.
 */
export async function publishWorkflow(folder: N8nUserFolder, id: string): Promise<void> {
	if (getRuntime().major < 2) {
		await runN8nOk(folder, ['update:workflow', `--id=${id}`, '--active=true']);
		return;
	}
	const changed = await updateDatabase(
		folder,
		'UPDATE workflow_entity SET active = true, "activeVersionId" = "versionId" WHERE id = $1 AND ' +
			'"isArchived" = false AND EXISTS (SELECT 1 FROM workflow_history h WHERE ' +
			'h."workflowId" = workflow_entity.id AND h."versionId" = workflow_entity."versionId")',
		[id],
	);
	if (changed !== 1)
		throw new Error(`cannot publish workflow ${id}: not imported, archived or without its version`);
}

/**
 * Runs `fn` on the folder's SQLite database, opened in this process (Node's own SQLite: no process
 * to start), waiting up to 30 s for a lock n8n holds.
 */
export function withSqlite<T>(folder: N8nUserFolder, fn: (db: DatabaseSync) => T): T {
	const db = new DatabaseSync(databaseOf(folder), { timeout: 30_000 });
	try {
		return fn(db);
	} finally {
		db.close();
	}
}

/** Runs one writing statement ($1… parameters) on the folder's n8n database; the rows changed. */
async function updateDatabase(
	folder: N8nUserFolder,
	statement: string,
	params: Array<string | number | null>,
): Promise<number> {
	if (folder.env?.DB_TYPE !== 'postgresdb')
		// SQLite numbers its parameters ?1, ?2…
		return withSqlite(folder, (db) =>
			Number(db.prepare(statement.replace(/\$(\d+)/g, '?$1')).run(...params).changes),
		);
	return (await postgresQuery(folder, statement, params)).rowCount ?? 0;
}

interface PostgresResult {
	rows: Array<Record<string, unknown>>;
	rowCount: number | null;
}

/**
 * One statement ($1… parameters) on the folder's PostgreSQL (queue mode), in this process with the
 * runtime's own pg and a connection of its own: a process a statement cost about 0.2 s of CPU, and
 * the tests poll executions twice a second.
 */
async function postgresQuery(
	folder: N8nUserFolder,
	statement: string,
	params: unknown[] = [],
): Promise<PostgresResult> {
	const { Client } = loadRuntimeModule(join(getRuntime().runtimeDir, 'node_modules', 'pg')) as {
		Client: new (config: object) => {
			on(event: 'error', listener: (error: Error) => void): void;
			connect(): Promise<void>;
			query(statement: string, params: unknown[]): Promise<PostgresResult>;
			end(): Promise<void>;
		};
	};
	const client = new Client({
		...(JSON.parse(databaseOf(folder)) as object),
		connectionTimeoutMillis: 30_000,
		query_timeout: 30_000,
	});
	// A connection n8n's PostgreSQL drops is the statement's error, not the process's.
	client.on('error', () => undefined);
	await client.connect();
	try {
		return await client.query(statement, params);
	} finally {
		await client.end();
	}
}

export interface RunningN8n {
	/** e.g. http://127.0.0.1:5678 (webhooks at `${url}/webhook/<path>`). */
	url: string;
	port: number;
	process: ChildProcess;
	/** n8n's output so far, readable. */
	logs(): string;
	/** SIGTERM (graceful, N8N_GRACEFUL_SHUTDOWN_TIMEOUT=5), SIGKILL after 20 s. */
	stop(): Promise<void>;
}

export interface StartN8nOptions {
	/**
	 * `start` (default: the main process, editor and API), or queue mode's `worker` (its health
	 * server on `port`: QUEUE_HEALTH_CHECK_PORT) or `webhook` (production webhooks on `port`).
	 */
	command?: 'start' | 'worker' | 'webhook';
	/** More arguments after the command, e.g. `--concurrency=5` for a worker. */
	args?: string[];
	/** Default: a free port. */
	port?: number;
	/** Time allowed for readiness (and for the webhooks below). Default 120 s. */
	timeoutMs?: number;
	logLevel?: RunN8nOptions['logLevel'];
	env?: Record<string, string>;
	/**
	 * Production webhooks to wait for, e.g. `[{ path: 'my-hook', method: 'POST' }]`. In 2.40.7
	 * published workflows are activated asynchronously AFTER /healthz/readiness says ready
	 * (a "publication outbox" processed in the background): a request sent right at readiness
	 * gets 404 "webhook is not registered". See waitForWebhook.
	 */
	webhooks?: Array<{ path: string; method?: string }>;
	/** Stops n8n (and the wait for it) when aborted. */
	signal?: AbortSignal;
	/** Receives n8n's output (stdout and stderr) as it comes, e.g. to write a log file. */
	onOutput?: (chunk: Buffer) => void;
}

/**
 * Sets up n8n's owner account, as a new user does on the set-up form, and returns the session
 * cookie the editor's own requests carry (the type files, the REST API behind the sign-in).
 */
export async function setUpOwner(url: string): Promise<string> {
	const owner = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			email: 'owner@example.com',
			firstName: 'E2E',
			lastName: 'Owner',
			password: 'E2e-owner-pass-1',
		}),
	});
	if (owner.status !== 200)
		throw new Error(`owner set-up answered HTTP ${owner.status}: ${await owner.text()}`);
	return owner.headers
		.getSetCookie()
		.map((line) => line.split(';')[0])
		.join('; ');
}

/**
 * `n8n start` (or `worker`, `webhook`: opts.command) on the folder; resolves when GET
 * /healthz/readiness answers 200 (about 7 s), for `start` also its REST API, and every webhook in
 * `opts.webhooks` is registered.
 */
export async function startN8n(
	folder: N8nUserFolder,
	opts: StartN8nOptions = {},
): Promise<RunningN8n> {
	const rt = getRuntime();
	const command = opts.command ?? 'start';
	const port = opts.port ?? (await freePort());
	const url = `http://127.0.0.1:${port}`;
	const env = n8nEnv(folder, {
		logLevel: opts.logLevel ?? 'warn',
		brokerPort: await freePort(),
		env: {
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_PROTOCOL: 'http',
			N8N_EDITOR_BASE_URL: `${url}/`,
			// Webhook URLs n8n shows and hands to nodes: this process, unless the folder says otherwise
			// (queue mode: the webhook process).
			N8N_WEBHOOK_URL: folder.env?.N8N_WEBHOOK_URL ?? `${url}/`,
			// A worker answers health checks only when asked to, on its own port.
			...(command === 'worker'
				? {
						QUEUE_HEALTH_CHECK_ACTIVE: 'true',
						QUEUE_HEALTH_CHECK_PORT: String(port),
						N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
					}
				: {}),
			...opts.env,
		},
	});
	const service = spawnService(rt.node, [rt.n8nBin, command, ...(opts.args ?? [])], {
		cwd: folder.root,
		env,
		onOutput: opts.onOutput,
	});
	const child = service.process;
	const logs = () => readableLog(service.stdout(), service.stderr());
	// One SIGTERM only (spawnService): n8n handles the first one (graceful shutdown, which removes
	// its crash journal); a second one would kill it at once, and its next start would wait 10 s for
	// "Last session crashed".
	const stop = service.stop;
	const exitedEarly = () => service.exited();
	if (opts.signal?.aborted) await stop();
	opts.signal?.addEventListener('abort', () => void stop(), { once: true });

	const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
	for (;;) {
		const exited = exitedEarly();
		if (exited) {
			throw new Error(
				`n8n ${command} exited early (${exited.code ?? exited.signal}). Last output:\n${tailText(logs(), 40)}`,
			);
		}
		try {
			const res = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) });
			// The main process is ready once its REST API answers too: n8n 1.x reports readiness (and
			// serves 404 on /rest/*) several seconds before it mounts the REST API; 2.x mounts it first.
			if (res.status === 200 && (command !== 'start' || (await restApiMounted(url)))) break;
		} catch {
			/* not listening yet */
		}
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`n8n ${command} not ready on ${url} within ${opts.timeoutMs ?? 120_000} ms. Last output:\n${tailText(logs(), 40)}`,
			);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	const running: RunningN8n = { url, port, process: child, logs, stop };
	try {
		for (const hook of opts.webhooks ?? []) {
			await waitForWebhook(running, hook.path, {
				method: hook.method,
				timeoutMs: Math.max(0, deadline - Date.now()) + 30_000,
			});
		}
	} catch (e) {
		await stop();
		throw e;
	}
	return running;
}

/**
 * Whether n8n's REST API answers: GET /rest/settings (public, what the sign-in page reads first) is
 * 200.
 */
async function restApiMounted(url: string): Promise<boolean> {
	const res = await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(2000) });
	await res.body?.cancel();
	return res.status === 200;
}

/**
 * Waits until n8n has registered the production webhook `<url>/webhook/<path>` for `method`
 * without triggering it: a CORS preflight (OPTIONS) lists the registered methods in
 * Access-Control-Allow-Methods ("OPTIONS, POST" once registered, "OPTIONS" before).
 */
export async function waitForWebhook(
	n8n: RunningN8n,
	path: string,
	opts: { method?: string; timeoutMs?: number } = {},
): Promise<void> {
	const method = (opts.method ?? 'POST').toUpperCase();
	const target = `${n8n.url}/webhook/${path.replace(/^\//, '')}`;
	const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
	let last = '';
	for (;;) {
		try {
			const res = await fetch(target, {
				method: 'OPTIONS',
				headers: { Origin: n8n.url, 'Access-Control-Request-Method': method },
				signal: AbortSignal.timeout(2000),
			});
			const allowed = (res.headers.get('access-control-allow-methods') ?? '')
				.split(',')
				.map((m) => m.trim().toUpperCase());
			if (allowed.includes(method)) return;
			last = `${res.status}, allowed: ${allowed.join(' ') || '-'}`;
		} catch (e) {
			last = (e as Error).message;
		}
		if (Date.now() > deadline) {
			throw new Error(
				`webhook ${method} ${target} not registered in time (last: ${last}); is the workflow published? ` +
					`n8n output:\n${tailText(n8n.logs(), 40)}`,
			);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
}

// ------------------------------------------------------------------ executions

export interface RecordedExecution {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	startedAt: string;
	/** When the execution ended (ISO), empty while it runs. */
	stoppedAt: string;
	/** Items each node output on its first run, output 0. */
	nodeItems: Record<string, Array<Record<string, unknown>>>;
	/**
	 * The execution's data and workflow exactly as n8n stored them, to search for what must not be
	 * there.
	 */
	stored: string;
}

/**
 * Where a script given it as its argument finds n8n's database: PostgreSQL's connection (JSON)
 * in queue mode, the SQLite file otherwise.
 */
export function databaseOf(folder: N8nUserFolder): string {
	const env = folder.env ?? {};
	return env.DB_TYPE === 'postgresdb'
		? JSON.stringify({
				host: env.DB_POSTGRESDB_HOST,
				port: Number(env.DB_POSTGRESDB_PORT),
				database: env.DB_POSTGRESDB_DATABASE,
				user: env.DB_POSTGRESDB_USER,
				password: env.DB_POSTGRESDB_PASSWORD,
			})
		: join(folder.n8nDir, 'database.sqlite');
}

/** Loads a module of the n8n runtime's own (pure JavaScript) into this process. */
const loadRuntimeModule = createRequire(__filename);

/**
 * The executions n8n recorded (of `workflowId` when given), oldest first: in the folder's SQLite
 * database, or in PostgreSQL when the folder's n8n uses it (`folder.env.DB_TYPE`, queue mode), read
 * in this process with Node's own SQLite or the runtime's pg, and the runtime's flatted (n8n stores
 * run data flatted). Works while n8n runs. `data: false` leaves the run data out (`nodeItems` and
 * `stored` empty): a light read for polling while a workflow runs, which neither loads the
 * machine nor holds this process (and its sandbox).
 */
export async function listExecutions(
	folder: N8nUserFolder,
	workflowId?: string,
	{ data = true }: { data?: boolean } = {},
): Promise<RecordedExecution[]> {
	const modules = join(getRuntime().runtimeDir, 'node_modules');
	const postgres = folder.env?.DB_TYPE === 'postgresdb';
	const query =
		(data
			? 'SELECT e.id, e."workflowId", e.status, e.mode, e."startedAt", e."stoppedAt", d.data, d."workflowData" FROM execution_entity e ' +
				'LEFT JOIN execution_data d ON d."executionId" = e.id'
			: 'SELECT e.id, e."workflowId", e.status, e.mode, e."startedAt", e."stoppedAt" FROM execution_entity e') +
		// One workflow's executions only: a poll does not read every other run's data.
		(!workflowId ? '' : ` WHERE e."workflowId" = ${postgres ? '$1' : '?'}`) +
		' ORDER BY e.id';
	const params = workflowId ? [workflowId] : [];
	let rows: Array<Record<string, unknown>>;
	if (postgres) rows = (await postgresQuery(folder, query, params)).rows;
	else {
		// In this process (Node's own SQLite): a process per read cost about 0.2 s of CPU, and the
		// tests poll twice a second.
		const db = new DatabaseSync(databaseOf(folder), { readOnly: true, timeout: 30_000 });
		try {
			rows = db.prepare(query).all(...params);
		} finally {
			db.close();
		}
	}
	const { parse } = loadRuntimeModule(join(modules, 'flatted')) as {
		parse: (text: string) => unknown;
	};
	const text = (v: unknown) => (v == null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
	const executions = rows.map((row): RecordedExecution => {
		const nodeItems: RecordedExecution['nodeItems'] = {};
		if (row.data != null)
			try {
				const { runData } = (parse(String(row.data)) as { resultData: { runData: RunData } })
					.resultData;
				for (const [node, runs] of Object.entries(runData))
					nodeItems[node] = (runs[0]?.data?.main?.[0] ?? []).map((item) => item.json);
			} catch {
				/* not a run's data */
			}
		return {
			id: String(row.id),
			workflowId: String(row.workflowId),
			status: String(row.status),
			mode: String(row.mode),
			startedAt: row.startedAt == null ? '' : String(row.startedAt),
			stoppedAt: row.stoppedAt == null ? '' : String(row.stoppedAt),
			nodeItems,
			stored: text(row.data) + text(row.workflowData),
		};
	});
	return executions;
}

/**
 * The workflow's newest execution once more than `after` of its executions are recorded and that
 * one has finished (not new, running or waiting); polled at n8n's own pace (half a second).
 */
export async function finishedExecution(
	folder: N8nUserFolder,
	workflowId: string,
	after = 0,
	timeoutMs = 120_000,
): Promise<RecordedExecution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = await listExecutions(folder, workflowId);
		const last = executions.at(-1);
		if (executions.length > after && last && !['new', 'running', 'waiting'].includes(last.status))
			return last;
		if (Date.now() > deadline)
			throw new Error(`no finished execution of ${workflowId}: ${JSON.stringify(last?.status)}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}
