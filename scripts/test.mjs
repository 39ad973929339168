// The test command (`npm test`, called by .ci/run): build, lint, type-check, make sure the real
// n8n used by the end-to-end tests is installed, then every jest project. Stops at the first
// failure.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// Resolve a package's own file without going through its "exports" map.
const bin = (pkg, file) => join(dirname(require.resolve(`${pkg}/package.json`)), file);
const node = process.execPath;
const jestArgs = process.argv.slice(2);

const steps = [
	['build', [join(root, 'scripts/build.mjs')]],
	// n8n's own lint for community nodes (n8n-node lint: eslint.config.mjs, shipped code).
	['lint', [join(root, 'node_modules/@n8n/node-cli/bin/n8n-node.mjs'), 'lint']],
	// Formatting: prettier with n8n's node-starter settings (.prettierrc.js); `npm run format` fixes it.
	['format', [bin('prettier', 'bin/prettier.cjs'), '--check', '.']],
	// The tests, the sandbox, benchmarks and scripts: their own config (eslint.tests.config.mjs).
	[
		'lint tests',
		[
			bin('eslint', 'bin/eslint.js'),
			'-c',
			'eslint.tests.config.mjs',
			'test',
			'scripts',
			'jest.config.js',
			'eslint.config.mjs',
			'eslint.tests.config.mjs',
		],
	],
	['typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.test.json']],
	['n8n runtime', [join(root, 'test/n8n-runtime/install.mjs')]],
	['chromium', [join(root, 'scripts/ensure-chromium.mjs')]],
	// Debian's redis-server and postgresql for the queue-mode end-to-end test (apt, when missing).
	['queue services', [join(root, 'scripts/ensure-queue-services.mjs')]],
	['jest', [bin('jest', 'bin/jest.js'), '--ci', ...jestArgs]],
];

const summary = [];
for (const [name, args] of steps) {
	const started = Date.now();
	console.log(`\n=== ${name} ===`);
	const result = spawnSync(node, args, { cwd: root, stdio: 'inherit', env: process.env });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	summary.push(`${name} ${result.status === 0 ? 'ok' : 'FAILED'} (${seconds}s)`);
	if (result.status !== 0) {
		console.log(`\nTEST SUMMARY: ${summary.join(', ')}`);
		process.exit(result.status ?? 1);
	}
}
console.log(`\nTEST SUMMARY: ${summary.join(', ')} on Node ${process.version}`);
