/**
 * The CSV check's speed (printed, not asserted; issue 50's targets): checkCsv, as List › Create
 * From CSV runs it with the list's automatic unique columns (every row's field count, its e-mail
 * and mobile well-formed and not repeated), over generated 190 MB member exports
 * (test/helpers/member-csv.tsx: 1.7 million unique rows, 12 columns, "Réunion" in one row of ten):
 * - unquoted: no quoted value;
 * - quoted: as a CRM writes it, a quoted value with a comma in one row of ten and a quoted line
 *   break in one of 997;
 * - every value quoted: as some spreadsheets save.
 * Each is read through a file stream in 1 MB reads (as the node asks n8n's filesystem store: the
 * read is counted) and from memory (the check alone), a warm-up run then REPEAT runs, median; the
 * check is bundled by esbuild first, as the package ships it.
 * Targets: unquoted ≥ 300 MB/s, quoted ≥ 150 MB/s, through the stream.
 *
 * Run: node --import tsx test/bench/csv-check.bench.tsx [-- --csv-mb 190 --repeat 5]
 * (the files are kept in the system's temporary folder between runs)
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

import { buildSync } from 'esbuild';

import type { checkCsv as CheckCsv } from '../../src/csv/check';
import { writeMemberCsv } from '../helpers/member-csv';

const arg = (name: string, fallback: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
};
const CSV_MB = Number(arg('csv-mb', '190'));
const REPEAT = Number(arg('repeat', '5'));

/** The values of a member export's row, split at the commas outside quotes. */
const valuesOf = (row: string) => row.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);

const FILES: Record<string, { change: (n: number, row: string) => string; target: number }> = {
	unquoted: {
		change: (_, row) =>
			valuesOf(row)
				.map((value) => value.replace(/^"(.*)"$/s, '$1').replace(/[,\n]/g, ' '))
				.join(','),
		target: 300,
	},
	quoted: { change: (_, row) => row, target: 150 },
	'every value quoted': {
		change: (_, row) =>
			valuesOf(row)
				.map((value) => (value.startsWith('"') ? value : `"${value}"`))
				.join(','),
		target: 150,
	},
};

/**
 * checkCsv as the package ships it: bundled by esbuild into one file (scripts/build.mjs bundles each
 * node so), where calls between its modules are plain calls that V8 can inline.
 */
function bundledCheckCsv(): typeof CheckCsv {
	const outfile = join(os.tmpdir(), `csv-check-bench-${process.pid}.cjs`);
	buildSync({
		entryPoints: [join(__dirname, '../../src/csv/check.ts')],
		bundle: true,
		format: 'cjs',
		platform: 'node',
		outfile,
		logLevel: 'warning',
	});
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(outfile) as { checkCsv: typeof CheckCsv }).checkCsv;
}
const checkCsv = bundledCheckCsv();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function rate(path: string, open: () => Promise<Buffer | AsyncIterable<Uint8Array>>) {
	const head = readFileSync(path).subarray(0, 64 * 1024);
	const rates: number[] = [];
	let rows = 0;
	let problems = 0;
	for (let run = 0; run <= REPEAT; run++) {
		const started = performance.now();
		const { report } = await checkCsv(open, head, { autoColumns: true });
		const ms = performance.now() - started;
		if (run > 0) rates.push(report.bytes / 1024 / 1024 / (ms / 1000));
		rows = report.rows;
		problems = report.problemCount;
	}
	return { rate: median(rates), rates, rows, problems };
}

async function main() {
	console.log(`CSV check (checkCsv) on Node ${process.version}, ${os.cpus().length} cores`);
	for (const [name, { change, target }] of Object.entries(FILES)) {
		const path = join(os.tmpdir(), `csv-check-${name.replace(/ /g, '-')}-${CSV_MB}mb.csv`);
		if (!existsSync(path)) writeMemberCsv(path, CSV_MB * 1024 * 1024, change);
		const size = statSync(path).size;
		const streamed = await rate(path, async () =>
			createReadStream(path, { highWaterMark: 1024 * 1024 }),
		);
		const bytes = readFileSync(path);
		const inMemory = await rate(path, async () => bytes);
		const holds = streamed.rate >= target ? 'holds' : 'MISSED';
		console.log(
			`${name}: ${(size / 1024 / 1024).toFixed(0)} MB, ${streamed.rows.toLocaleString('en-US')} rows, ${streamed.problems} problems; through a file stream (1 MB reads) ${streamed.rate.toFixed(0)} MB/s (runs: ${streamed.rates.map((value) => value.toFixed(0)).join(', ')}); from memory ${inMemory.rate.toFixed(0)} MB/s; target ≥ ${target} MB/s through the stream: ${holds}`,
		);
	}
}

void main();
