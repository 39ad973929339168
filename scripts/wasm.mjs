// Compiles src/csv/piece-index.wat (the CSV check's SIMD scan, issue 50) with wabt and writes its
// bytes into src/csv/piece-index-wasm.ts, which the package bundles: `npm run wasm` after a change
// to the .wat. `--check` writes nothing and exits 1 when the bundled bytes are not the .wat
// compiled (test/unit/src/csv/piece-index.test.tsx runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The module compiled from the .wat, as base64. */
async function compiledPieceIndex() {
	const wabt = await require('wabt')();
	const source = readFileSync(join(root, 'src/csv/piece-index.wat'), 'utf8');
	const module = wabt.parseWat('piece-index.wat', source, { simd: true });
	module.validate();
	const { buffer } = module.toBinary({});
	module.destroy();
	return Buffer.from(buffer).toString('base64');
}

const TARGET = join(root, 'src/csv/piece-index-wasm.ts');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const base64 = await compiledPieceIndex();
	if (process.argv.includes('--check')) {
		const bundled = readFileSync(TARGET, 'utf8').match(/'([A-Za-z0-9+/=]+)'/g) ?? [];
		const same = bundled.map((part) => part.slice(1, -1)).join('') === base64;
		console.log(
			same
				? 'piece-index-wasm.ts is piece-index.wat compiled'
				: 'piece-index-wasm.ts is stale: npm run wasm',
		);
		process.exit(same ? 0 : 1);
	}
	const lines = base64.match(/.{1,96}/g).map((line) => `\t'${line}'`);
	writeFileSync(
		TARGET,
		[
			'/**',
			' * The WebAssembly module compiled from piece-index.wat (its source: read that), as base64.',
			' * Written by `npm run wasm` (scripts/wasm.mjs); a unit test checks it is that file compiled.',
			' */',
			'export const PIECE_INDEX_WASM =',
			`${lines.join(' +\n')};`,
			'',
		].join('\n'),
	);
	console.log(`src/csv/piece-index-wasm.ts: ${Buffer.from(base64, 'base64').length} bytes`);
}
