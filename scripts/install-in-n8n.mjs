// `npm run install-in-n8n [-- --user-folder <folder>] [--tarball-only] [--no-build]`: this clone's
// package built, packed and installed into a self-hosted n8n, as the README's "By hand" steps do: into
// `<folder>/.n8n/nodes` (the folder n8n's N8N_USER_FOLDER names; default: $N8N_USER_FOLDER, else
// the home folder), with npm's --legacy-peer-deps (n8n provides n8n-workflow). Restart n8n after.
// With --tarball-only it stops at the tarball (for a Docker container or another machine) and
// prints its path. --no-build packs dist/ as it is. Needs `npm ci` first (the build's tools).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
	options: {
		'user-folder': { type: 'string' },
		'tarball-only': { type: 'boolean' },
		'no-build': { type: 'boolean' },
	},
});
const npm = process.env.npm_execpath;
const run = (args, cwd) => {
	const result = npm
		? spawnSync(process.execPath, [npm, ...args], { cwd, encoding: 'utf8' })
		: spawnSync('npm', args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) {
		process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
		process.stderr.write(`install-in-n8n: npm ${args[0]} failed\n`);
		process.exit(result.status ?? 1);
	}
	return result.stdout;
};

if (!values['no-build']) {
	const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
		cwd: root,
		stdio: ['ignore', 'inherit', 'inherit'],
	});
	if (build.status !== 0) process.exit(build.status ?? 1);
}
const destination = mkdtempSync(join(tmpdir(), 'n8n-nodes-audience-messaging-'));
const packArgs = ['pack', '--pack-destination', destination, '--json', '--ignore-scripts'];
const [{ filename }] = JSON.parse(run([...packArgs, '--loglevel=warn'], root));
const tarball = join(destination, filename);
if (values['tarball-only']) {
	process.stdout.write(
		`${tarball}\nInstall it in n8n's nodes folder: npm install --legacy-peer-deps ${tarball}\n`,
	);
	process.exit(0);
}

const userFolder = resolve(values['user-folder'] ?? process.env.N8N_USER_FOLDER ?? homedir());
const nodes = join(userFolder, '.n8n', 'nodes');
mkdirSync(nodes, { recursive: true });
if (!existsSync(join(nodes, 'package.json')))
	writeFileSync(
		join(nodes, 'package.json'),
		`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
	);
run(
	['install', tarball, '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel=warn'],
	nodes,
);
const { version } = JSON.parse(
	readFileSync(join(nodes, 'node_modules', 'n8n-nodes-audience-messaging', 'package.json'), 'utf8'),
);
process.stdout.write(
	`n8n-nodes-audience-messaging ${version} installed in ${nodes}: restart n8n to load it.\n`,
);
