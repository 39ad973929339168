/**
 * n8n in queue mode, as users who outgrow one machine run it: their own Redis and PostgreSQL
 * (Debian's, installed by scripts/ensure-queue-services.mjs when missing), started here on free
 * loopback ports in a temp folder, and n8n 2.x as one main process, workers and one webhook
 * process sharing one user folder (the community package in its `.n8n/nodes`), one encryption
 * key, the database and the queue. Everything started is stopped by `stop()`, and killed at the
 * latest when the test process exits (spawnService), also when a test or the start-up failed.
 */
import { execFileSync } from 'child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';

import { startFrontProxy } from './front-proxy';
import type { FrontProxy } from './front-proxy';
import { freePort, repoRoot, spawnService, startN8n, watchTempFolder } from './n8n-harness';
import type { N8nUserFolder, RunningN8n, Service } from './n8n-harness';

interface QueueServicePaths {
	redisServer: string;
	postgresBin: string;
}

/** Installs Redis and PostgreSQL when missing (a no-op otherwise) and says where they are. */
export function ensureQueueServices(): QueueServicePaths {
	const out = execFileSync(
		process.execPath,
		[
			'-e',
			`import(${JSON.stringify(join(repoRoot, 'scripts/ensure-queue-services.mjs'))}).then((m) => process.stdout.write(JSON.stringify(m.ensureQueueServices())))`,
		],
		{
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
			env: process.env,
		},
	);
	// apt-get's progress goes to stdout when it installs: the paths are the last line.
	return JSON.parse(out.trim().split('\n').pop() ?? '{}') as QueueServicePaths;
}

/**
 * Resolves once `service` printed a line matching `ready`; rejects when it exits first or after
 * `timeoutMs`.
 */
async function readyWhen(
	service: Service,
	name: string,
	ready: RegExp,
	timeoutMs = 90_000,
): Promise<void> {
	const output = () => service.stdout() + service.stderr();
	await new Promise<void>((resolve, reject) => {
		const check = () => {
			if (ready.test(output())) return done();
			if (service.exited())
				return done(new Error(`${name} exited before it was ready:\n${output().slice(-3000)}`));
		};
		const timer = setTimeout(
			() => done(new Error(`${name} not ready within ${timeoutMs} ms:\n${output().slice(-3000)}`)),
			timeoutMs,
		);
		const done = (error?: Error) => {
			clearTimeout(timer);
			service.process.stdout!.off('data', check);
			service.process.stderr!.off('data', check);
			if (error) reject(error);
			else resolve();
		};
		service.process.stdout!.on('data', check);
		service.process.stderr!.on('data', check);
		void service.whenExited.then(check);
		check();
	});
}

export interface RunningService {
	port: number;
	service: Service;
}

export async function startRedis(redisServer: string, dir: string): Promise<RunningService> {
	const port = await freePort();
	await mkdir(dir, { recursive: true });
	const service = spawnService(
		redisServer,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--dir',
			dir,
			'--save',
			'',
			'--appendonly',
			'no',
		],
		{
			env: process.env,
			graceMs: 10_000,
		},
	);
	await readyWhen(service, 'redis-server', /Ready to accept connections/);
	return { port, service };
}

/** uid and gid of a user from /etc/passwd. */
async function userIds(name: string): Promise<{ uid: number; gid: number }> {
	const line = (await readFile('/etc/passwd', 'utf8'))
		.split('\n')
		.find((l) => l.startsWith(`${name}:`));
	if (!line) throw new Error(`no user ${name} (Debian's postgresql package creates it)`);
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A PostgreSQL cluster of its own in `dir` (initdb, trust on loopback, user `postgres`, no
 * durability: a throwaway test database). PostgreSQL refuses to run as root: as root, it runs as
 * the `postgres` user.
 */
export async function startPostgres(postgresBin: string, dir: string): Promise<RunningService> {
	const port = await freePort();
	const asUser = process.getuid?.() === 0 ? await userIds('postgres') : undefined;
	await mkdir(dir, { recursive: true });
	if (asUser) await chown(dir, asUser.uid, asUser.gid);
	const env = { ...process.env, LANG: 'C', LC_ALL: 'C' };
	const initdb = spawnService(
		join(postgresBin, 'initdb'),
		['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
		{ env, ...asUser },
	);
	await initdb.whenExited;
	if (initdb.exited()?.code !== 0)
		throw new Error(`initdb failed:\n${initdb.stdout()}${initdb.stderr()}`);
	const settings = [
		'listen_addresses=127.0.0.1',
		`unix_socket_directories=${dir}`,
		'fsync=off',
		'synchronous_commit=off',
		'full_page_writes=off',
		'max_connections=200',
	];
	const service = spawnService(
		join(postgresBin, 'postgres'),
		['-D', dir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])],
		{
			env,
			...asUser,
			graceMs: 10_000,
		},
	);
	await readyWhen(service, 'postgres', /database system is ready to accept connections/);
	return { port, service };
}

export interface QueueStack {
	main: RunningN8n;
	workers: RunningN8n[];
	webhook: RunningN8n;
	redis: RunningService;
	postgres: RunningService;
	/** The one public address before main and the webhook process, with `front: true`. */
	front?: FrontProxy;
	/**
	 * Stops n8n (webhook, workers, then main), then Redis and PostgreSQL, and removes their folder.
	 */
	stop(): Promise<void>;
}

/**
 * Starts Redis and PostgreSQL and points every n8n process of `folder` at them (sets
 * `folder.env`): call it before importing credentials and workflows into the folder, then
 * `start()` the n8n processes.
 */
export async function prepareQueueMode(
	folder: N8nUserFolder,
	options: { front?: boolean } = {},
): Promise<{
	start(opts: { workers: number }): Promise<QueueStack>;
	stop(): Promise<void>;
	webhookUrl: string;
}> {
	const paths = ensureQueueServices();
	const base = await mkdtemp(join(tmpdir(), 'am-queue-services-'));
	watchTempFolder(base);
	await chmod(base, 0o755); // the postgres user must reach its data folder
	const started: Array<RunningService> = [];
	const n8ns: RunningN8n[] = [];
	let stopServices = async () => {
		for (const n8n of [...n8ns].reverse()) await n8n.stop();
		for (const s of [...started].reverse()) await s.service.stop();
		await rm(base, { recursive: true, force: true, maxRetries: 3 });
		watchTempFolder(base, false);
	};
	try {
		started.push(await startRedis(paths.redisServer, join(base, 'redis')));
		started.push(await startPostgres(paths.postgresBin, join(base, 'postgres')));
	} catch (error) {
		await stopServices();
		throw error;
	}
	const [redis, postgres] = started;
	const webhookPort = await freePort();
	// With `front`, the address users give n8n behind a load balancer (front-proxy.tsx).
	const front = options.front ? await startFrontProxy() : undefined;
	if (front) {
		const stopN8nAndServices = stopServices;
		stopServices = async () => {
			await stopN8nAndServices();
			await front.close();
		};
	}
	folder.env = {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: 'postgres',
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		// Manual runs on workers too (n8n 3's only behaviour), and production webhooks only on the
		// webhook process.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		// n8n 2.x's name (WEBHOOK_URL is deprecated): the URLs the editor and nodes show are the
		// webhook process's.
		N8N_WEBHOOK_URL: `${front?.url ?? `http://127.0.0.1:${webhookPort}`}/`,
	};
	return {
		stop: stopServices,
		/**
		 * Where the webhook process will listen (known before it starts, for workflows that name it).
		 */
		webhookUrl: front?.url ?? `http://127.0.0.1:${webhookPort}`,
		async start({ workers }) {
			try {
				// Main first: it migrates the database and activates the published workflows.
				const main = await startN8n(folder, { logLevel: 'info' });
				n8ns.push(main);
				const starting = [
					...Array.from({ length: workers }, () =>
						startN8n(folder, { command: 'worker', logLevel: 'info', args: ['--concurrency=10'] }),
					),
					startN8n(folder, { command: 'webhook', port: webhookPort, logLevel: 'info' }),
				];
				const settled = await Promise.allSettled(starting);
				for (const s of settled) if (s.status === 'fulfilled') n8ns.push(s.value);
				const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
				if (failed) throw failed.reason;
				const others = settled.map((s) => (s as PromiseFulfilledResult<RunningN8n>).value);
				if (front) Object.assign(front.targets, { main: main.url, webhook: others[workers].url });
				return {
					front,
					main,
					workers: others.slice(0, workers),
					webhook: others[workers],
					redis,
					postgres,
					stop: stopServices,
				};
			} catch (error) {
				await stopServices();
				throw error;
			}
		},
	};
}
