// The queue-mode end-to-end test (test/e2e/queue.e2e.test.tsx) runs n8n the way queue-mode users
// do: Redis and PostgreSQL beside it. This installs Debian's `redis-server` and `postgresql`
// when they are missing (apt-get, as root or with passwordless sudo) and prints where they are.
// The test starts its own instances on free loopback ports in temp folders: nothing here starts
// or configures a system service.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { aptInstall } from './apt.mjs';

const PG_ROOT = '/usr/lib/postgresql';

function onPath(command) {
	for (const dir of (process.env.PATH ?? '').split(':')) {
		if (dir && existsSync(join(dir, command))) return join(dir, command);
	}
	for (const dir of ['/usr/bin', '/usr/sbin', '/usr/local/bin']) {
		if (existsSync(join(dir, command))) return join(dir, command);
	}
	return undefined;
}

/** The newest Debian PostgreSQL server's bin folder (postgres, initdb), or undefined. */
function postgresBin() {
	if (process.env.POSTGRES_BIN_DIR)
		return existsSync(join(process.env.POSTGRES_BIN_DIR, 'postgres'))
			? process.env.POSTGRES_BIN_DIR
			: undefined;
	if (!existsSync(PG_ROOT)) return undefined;
	const versions = readdirSync(PG_ROOT)
		.filter(
			(v) =>
				existsSync(join(PG_ROOT, v, 'bin', 'postgres')) &&
				existsSync(join(PG_ROOT, v, 'bin', 'initdb')),
		)
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? join(PG_ROOT, versions[0], 'bin') : undefined;
}

/** Where the services are: { redisServer, postgresBin } (either undefined when missing). */
export function findQueueServices() {
	return {
		redisServer: process.env.REDIS_SERVER ?? onPath('redis-server'),
		postgresBin: postgresBin(),
	};
}

export function ensureQueueServices() {
	const found = findQueueServices();
	const missing = [
		...(found.redisServer ? [] : ['redis-server']),
		...(found.postgresBin ? [] : ['postgresql']),
	];
	if (missing.length) {
		console.log(`[queue services] installing Debian ${missing.join(', ')} (apt)...`);
		aptInstall(missing, 'install the Debian packages or set REDIS_SERVER / POSTGRES_BIN_DIR');
	}
	const after = findQueueServices();
	if (!after.redisServer || !after.postgresBin)
		throw new Error(`queue services still missing after apt-get: ${JSON.stringify(after)}`);
	return after;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const { redisServer, postgresBin: pg } = ensureQueueServices();
	console.log(`[queue services] redis-server ${redisServer}, postgres ${pg}`);
}
