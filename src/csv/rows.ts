import Papa from 'papaparse';

import type { ByteSource } from '../values/bytes';
import { BOM, byteChunks, firstInvalidUtf8 } from './bytes';

/**
 * A row of a CSV file as the reading gives it: its fields, its index among the rows after the
 * header (the header is −1), the line it starts on, and where its text (line break included) is
 * in `text` (rawRow). One object is reused for every row: keep what you need of it, not it.
 */
export interface CsvRow {
	fields: string[];
	index: number;
	line: number;
	text: string;
	start: number;
	end: number;
}

/**
 * The longest a row may be: past it, a quote that is never closed would make the rest of the file
 * one row.
 */
const MAX_ROW_CHARS = 1024 * 1024;

/**
 * Why the reading of a file stopped before its end (bytes that are not UTF-8, a row that never
 * ends), and on which line.
 */
interface CsvStop {
	problem: string;
	line: number;
}

/**
 * How a file's rows are split: its delimiter and line break, and whether it starts with a byte
 * order mark.
 */
export interface CsvLayout {
	delimiter: string;
	lineBreak: '\n' | '\r\n' | '\r';
	bom: boolean;
}

/**
 * The layout of a CSV from its first bytes: the line break of its first line, and the delimiter
 * papaparse finds in its first lines (`,` when none).
 */
export function csvLayout(head: Buffer): CsvLayout {
	const bom = BOM.every((byte, index) => head[index] === byte);
	const text = head.subarray(bom ? 3 : 0).toString('utf8');
	const newline = text.indexOf('\n');
	const lineBreak =
		newline > 0 && text[newline - 1] === '\r'
			? '\r\n'
			: newline === -1 && text.includes('\r')
				? '\r'
				: '\n';
	// The first lines only, cut at a line break: a partial last line would weigh in the guess.
	const sample = text.slice(
		0,
		Math.max(text.lastIndexOf(lineBreak, 16 * 1024), Math.min(text.length, 16 * 1024)),
	);
	const guessed = Papa.parse<string[]>(sample, {
		preview: 20,
		newline: lineBreak,
		skipEmptyLines: true,
		delimitersToGuess: [',', ';', '\t', '|'],
	}).meta.delimiter;
	return { delimiter: guessed || ',', lineBreak, bom };
}

/**
 * Reads the rows of a CSV as it streams, giving each to `onRow`: bytes decoded as UTF-8 (a bad
 * byte stops the reading), rows split by papaparse in pieces of 64 KB, each with the line it
 * starts on (a quoted field may hold line breaks). It yields after each piece, so a reader can
 * pass on what the piece's rows gave. Memory stays at a piece and the row it ends in, whatever
 * the size: a row longer than MAX_ROW_CHARS stops the reading (a quote that is never closed).
 * Returns the bytes read, and why the reading stopped early if it did (the rows before that
 * place were given).
 */
export async function* readCsvRows(
	source: Buffer | ByteSource,
	layout: CsvLayout,
	onRow: (row: CsvRow) => void,
): AsyncGenerator<void, { bytes: number; stop?: CsvStop }> {
	const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
	const { delimiter, lineBreak } = layout;
	const breakLength = lineBreak.length;
	let pending = '';
	let line = 1;
	let index = -1;
	let bytes = 0;
	let stop: CsvStop | undefined;
	const row: CsvRow = { fields: [], index: -1, line: 1, text: '', start: 0, end: 0 };
	/**
	 * Gives the complete rows of `text` (all of it when `last`); what is left of it stays pending.
	 */
	const parse = (text: string, last: boolean): void => {
		let start = 0;
		let nextBreak = text.indexOf(lineBreak);
		const parser: {
			parse: (input: string, baseIndex: number, ignoreLastRow: boolean) => unknown;
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
				// The line break that ends a file is no row.
				if (stop || (last && end === start && start === text.length)) return;
				if (results.errors.length) {
					stop = results.errors.some((error) => error.code === 'MissingQuotes')
						? { problem: `a quoted field that starts on line ${line} is never closed`, line }
						: {
								problem: `a quoted value on line ${line} does not end where it should: the quote that closes a value must come just before a delimiter or a line break, and a quote inside a value is written twice ("")`,
								line,
							};
					return parser.abort();
				}
				row.fields = results.data[0];
				row.index = index++;
				row.line = line;
				row.text = text;
				row.start = start;
				row.end = end;
				onRow(row);
				// Most rows are one line, ended by the next line break: the breaks inside a row are counted
				// only when there are some.
				if (nextBreak !== -1 && nextBreak < end) {
					line++;
					nextBreak = text.indexOf(lineBreak, nextBreak + breakLength);
					while (nextBreak !== -1 && nextBreak < end) {
						line++;
						nextBreak = text.indexOf(lineBreak, nextBreak + breakLength);
					}
				}
				start = end;
			},
		});
		parser.parse(text, 0, !last);
		pending = text.slice(start);
		if (!stop && pending.length > MAX_ROW_CHARS) {
			stop = {
				problem: pending.includes('"')
					? `a quoted field that starts on line ${line} is never closed (or its row is over 1 MB)`
					: `line ${line} is over 1 MB long`,
				line,
			};
		}
	};
	const notUtf8 = (where: string, at: number): CsvStop => ({
		problem: `the file is not UTF-8 text: ${where} on line ${at} (save it as "CSV UTF-8")`,
		line: at,
	});
	for await (const chunk of byteChunks(source)) {
		let text: string;
		try {
			text = decoder.decode(chunk, { stream: true });
		} catch {
			// The line of the first bad byte: the pending rows' lines, then the line breaks before it in
			// this piece.
			const offset = firstInvalidUtf8(chunk);
			const breakByte = lineBreak.charCodeAt(lineBreak.length - 1);
			let at = line + countOf(pending, lineBreak);
			for (let i = 0; i < offset; i++) if (chunk[i] === breakByte) at++;
			return {
				bytes,
				stop: notUtf8(
					`byte ${(bytes + offset + 1).toLocaleString('en-US')} (0x${chunk[offset]?.toString(16).padStart(2, '0') ?? '??'}) is not UTF-8`,
					at,
				),
			};
		}
		bytes += chunk.length;
		parse(pending + text, false);
		yield;
		if (stop) return { bytes, stop };
	}
	let rest = '';
	try {
		rest = decoder.decode();
	} catch {
		return {
			bytes,
			stop: notUtf8('it ends inside a character', line + countOf(pending, lineBreak)),
		};
	}
	parse(pending + rest, true);
	yield;
	return { bytes, stop };
}

function countOf(text: string, part: string): number {
	let count = 0;
	for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
	return count;
}

/** Reads a whole file with readCsvRows. */
export async function eachCsvRow(
	source: Buffer | ByteSource,
	layout: CsvLayout,
	onRow: (row: CsvRow) => void,
): Promise<{ bytes: number; stop?: CsvStop }> {
	const reading = readCsvRows(source, layout, onRow);
	for (;;) {
		const next = await reading.next();
		if (next.done) return next.value;
	}
}
