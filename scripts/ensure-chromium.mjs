// The browser test drives Debian's Chromium (npm's browser downloads are not reachable here):
// installs the `chromium` package when /usr/bin/chromium is missing.
import { existsSync } from 'node:fs';

import { aptInstall } from './apt.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	console.log('[chromium] installing Debian chromium (apt)...');
	aptInstall(['chromium'], 'install the Debian package "chromium" or set CHROMIUM_PATH');
	return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(`[chromium] ${ensureChromium()}`);
