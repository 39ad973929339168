// n8n's community-package scanner (@n8n/scan-community-package), run on local files instead of a
// package downloaded from npm: the same ESLint rules and settings (inline eslint-disable comments
// ignored), on the source files it checks (package.json, nodes/, credentials/) or on an unpacked
// tarball (every .js and .json). Prints the findings; `--json` prints them as JSON.
// Usage: node scripts/scan.mjs [--source] [--json] [dir]   (dir: the project root by default)
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const source = args.includes('--source');
const json = args.includes('--json');
const dir = args.find((arg) => !arg.startsWith('--')) ?? root;

const require = createRequire(import.meta.url);
const scannerDir = dirname(require.resolve('@n8n/scan-community-package/package.json'));
const scanner = await import(pathToFileURL(join(scannerDir, 'scanner/scanner.mjs')).href);
// The scanner's own ESLint (9, flat config), not the project's.
const { ESLint } = await import(
	pathToFileURL(createRequire(join(scannerDir, 'scanner/scanner.mjs')).resolve('eslint')).href
);
const glob = (
	await import(
		pathToFileURL(createRequire(join(scannerDir, 'scanner/scanner.mjs')).resolve('fast-glob')).href
	)
).default;

const patterns = source ? scanner.SOURCE_FILE_PATTERNS : ['**/*.js', '**/*.ts', '**/*.json'];
const eslint = new ESLint({
	cwd: dir,
	allowInlineConfig: false,
	overrideConfigFile: true,
	overrideConfig: await scanner.buildScanConfig(),
});
const files = glob.sync(patterns, {
	cwd: dir,
	absolute: true,
	ignore: ['node_modules/**', '**/package-lock.json'],
});
const results = await eslint.lintFiles(files);
const findings = results.flatMap((result) =>
	result.messages
		.filter((message) => message.severity === 2)
		.map((message) => ({
			file: relative(dir, result.filePath),
			line: message.line,
			rule: message.ruleId,
			message: message.message,
		})),
);
if (json) console.log(JSON.stringify({ files: files.length, findings }));
else {
	for (const finding of findings)
		console.log(`${finding.file}:${finding.line}  ${finding.rule}  ${finding.message}`);
	console.log(
		`scan (${source ? 'source' : 'package'} leg): ${files.length} files, ${findings.length} findings`,
	);
}
process.exitCode = findings.length ? 1 : 0;
