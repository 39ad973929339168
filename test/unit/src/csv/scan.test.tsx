import Papa from 'papaparse';

import { textOf } from '../../../../src/csv/pieces';
import type { CsvLayout, CsvRow, CsvStop } from '../../../../src/csv/row';
import { eachCsvRow } from '../../../../src/csv/rows';

/**
 * Issue 50 reads rows from the file's bytes with indexOf (BytePieces, RowScanner) where papaparse read
 * them all from decoded text: the rows it gives, and where a file stops, must be papaparse's. The
 * oracle is the reading as it was before.
 */

interface Seen {
	rows: Array<[number, number, string[], string]>;
	stop?: CsvStop;
	bytes: number;
}

const record = (rows: Seen['rows']) => (row: CsvRow) =>
	rows.push([row.index, row.line, row.fields, textOf(row.text.slice(row.start, row.end))]);

/**
 * The bytes in chunks of the sizes given in turn: one after the other in memory, as the pieces of
 * one buffer, or (sizes of an odd count) each in a buffer of its own, as a stream gives them.
 */
async function* chunksOf(bytes: Buffer, sizes: number[]): AsyncGenerator<Uint8Array> {
	let start = 0;
	for (let i = 0; start < bytes.length; i++) {
		const size = sizes[i % sizes.length];
		const chunk = bytes.subarray(start, start + size);
		yield sizes.length % 2 ? Buffer.from(chunk) : chunk;
		start += size;
	}
}

async function scanned(bytes: Buffer, layout: CsvLayout, sizes: number[]): Promise<Seen> {
	const rows: Seen['rows'] = [];
	const { bytes: read, stop } = await eachCsvRow(chunksOf(bytes, sizes), layout, record(rows));
	return { rows, stop, bytes: read };
}

/**
 * The reading before issue 50, kept here as the oracle: text decoded by a TextDecoder, then
 * papaparse on every piece (pending rows and the new text), each row's line counted from its
 * line breaks.
 */
async function papaparsed(bytes: Buffer, layout: CsvLayout, sizes: number[]): Promise<Seen> {
	const rows: Seen['rows'] = [];
	const { delimiter, lineBreak } = layout;
	let line = 1;
	let index = -1;
	let stop: CsvStop | undefined;
	const parse = (text: string, last: boolean): string => {
		let start = 0;
		const parser: {
			parse: (input: string, base: number, ignoreLast: boolean) => unknown;
			abort: () => void;
		} = new Papa.Parser({
			delimiter,
			newline: lineBreak,
			step: (results: {
				data: string[][];
				errors: Array<{ code: string }>;
				meta: { cursor: number };
			}) => {
				const end = results.meta.cursor;
				if (stop || (last && end === start && start === text.length)) return;
				if (results.errors.length) {
					const missing = results.errors.some((error) => error.code === 'MissingQuotes');
					stop = {
						problem: missing
							? `a quoted field that starts on line ${line} is never closed`
							: `a quoted value on line ${line} does not end where it should: the quote that closes a value must come just before a delimiter or a line break, and a quote inside a value is written twice ("")`,
						line,
					};
					return parser.abort();
				}
				const raw = text.slice(start, end);
				rows.push([index++, line, results.data[0], raw]);
				line += raw.split(lineBreak).length - 1;
				start = end;
			},
		});
		parser.parse(text, 0, !last);
		return text.slice(start);
	};
	const decoder = new TextDecoder('utf-8', { fatal: true });
	let pending = '';
	let read = 0;
	for await (const chunk of chunksOf(bytes, sizes)) {
		read += chunk.length;
		pending = parse(pending + decoder.decode(chunk, { stream: true }), false);
		if (stop) return { rows, stop, bytes: read };
	}
	parse(pending + decoder.decode(), true);
	return { rows, stop, bytes: read };
}

/** A small random generator, the same on every run. */
function generator(seed: number) {
	let state = seed;
	const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
	const pick = <T,>(items: T[]): T => items[Math.floor(next() * items.length)];
	return { next, pick };
}

const DELIMITERS = [',', ';', '\t', '|'];
const BREAKS: Array<CsvLayout['lineBreak']> = ['\n', '\r\n', '\r'];

/**
 * A file built of fields: plain ones, quoted ones (with doubled quotes, delimiters and line breaks
 * inside), and now and then what papaparse reads its own way: spaces after a closing quote, a
 * stray quote, a quote never closed, a line break of another kind, an empty line.
 */
function randomFile(random: ReturnType<typeof generator>, layout: CsvLayout): string {
	const { delimiter, lineBreak } = layout;
	const plain = () => random.pick(['a', 'bc', '', 'é', 'x y', '12', 'a"b', 'Ω€', ' ']);
	const inside = () =>
		random.pick(['a', '""', delimiter, lineBreak, 'é', ' ', '\n', '\r', 'b', ',', ';']);
	const quoted = () => `"${Array.from({ length: 1 + random.next() * 4 }, inside).join('')}"`;
	const odd = () =>
		random.pick([`"a" `, `"a"b`, `"a`, `"`, `"a"  `, `"a""`, '\r', '\n', '"a"\r', `x"`]);
	const rows = Array.from({ length: Math.floor(random.next() * 12) }, () => {
		if (random.next() < 0.05) return '';
		const fields = Array.from({ length: 1 + Math.floor(random.next() * 4) }, () => {
			const roll = random.next();
			return roll < 0.5 ? plain() : roll < 0.93 ? quoted() : odd();
		});
		return fields.join(delimiter);
	});
	return rows.join(lineBreak) + (random.next() < 0.6 ? lineBreak : '');
}

describe('RowScanner reads rows as papaparse does', () => {
	it('the same rows (fields, indexes, lines, text) and the same stop on 6,000 random files, in pieces of random sizes', async () => {
		const random = generator(50);
		let unusual = 0;
		for (let n = 0; n < 6000; n++) {
			const layout: CsvLayout = {
				delimiter: random.pick(DELIMITERS),
				lineBreak: random.pick(BREAKS),
				bom: false,
			};
			const bytes = Buffer.from(randomFile(random, layout));
			const sizes = Array.from({ length: 2 + (n % 2) }, () => 1 + Math.floor(random.next() * 40));
			const expected = await papaparsed(bytes, layout, sizes);
			if (expected.stop) unusual++;
			const got = await scanned(bytes, layout, sizes);
			if (JSON.stringify(got) !== JSON.stringify(expected))
				expect({ file: bytes.toString(), layout, sizes, got }).toEqual({
					file: bytes.toString(),
					layout,
					sizes,
					got: expected,
				});
		}
		// The files do reach papaparse's errors, not only its good rows.
		expect(unusual).toBeGreaterThan(300);
	});

	it('a member export read in pieces of 64 KB: the same as papaparse, row for row', async () => {
		const { memberRow, MEMBER_HEADER } = await import('../../../helpers/member-csv');
		const bytes = Buffer.from(
			`${MEMBER_HEADER}\n${Array.from({ length: 20_000 }, (_, n) => memberRow(n)).join('\n')}\n`,
		);
		const layout: CsvLayout = { delimiter: ',', lineBreak: '\n', bom: false };
		const got = await scanned(bytes, layout, [65536, 1000, 7]);
		expect(got.rows).toHaveLength(20_001);
		expect(got).toEqual(await papaparsed(bytes, layout, [65536, 1000, 7]));
		// A quoted line break: the rows after it start a line further down.
		expect(got.rows[6]).toEqual([5, 7, expect.any(Array), expect.stringContaining('\nprefers')]);
		expect(got.rows[7][1]).toBe(9);
	});

	it('a member export in chunks larger than a piece, each in a buffer of its own (as a file stream gives them): the same as papaparse', async () => {
		// A chunk is read in pieces of 64 KB; the first is put together with the row the last chunk
		// ended in, and the rest of that piece is read in the chunk, where the next piece follows it.
		const { memberRow, MEMBER_HEADER } = await import('../../../helpers/member-csv');
		const bytes = Buffer.from(
			`\ufeff${MEMBER_HEADER}\n${Array.from({ length: 20_000 }, (_, n) => memberRow(n)).join('\n')}\n`,
		);
		const layout: CsvLayout = { delimiter: ',', lineBreak: '\n', bom: true };
		const expected = await papaparsed(bytes.subarray(3), layout, [bytes.length]);
		for (const sizes of [
			[200_003, 150_001, 70_001],
			[2, 1, 300_001],
			[1_048_576, 1, 65_537],
		]) {
			const got = await scanned(bytes, layout, sizes);
			expect(got.rows).toHaveLength(20_001);
			expect(got).toEqual({ ...expected, bytes: bytes.length });
		}
	});

	it('a value with doubled quotes is given with one, and the row keeps its text as written', async () => {
		const bytes = Buffer.from('a,b\n"say ""hi""",x\n');
		const got = await scanned(bytes, { delimiter: ',', lineBreak: '\n', bom: false }, [64]);
		expect(got.rows[1]).toEqual([0, 2, ['say "hi"', 'x'], '"say ""hi""",x\n']);
	});

	it('a byte that is not UTF-8, wherever the pieces cut the file (a byte order mark or not): the reading stops at its byte and line', async () => {
		const random = generator(7);
		let tested = 0;
		for (let n = 0; n < 2000; n++) {
			const layout: CsvLayout = { delimiter: ',', lineBreak: random.pick(BREAKS), bom: false };
			const good = Buffer.from(randomFile(random, layout) || 'a');
			// Files that papaparse reads to their end: the bad byte is their only problem.
			if ((await papaparsed(good, layout, [64])).stop) continue;
			tested++;
			let at = Math.floor(random.next() * good.length);
			// Between two characters.
			while (at < good.length && (good[at] & 0xc0) === 0x80) at++;
			// A byte UTF-8 never has, a lead byte without its next byte, a next byte without its lead.
			const bad = random.pick([[0xff], [0xc3, 0x41], [0x80], [0xe2, 0x82]]);
			const bom = random.next() < 0.3 ? [0xef, 0xbb, 0xbf] : [];
			const bytes = Buffer.from([...bom, ...good.subarray(0, at), ...bad, ...good.subarray(at)]);
			const sizes = Array.from({ length: 2 + (n % 2) }, () => 1 + Math.floor(random.next() * 9));
			const got = await scanned(bytes, layout, sizes);
			const line = 1 + good.subarray(0, at).toString('latin1').split(layout.lineBreak).length - 1;
			const where =
				at === good.length && bad[0] === 0xe2
					? 'it ends inside a character'
					: `byte ${bom.length + at + 1} (0x${bad[0].toString(16)}) is not UTF-8`;
			expect({ file: [...bytes], sizes, stop: got.stop }).toEqual({
				file: [...bytes],
				sizes,
				stop: {
					line,
					problem: `the file is not UTF-8 text: ${where} on line ${line} (save it as "CSV UTF-8")`,
				},
			});
			// The rows given are those before the bad byte's line, at most.
			expect(got.rows.every(([, rowLine]) => rowLine <= line)).toBe(true);
		}
		expect(tested).toBeGreaterThan(1000);
	});
});
