// The browser test drives Debian's Chromium (npm's browser downloads are not reachable here):
// installs the `chromium` package when /usr/bin/chromium is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(command, args) {
	const asRoot = process.getuid?.() === 0;
	const [bin, argv] = asRoot ? [command, args] : ['sudo', ['-n', command, ...args]];
	const result = spawnSync(bin, argv, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
	return result.status === 0;
}

export function ensureChromium() {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	console.log('[chromium] installing Debian chromium (apt)...');
	const install = () => run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
	if (!install() && !(run('apt-get', ['update']) && install())) {
		throw new Error('could not install chromium with apt-get (needs root or passwordless sudo); install the Debian package "chromium" or set CHROMIUM_PATH');
	}
	return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`[chromium] ${ensureChromium()}`);
