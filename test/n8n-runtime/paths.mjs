// Where the real n8n used by the end-to-end tests lives, and which Node runs it.
//
// Import it (`import { resolveRuntime } from './paths.mjs'`) or run it
// (`node test/n8n-runtime/paths.mjs` prints the same as JSON on one line, for
// callers that cannot import ESM, e.g. jest's CommonJS test files).
// No dependencies; plain Node (any version >= 18).
//
// Which n8n: the version pinned in test/n8n-runtime/package.json (+ package-lock.json) by
// default; `N8N_VERSION=<version>` selects another one, pinned in
// test/n8n-runtime/versions/<version>/{package.json,package-lock.json} (the compatibility
// matrix, `npm run test:matrix`). Each version is installed into a folder of its own.
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const runtimeSourceDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(runtimeSourceDir, '..', '..');
/** The default (pinned) runtime's package.json and lockfile. */
export const runtimePackageJsonPath = join(runtimeSourceDir, 'package.json');
export const runtimeLockfilePath = join(runtimeSourceDir, 'package-lock.json');
/** Other versions, one folder each: versions/<version>/{package.json,package-lock.json}. */
export const versionsDir = join(runtimeSourceDir, 'versions');

const pinnedIn = (packageJsonPath) => {
	const pkg = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
	const version = pkg.dependencies?.n8n;
	if (!version) throw new Error(`${relative(repoRoot, packageJsonPath)} has no dependencies.n8n`);
	return version;
};

/** The n8n version pinned in test/n8n-runtime/package.json (the default). */
export function defaultN8nVersion() {
	return pinnedIn(runtimePackageJsonPath);
}

/** -1, 0 or 1 as the plain x.y.z version `a` is below, equal to or above `b`; throws on anything else. */
export function compareVersions(a, b) {
	const parse = (v) => {
		const m = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(String(v).trim());
		if (!m) throw new Error(`not a plain x.y.z version: "${v}"`);
		return m.slice(1).map(Number);
	};
	const [pa, pb] = [parse(a), parse(b)];
	for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
	return 0;
}

/** Every n8n version that has a committed runtime: the default and versions/<version>/, newest first. */
export function availableVersions() {
	const others = existsSync(versionsDir)
		? readdirSync(versionsDir).filter((v) => existsSync(join(versionsDir, v, 'package.json')))
		: [];
	return [...new Set([defaultN8nVersion(), ...others])].sort((a, b) => compareVersions(b, a));
}

/**
 * The package.json and lockfile of one n8n version (default: `$N8N_VERSION`, else the pinned one).
 * Throws, naming the available versions, when the version has no committed folder.
 */
export function runtimeSource(version = process.env.N8N_VERSION || defaultN8nVersion()) {
	if (version === defaultN8nVersion()) {
		return { version, packageJsonPath: runtimePackageJsonPath, lockfilePath: runtimeLockfilePath };
	}
	const dir = join(versionsDir, version);
	const packageJsonPath = join(dir, 'package.json');
	if (!/^\d+\.\d+\.\d+$/.test(version) || !existsSync(packageJsonPath)) {
		throw new Error(
			`n8n ${version} has no runtime in ${relative(repoRoot, versionsDir)}/<version>/package.json; ` +
				`available: ${availableVersions().join(', ')}`,
		);
	}
	const pinned = pinnedIn(packageJsonPath);
	if (pinned !== version) throw new Error(`${relative(repoRoot, packageJsonPath)} pins n8n ${pinned}, not ${version}`);
	return { version, packageJsonPath, lockfilePath: join(dir, 'package-lock.json') };
}

/** The selected n8n version (`$N8N_VERSION`, else the one pinned in test/n8n-runtime/package.json). */
export function n8nVersion() {
	return runtimeSource().version;
}

/** `$N8N_RUNTIME_DIR`, else `${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-audience-messaging/n8n-<version>`. */
export function runtimeDir(version = n8nVersion()) {
	if (process.env.N8N_RUNTIME_DIR) return resolve(process.env.N8N_RUNTIME_DIR);
	const cacheHome = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(cacheHome, 'n8n-nodes-audience-messaging', `n8n-${version}`);
}

const nodeMajor = (v) => Number(String(v).replace(/^v/, '').split('.')[0]);

/**
 * A Node >= 24 binary: the current one if it already is, else the project's devDependency
 * `node` (the registry's Node.js package: its install script fetches this platform's binary,
 * linux or macOS, x64 or arm64; node_modules/.bin/node). Throws if neither.
 */
export function node24() {
	if (nodeMajor(process.versions.node) >= 24) return process.execPath;
	const candidates = [
		join(repoRoot, 'node_modules', '.bin', 'node'),
		join(repoRoot, 'node_modules', 'node', 'bin', 'node'),
	];
	for (const c of candidates) if (existsSync(c)) return realpathSync(c);
	throw new Error(
		`n8n 2.x needs Node >= 24 but this is ${process.version} and ${candidates[0]} does not exist: run \`npm ci\` in ${repoRoot} first.`,
	);
}

/** Everything a caller needs, in one object. */
export function resolveRuntime() {
	const source = runtimeSource();
	const dir = runtimeDir(source.version);
	return {
		version: source.version,
		/** Major version of the selected n8n (1 or 2): the harness adapts to CLI differences. */
		major: Number(source.version.split('.')[0]),
		packageJsonPath: source.packageJsonPath,
		lockfilePath: source.lockfilePath,
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
