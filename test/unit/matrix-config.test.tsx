/**
 * The compatibility matrix's set-up, without running any n8n: every version with a committed
 * runtime (test/n8n-runtime and test/n8n-runtime/versions/<version>) lies in the n8n range the
 * package declares (package.json engines.n8n), has its lockfile, and is a job of the CI workflow;
 * `npm run test:matrix -- --check` is what checks it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const matrix = (...args: string[]) =>
	spawnSync(process.execPath, [join(root, 'scripts/matrix.mjs'), ...args], {
		cwd: root,
		encoding: 'utf8',
		env: { ...process.env, N8N_VERSION: '' },
	});
const versions = JSON.parse(
	execFileSync(
		process.execPath,
		[
			'-e',
			"import('./test/n8n-runtime/paths.mjs').then((p) => console.log(JSON.stringify(p.availableVersions())))",
		],
		{ cwd: root, encoding: 'utf8' },
	),
) as string[];

it('declares the supported n8n range in package.json', () => {
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
		engines: Record<string, string>;
	};
	expect(pkg.engines).toEqual({ node: '>=20.15', n8n: '>=1.123.0 <3.0.0' });
});

it('has a 1.x and a 2.x runtime beside the pinned default, each in the range, with a lockfile and a CI job', () => {
	expect(versions.map((v) => v.split('.')[0])).toEqual(expect.arrayContaining(['1', '2']));
	const result = matrix('--check');
	expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
	for (const version of versions) expect(result.stdout).toContain(`n8n ${version}: ok`);
	expect(result.stdout).toMatch(/^MATRIX CHECK: ok: /m);
});

it('fails a version that has no committed runtime, naming the ones there are', () => {
	const result = matrix('--check', '--versions', '2.41.3');
	expect(result.status).toBe(1);
	expect(result.stdout).toContain(
		`n8n 2.41.3 has no runtime in test/n8n-runtime/versions/<version>/package.json; available: ${versions.join(', ')}`,
	);
});

it('checks ranges as npm does for the forms engines.n8n uses', () => {
	// jest's CommonJS runtime cannot import the ESM script: ask a child process.
	const check = (pairs: Array<[string, string]>) =>
		JSON.parse(
			execFileSync(
				process.execPath,
				[
					'-e',
					`import('./scripts/matrix.mjs').then((m) => console.log(JSON.stringify(${JSON.stringify(pairs)}.map(([v, r]) => m.satisfies(v, r)))))`,
				],
				{ cwd: root, encoding: 'utf8' },
			),
		) as boolean[];
	const range = '>=1.123.0 <3.0.0';
	const cases: Array<[string, string]> = [
		'1.122.9',
		'1.123.0',
		'1.123.81',
		'2.0.0',
		'2.41.1',
		'3.0.0',
	].map((v) => [v, range]);
	expect(check([...cases, ['1.0.0', '>=2.0.0 || 1.0.0']])).toEqual([
		false,
		true,
		true,
		true,
		true,
		false,
		true,
	]);
});

/**
 * The optional dependencies a locked package names that its lockfile does not lock (npm resolves
 * them upward through node_modules, as it installs them): `npm ci` refuses such a lockfile as "not
 * in sync".
 */
function unlockedOptionals(lock: { packages: Record<string, { optionalDependencies?: object }> }) {
	const { packages } = lock;
	return Object.entries(packages).flatMap(([path, entry]) =>
		Object.keys(entry.optionalDependencies ?? {})
			.filter((name) => {
				const parts = path ? path.split('/node_modules/') : [];
				for (let depth = parts.length; depth >= 0; depth--) {
					const above = parts.slice(0, depth).join('/node_modules/');
					if (packages[`${above ? `${above}/` : ''}node_modules/${name}`]) return false;
				}
				return true;
			})
			.map((name) => `${path} -> ${name}`),
	);
}

it("locks every platform's optional packages in each runtime's lockfile, so npm ci installs it as locked", () => {
	const lockfiles = execFileSync(
		'git',
		[
			'ls-files',
			'test/n8n-runtime/package-lock.json',
			'test/n8n-runtime/versions/*/package-lock.json',
		],
		{ cwd: root, encoding: 'utf8' },
	)
		.trim()
		.split('\n');
	expect(lockfiles.length).toBe(versions.length);
	for (const file of lockfiles) {
		const lock = JSON.parse(readFileSync(join(root, file), 'utf8'));
		expect({ file, unlocked: unlockedOptionals(lock) }).toEqual({ file, unlocked: [] });
	}
	// What npm ci refused before: msgpackr-extract's darwin and win32 builds left out.
	const without = JSON.parse(readFileSync(join(root, lockfiles[0]), 'utf8'));
	delete without.packages['node_modules/@msgpackr-extract/msgpackr-extract-win32-x64'];
	expect(unlockedOptionals(without)).toEqual([
		'node_modules/msgpackr-extract -> @msgpackr-extract/msgpackr-extract-win32-x64',
	]);
});
