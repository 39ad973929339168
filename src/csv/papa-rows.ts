/** The rows RowScanner leaves to papaparse (quoted rows it does not read as papaparse does). */
import Papa from 'papaparse';

import { textOf } from './pieces';
import type { ByteText } from './pieces';
import { giveRow } from './row';
import type { RowReading } from './row';

interface PapaStep {
	data: string[][];
	errors: Array<{ code: string }>;
	meta: { cursor: number };
}

/** Gives `text`'s complete rows (all if `last`) to an error (`reading.stop`); returns their end. */
export function papaRows(text: ByteText, last: boolean, reading: RowReading): number {
	const { delimiter, lineBreak } = reading.layout;
	const breakLength = lineBreak.length;
	let start = 0;
	let nextBreak = text.indexOf(lineBreak);
	const parser: {
		parse: (input: string, baseIndex: number, ignoreLastRow: boolean) => unknown;
		abort: () => void;
	} = new Papa.Parser({
		delimiter,
		newline: lineBreak,
		step: (results: PapaStep) => {
			const end = results.meta.cursor;
			// The line break that ends a file is no row.
			if (reading.stop || (last && end === start && start === text.length)) return;
			if (results.errors.length) {
				reading.stop =
					wideSpaceProblem(text, start, delimiter, reading.line) ??
					quoteProblem(results, reading.line);
				return parser.abort();
			}
			reading.row.setValues(text, start, results.data[0].map(textOf));
			let lines = 0;
			while (nextBreak !== -1 && nextBreak < end) {
				lines++;
				nextBreak = text.indexOf(lineBreak, nextBreak + breakLength);
			}
			giveRow(reading, end, lines);
			start = end;
		},
	});
	parser.parse(text, 0, !last);
	return start;
}

/** The spaces past ASCII that JavaScript's trim() removes (papaparse's test, on decoded text). */
const WIDE_SPACE = /[\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;
const SPACE = /\s/;

/**
 * A closing quote then a space past ASCII (a no-break space, as some spreadsheets write) before the
 * delimiter or line break: papaparse reads bytes here, where it is no space; name it and its line.
 */
function wideSpaceProblem(text: ByteText, start: number, delimiter: string, line: number) {
	const row = textOf(text.slice(start, start + 65_536));
	for (let quote = row.indexOf('"'); quote !== -1; quote = row.indexOf('"', quote + 1)) {
		let at = quote + 1;
		let wide: string | undefined;
		for (; at < row.length && SPACE.test(row[at]); at++)
			if (!wide && WIDE_SPACE.test(row[at])) wide = row[at];
		const ends = at === row.length || row.startsWith(delimiter, at) || /[\r\n]/.test(row[at]);
		if (!wide || !ends) continue;
		const where = line + (row.slice(0, quote).match(/\r\n|\r|\n/g)?.length ?? 0);
		const code = wide.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
		return {
			problem: `a quoted value on line ${where} has a space character past ASCII (U+${code}) after its closing quote: remove it, or put it inside the quotes`,
			line: where,
		};
	}
	return undefined;
}

function quoteProblem(results: PapaStep, line: number) {
	return results.errors.some((error) => error.code === 'MissingQuotes')
		? { problem: `a quoted field that starts on line ${line} is never closed`, line }
		: {
				problem: `a quoted value on line ${line} does not end where it should: the quote that closes a value must come just before a delimiter or a line break, and a quote inside a value is written twice ("")`,
				line,
			};
}
