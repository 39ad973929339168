import Papa from 'papaparse';

import type { ByteSource } from '../values/bytes';
import { BOM } from './bytes';
import { readCsvRows } from './rows';
import type { CsvLayout, CsvRow } from './rows';

/** A row's text as in the file, its line break included. */
const rawRow = (row: CsvRow): string => row.text.slice(row.start, row.end);

/**
 * A row as a rewritten file holds it: its own text, or with Convert to Commas the row written
 * again by papaparse with commas (quoted where a value needs it), its line break kept.
 */
export function rewrittenRow(row: CsvRow, layout: CsvLayout, convert: boolean): string {
	const raw = rawRow(row);
	if (!convert || layout.delimiter === ',') return raw;
	const ending = raw.endsWith(layout.lineBreak) ? layout.lineBreak : '';
	return Papa.unparse([row.fields], { delimiter: ',', newline: layout.lineBreak }) + ending;
}

/**
 * The file again without the rows `leaveOut` names, converted to commas when asked (the upload of
 * Leave Out the Bad Rows, Convert to Commas), streamed piece by piece. Its size is the
 * check's `bytes` of the same rewrite (checkCsv), which the upload declares as Content-Length.
 */
export async function* rewrittenCsv(
	source: Buffer | ByteSource,
	layout: CsvLayout,
	leaveOut: Set<number>,
	convert: boolean,
): AsyncGenerator<Uint8Array> {
	if (layout.bom) yield Buffer.from(BOM);
	let out: string[] = [];
	const reading = readCsvRows(source, layout, (row) => {
		if (!leaveOut.has(row.index)) out.push(rewrittenRow(row, layout, convert));
	});
	for (;;) {
		const next = await reading.next();
		if (out.length) yield Buffer.from(out.join(''));
		out = [];
		if (next.done) return;
	}
}
