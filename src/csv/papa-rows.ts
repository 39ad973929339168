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

/**
 * Gives the complete rows of `text` (all of it when `last`) as papaparse reads them, for the rows
 * RowScanner leaves to it (a quoted row it does not read as papaparse does). Sets `reading.stop` on
 * papaparse's first error (a quote never closed, a closing quote not followed by the delimiter or a
 * line break). Returns where the rows it gave end: the rest stays pending.
 */
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
				reading.stop = quoteProblem(results, reading.line);
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

function quoteProblem(results: PapaStep, line: number) {
	return results.errors.some((error) => error.code === 'MissingQuotes')
		? { problem: `a quoted field that starts on line ${line} is never closed`, line }
		: {
				problem: `a quoted value on line ${line} does not end where it should: the quote that closes a value must come just before a delimiter or a line break, and a quote inside a value is written twice ("")`,
				line,
			};
}
