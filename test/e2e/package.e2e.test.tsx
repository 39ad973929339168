/**
 * What `npm pack` (and so `npm publish`) ships, from a copy of the repository's tracked files with
 * no dist/ in it, as on a clean clone: the pack must build first (prepack), hold exactly the
 * bundled nodes and credentials with their codex and icons, and declare no runtime dependency
 * (zod and papaparse are inside the bundles; n8n-workflow is a peer dependency).
 * The end-to-end tests install this same kind of tarball into a real n8n and run a CSV import and
 * message sends with it (lists.e2e, chatapp.e2e).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { repoRoot, runProcess } from './n8n-harness';

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' })
	.split('\0')
	.filter(Boolean);

describe('the published package', () => {
	let work: string;
	let files: string[];
	let manifest: Record<string, unknown>;
	let bundles: Record<string, string>;

	beforeAll(async () => {
		work = mkdtempSync(join(tmpdir(), 'am-pack-'));
		const project = join(work, 'project');
		// The tracked files only (no dist/, no build output), with the installed development tools.
		for (const file of tracked.filter(
			(f) => !f.startsWith('test/') && !f.startsWith('demo/') && !f.startsWith('docs/'),
		)) {
			cpSync(join(repoRoot, file), join(project, file), { recursive: true });
		}
		symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
		// Plain `npm pack`, as `npm publish` runs it: the project's .npmrc decides whether prepack
		// runs.
		const env: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false' };
		for (const key of Object.keys(env))
			if (/^npm_config_ignore_scripts$/i.test(key)) delete env[key];
		const packed = await runProcess(
			'npm',
			['pack', '--json', '--pack-destination', work, '--loglevel=warn'],
			{ cwd: project, env, timeoutMs: 300_000 },
		);
		if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}\n${packed.stdout}`);
		const info = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{
			filename: string;
			files: Array<{ path: string }>;
		}>;
		files = info[0].files.map((f) => f.path).sort();
		const tarball = join(work, info[0].filename);
		const unpacked = join(work, 'unpacked');
		mkdirSync(unpacked);
		execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
		// n8n-workflow, the peer dependency, is found where n8n would provide it: above the package.
		symlinkSync(join(repoRoot, 'node_modules'), join(unpacked, 'node_modules'), 'dir');
		manifest = JSON.parse(
			readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'),
		) as Record<string, unknown>;
		bundles = Object.fromEntries(
			files
				.filter((f) => f.endsWith('.js'))
				.map((f) => [f, readFileSync(join(unpacked, 'package', f), 'utf8')]),
		);
	}, 300_000);

	afterAll(() => {
		if (work) rmSync(work, { recursive: true, force: true });
	});

	it('holds the built nodes, credentials, codex and icons, and nothing else', () => {
		expect(files).toEqual(
			[
				'CHANGELOG.md',
				'LICENSE',
				'README.md',
				'package.json',
				'dist/credentials/AudienceMessagingApi.credentials.js',
				'dist/credentials/AudienceMessagingApi.credentials.js.map',
				'dist/credentials/AudienceMessagingCallbackApi.credentials.js',
				'dist/credentials/AudienceMessagingCallbackApi.credentials.js.map',
				'dist/nodes/AudienceMessaging/AudienceMessaging.node.js',
				'dist/nodes/AudienceMessaging/AudienceMessaging.node.js.map',
				'dist/nodes/AudienceMessaging/AudienceMessaging.node.json',
				'dist/nodes/AudienceMessaging/audienceMessaging.dark.svg',
				'dist/nodes/AudienceMessaging/audienceMessaging.svg',
				'dist/nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node.js',
				'dist/nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node.js.map',
				'dist/nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node.json',
				'dist/nodes/AudienceMessagingTrigger/audienceMessaging.dark.svg',
				'dist/nodes/AudienceMessagingTrigger/audienceMessaging.svg',
			].sort(),
		);
	});

	it('declares no runtime dependency; n8n-workflow is a peer; every file n8n loads is in it', () => {
		expect(manifest.dependencies).toBeUndefined();
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		const n8n = manifest.n8n as { nodes: string[]; credentials: string[] };
		for (const file of [...n8n.nodes, ...n8n.credentials]) expect(files).toContain(file);
		expect(manifest.license).toBe('MIT');
		expect(manifest.author).toMatchObject({
			email: expect.stringMatching(/^[^@\s]+@[^@\s]+\.[a-z]+$/),
		});
	});

	// Drift: package.json's `files` (or n8n's pack rules) starts shipping another folder or file, or
	// stops shipping one, while the README's "What gets installed" still lists the old contents; or
	// the README stops saying there is no runtime dependency while the manifest still has none.
	it('holds what its README\'s "What gets installed" says, and no runtime dependency as it says', () => {
		const readme = readFileSync(join(work, 'unpacked', 'package', 'README.md'), 'utf8');
		const start = readme.indexOf('### What gets installed');
		expect(start).toBeGreaterThanOrEqual(0);
		const rest = readme.slice(start + 1);
		const end = rest.search(/\n#{1,3} /);
		const section = (end < 0 ? rest : rest.slice(0, end)).replace(/\s+/g, ' ');
		expect(section).toContain('The package has no runtime dependencies');
		expect(manifest.dependencies).toBeUndefined();
		const listed = [
			...section.slice(section.indexOf('The tarball holds ')).matchAll(/`([^`]+)`/g),
		].map((match) => match[1]);
		const topLevel = [
			...new Set(files.map((file) => (file.includes('/') ? `${file.split('/')[0]}/` : file))),
		];
		expect(listed.sort()).toEqual(topLevel.sort());
		// "each node and credential bundled into one file with its source map"
		const n8n = manifest.n8n as { nodes: string[]; credentials: string[] };
		expect(files.filter((file) => file.endsWith('.js')).sort()).toEqual(
			[...n8n.nodes, ...n8n.credentials].sort(),
		);
		for (const file of [...n8n.nodes, ...n8n.credentials]) expect(files).toContain(`${file}.map`);
	});

	it('bundles zod and papaparse: the files require nothing but n8n-workflow and Node built-ins', () => {
		const node = bundles['dist/nodes/AudienceMessaging/AudienceMessaging.node.js'];
		const required = new Set<string>();
		for (const source of Object.values(bundles))
			for (const match of source.matchAll(/require\("([^"]+)"\)/g)) required.add(match[1]);
		// node:crypto is the one Node module n8n's community-node rules allow; papaparse's `stream` has
		// a stand-in.
		expect([...required].sort()).toEqual(['n8n-workflow', 'node:crypto']);
		// Timers and console of the bundled libraries go through n8n-workflow (sleep, LoggerProxy).
		expect(node).toMatch(/^\/\/ \S*scripts\/shims\/n8n-globals\.mjs$/m);
		// zod's and papaparse's own code is inside (esbuild marks each bundled module with its path).
		expect(node).toMatch(/^\/\/ \S*node_modules\/papaparse\/papaparse\.js$/m);
		expect(node).toMatch(/^\/\/ \S*node_modules\/zod\/v3\/ZodError\.js$/m);
	});

	/**
	 * n8n's community-package scanner (its rules, inline disables ignored), on the packed files and
	 * on the sources it checks.
	 */
	const scan = async (dir: string, source: boolean) => {
		const result = await runProcess(
			process.execPath,
			[join(repoRoot, 'scripts/scan.mjs'), '--json', ...(source ? ['--source'] : []), dir],
			{
				cwd: repoRoot,
				// As the scanner runs: jest's NODE_ENV=test turns on extra eslint-plugin-n8n-nodes-base
				// checks meant for its own tests.
				env: { ...process.env, NODE_ENV: 'production' },
				timeoutMs: 300_000,
			},
		);
		const report = JSON.parse(result.stdout) as {
			files: number;
			findings: Array<{ file: string; rule: string }>;
		};
		return {
			files: report.files,
			findings: report.findings.map((f) => `${f.rule} ${f.file}`).sort(),
		};
	};

	/**
	 * `npm publish --dry-run` in the copy (a registry nothing answers at: nothing may leave the
	 * machine).
	 */
	const publishDryRun = async (extraEnv: NodeJS.ProcessEnv) => {
		const env: NodeJS.ProcessEnv = {
			...process.env,
			npm_config_update_notifier: 'false',
			...extraEnv,
		};
		for (const key of Object.keys(env))
			if (/^npm_config_ignore_scripts$/i.test(key)) delete env[key];
		return await runProcess(
			'npm',
			[
				'publish',
				'--dry-run',
				'--json',
				'--registry',
				'http://127.0.0.1:9/',
				'--fetch-retries=0',
				'--loglevel=warn',
			],
			{ cwd: join(work, 'project'), env, timeoutMs: 300_000 },
		);
	};

	it('refuses a plain `npm publish`, pointing to `npm run release` (n8n-node prerelease)', async () => {
		const published = await publishDryRun({ RELEASE_MODE: '' });
		expect(published.code).not.toBe(0);
		expect(`${published.stdout}${published.stderr}`).toContain(
			'Run `npm run release` to publish the package',
		);
	}, 300_000);

	it('publishes, on the release path (RELEASE_MODE, set by n8n-node release), the same files as the pack', async () => {
		const published = await publishDryRun({ RELEASE_MODE: 'true' });
		expect(published.code).toBe(0);
		const info = JSON.parse(published.stdout.slice(published.stdout.indexOf('{'))) as
			| { files: Array<{ path: string }> }
			| Record<string, { files: Array<{ path: string }> }>;
		const entry = 'files' in info ? info : Object.values(info)[0];
		expect((entry.files as Array<{ path: string }>).map((f) => f.path).sort()).toEqual(files);
	}, 300_000);

	it('is released by a GitHub Actions workflow on a version tag that tests first and publishes with provenance', () => {
		const workflow = readFileSync(join(repoRoot, '.github/workflows/publish.yml'), 'utf8');
		expect(workflow).toMatch(/on:\n\s+push:\n\s+tags:\n\s+- '\*\.\*\.\*'/);
		expect(workflow).toMatch(/permissions:\n\s+# .*\n\s+id-token: write/);
		const steps = ['npm ci', 'npm test', 'npx n8n-node release'].map((command) =>
			workflow.indexOf(`run: ${command}\n`) >= 0
				? workflow.indexOf(`run: ${command}\n`)
				: workflow.indexOf(`  ${command}\n`),
		);
		expect(steps.every((at) => at > 0)).toBe(true);
		expect([...steps].sort((a, b) => a - b)).toEqual(steps);
		const scripts = (
			JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		// In GitHub Actions `n8n-node release` runs lint, build and `npm publish` with
		// NPM_CONFIG_PROVENANCE=true; its local path (release-it with auto-changelog) is replaced by
		// the pinned release-it of scripts/release.mjs, which keeps CHANGELOG.md as written
		// (test/unit/release.test.tsx).
		expect(scripts.release).toBe('node scripts/release.mjs');
		expect(scripts.prepublishOnly).toBe('n8n-node prerelease');
	});

	it("n8n's scanner on the packed package finds nothing", async () => {
		const { files: scanned, findings } = await scan(join(work, 'unpacked', 'package'), false);
		expect(scanned).toBe(files.filter((f) => /\.(js|json)$/.test(f)).length);
		expect(findings).toEqual([]);
	}, 300_000);

	it("n8n's scanner on the sources finds nothing", async () => {
		const { files: scanned, findings } = await scan(repoRoot, true);
		expect(scanned).toBeGreaterThan(0);
		expect(findings).toEqual([]);
	}, 300_000);

	it('each bundle loads on its own and exposes its class, with n8n-workflow as the only outside module', () => {
		const loaded: Record<string, string[]> = {};
		for (const file of Object.keys(bundles).filter((f) => !f.endsWith('.map'))) {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const exported = require(join(work, 'unpacked', 'package', file)) as Record<string, unknown>;
			loaded[file] = Object.keys(exported);
		}
		expect(loaded).toEqual({
			'dist/credentials/AudienceMessagingApi.credentials.js': ['AudienceMessagingApi'],
			'dist/credentials/AudienceMessagingCallbackApi.credentials.js': [
				'AudienceMessagingCallbackApi',
			],
			'dist/nodes/AudienceMessaging/AudienceMessaging.node.js': ['AudienceMessaging'],
			'dist/nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node.js': [
				'AudienceMessagingTrigger',
			],
		});
	});
});
