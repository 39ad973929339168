// Debian packages the tests need (chromium, redis-server, postgresql), installed with apt-get as
// root or with passwordless sudo; `apt-get update` only when the first try fails.
import { spawnSync } from 'node:child_process';

function run(command, args) {
	const asRoot = process.getuid?.() === 0;
	const [bin, argv] = asRoot ? [command, args] : ['sudo', ['-n', command, ...args]];
	// Containers without systemd: a package's own scripts may try to start its service and fail
	// to; harmless, the tests start their own instances.
	const result = spawnSync(bin, argv, {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
	return result.status === 0;
}

/** Installs the packages; throws with `hint` (what else the user can do) when apt-get cannot. */
export function aptInstall(packages, hint) {
	const install = () => run('apt-get', ['install', '-y', '--no-install-recommends', ...packages]);
	if (!install() && !(run('apt-get', ['update']) && install())) {
		throw new Error(
			`could not install ${packages.join(', ')} with apt-get (needs root or passwordless sudo); ${hint}`,
		);
	}
}
