/**
 * `npm run install-in-n8n` (scripts/install-in-n8n.mjs), the README's one command to put this
 * clone's package into a self-hosted n8n: run for real into a temp n8n user folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const folder = mkdtempSync(join(tmpdir(), 'install-in-n8n-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it("installs the built package into <user folder>/.n8n/nodes as n8n's installer does: every node and credential file, no second n8n-workflow", () => {
	const run = spawnSync(
		process.execPath,
		// dist/ as npm test's build left it: a build here would remove it under the e2e files' feet.
		// Built here only when there is none (the unit tests run alone, or the mutation run's copy).
		[
			join(ROOT, 'scripts', 'install-in-n8n.mjs'),
			'--user-folder',
			folder,
			...(existsSync(join(ROOT, 'dist')) ? ['--no-build'] : []),
		],
		{ cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_execpath: '' } },
	);
	expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
	const nodes = join(folder, '.n8n', 'nodes');
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		version: string;
		n8n: { nodes: string[]; credentials: string[] };
	};
	expect(run.stdout).toContain(
		`n8n-nodes-audience-messaging ${pkg.version} installed in ${nodes}: restart n8n`,
	);
	const installed = join(nodes, 'node_modules', 'n8n-nodes-audience-messaging');
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials])
		expect({ file, there: existsSync(join(installed, file)) }).toEqual({ file, there: true });
	// n8n provides n8n-workflow; a copy beside the package would be a second one (--legacy-peer-deps).
	expect(existsSync(join(nodes, 'node_modules', 'n8n-workflow'))).toBe(false);
	const dependencies = (
		JSON.parse(readFileSync(join(nodes, 'package.json'), 'utf8')) as {
			dependencies: Record<string, string>;
		}
	).dependencies;
	expect(Object.keys(dependencies)).toEqual(['n8n-nodes-audience-messaging']);
	// The README gives this command.
	expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('npm run install-in-n8n');
});
