/** A CSV file rewritten for upload: its bad rows left out, converted to commas when asked. */
import Papa from 'papaparse';

import type { ByteSource } from '../base/bytes';
import { BOM } from './bytes';
import { byteTextOf } from './pieces';
import type { ByteText } from './pieces';
import { readCsvRows } from './rows';
import type { CsvLayout, CsvRow } from './row';

/** A row's bytes as in the file, its line break included. */
const rawRow = (row: CsvRow): ByteText => row.text.slice(row.start, row.end);

/** A row's bytes in the rewritten file: as read, or (Convert to Commas) as papaparse writes it. */
export function rewrittenRow(row: CsvRow, layout: CsvLayout, convert: boolean): ByteText {
	const raw = rawRow(row);
	if (!convert || layout.delimiter === ',') return raw;
	const ending = raw.endsWith(layout.lineBreak) ? layout.lineBreak : '';
	return byteTextOf(
		Papa.unparse([row.fields], { delimiter: ',', newline: layout.lineBreak }) + ending,
	);
}

/** The file without `leaveOut`'s rows, streamed: Content-Length is the check's rewrittenBytes. */
export async function* rewrittenCsv(
	source: Buffer | ByteSource,
	layout: CsvLayout,
	leaveOut: Set<number>,
	convert: boolean,
): AsyncGenerator<Uint8Array> {
	if (layout.bom) yield Buffer.from(BOM);
	let out: ByteText[] = [];
	const reading = readCsvRows(source, layout, (row) => {
		if (!leaveOut.has(row.index)) out.push(rewrittenRow(row, layout, convert));
	});
	for (;;) {
		const next = await reading.next();
		if (out.length) yield Buffer.from(out.join(''), 'latin1');
		out = [];
		if (next.done) return;
	}
}
