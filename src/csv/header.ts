/** What is checked before a CSV is uploaded at all: its size and its header line. */
import Papa from 'papaparse';

import { InputError } from '../base/input-errors';

/** Spec §8: CSV uploads for list creation and bulk subscriber add are limited to 200 MB. */
export const CSV_MAX_BYTES = 200 * 1024 * 1024;

export function assertCsvSize(sizeBytes: number, field: string, limit = CSV_MAX_BYTES): void {
	if (sizeBytes > limit) {
		const mb = (sizeBytes / 1024 / 1024).toFixed(1);
		throw new InputError(
			field,
			`the CSV file is ${mb} MB; the platform accepts at most ${limit / 1024 / 1024} MB per upload. Split it into smaller files.`,
		);
	}
	if (sizeBytes === 0) throw new InputError(field, 'the CSV file is empty');
}

/** A CSV's header line: the platform makes the list's columns of it, so no name empty or twice. */
export function csvHeader(head: Buffer | string, field: string): string[] {
	if (typeof head !== 'string' && head.includes(0)) {
		throw new InputError(
			field,
			'the file is not a CSV text file: it holds binary data (an image, a spreadsheet or an archive?)',
		);
	}
	const text = (typeof head === 'string' ? head : head.toString('utf8')).replace(/^\uFEFF/, '');
	const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
	if (!firstLine.trim())
		throw new InputError(field, 'the CSV file has no header line with column names');
	const parsed = Papa.parse<string[]>(firstLine, { header: false, skipEmptyLines: true });
	const columns = (parsed.data[0] ?? []).map((name) => name.trim());
	const seen = new Set<string>();
	columns.forEach((name, index) => {
		if (!name) throw new InputError(field, `column ${index + 1} of the CSV header has no name`);
		if (seen.has(name))
			throw new InputError(field, `the CSV header names the column "${name}" twice`);
		seen.add(name);
	});
	return columns;
}
