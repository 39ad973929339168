/** A list's CSV upload: size cap, header normalisation and the records. */
import type { BodyReader } from './body';
import { CsvParser } from './csv';
import { HttpError, badRequest, formatBytes } from './http';
import { parseHeaderValue } from './multipart';
import type { RowInput } from './subscriber-import';

export interface CsvRecord {
	cells: string[];
	line: number;
}

export interface CsvUpload {
	header: string[];
	records: CsvRecord[];
}

/**
 * Sandbox choice (spec: not shown): the answer, 413 CSV_TOO_LARGE (the 200 MB limit is the spec's).
 */
export const csvTooLarge = (maxBytes: number) =>
	new HttpError(
		413,
		'CSV_TOO_LARGE',
		`CSV file exceeds the maximum size of ${formatBytes(maxBytes)}`,
	);

/**
 * Streams the `csvFile` part through the CSV parser, counting bytes; past maxBytes the read is
 * aborted with 413 so an oversized upload is never held in memory.
 */
export async function readCsvUpload(body: BodyReader, maxBytes: number): Promise<CsvUpload> {
	let seen = false;
	let wrongType: string | undefined;
	let size = 0;
	let header: string[] | undefined;
	const records: CsvRecord[] = [];
	await body.multipart((part) => {
		if (part.name !== 'csvFile') return undefined;
		// Sandbox choice (spec: not shown): one csvFile part, labelled text/csv (else 415); an empty
		// file is a 400.
		if (seen) throw badRequest('Only one csvFile part is allowed');
		seen = true;
		const type = parseHeaderValue(part.contentType ?? '').value;
		if (type !== 'text/csv') wrongType = part.contentType ?? 'no content type';
		const parser = new CsvParser((cells, line) =>
			header ? records.push({ cells, line }) : (header = cells),
		);
		return {
			data(chunk) {
				size += chunk.length;
				if (size > maxBytes) throw csvTooLarge(maxBytes);
				if (!wrongType) parser.write(chunk);
			},
			end() {
				if (!wrongType) parser.end();
			},
		};
	});
	if (!seen) throw badRequest('Form part csvFile (text/csv) is required');
	if (wrongType)
		throw new HttpError(
			415,
			'UNSUPPORTED_MEDIA_TYPE',
			`Form part csvFile must have content type text/csv (got ${wrongType})`,
		);
	if (!header)
		throw badRequest('CSV file is empty; the first line must be a header of column names');
	return { header, records };
}

/** Turns CSV records into import rows keyed by the (already normalised) header names. */
export function csvRows(header: string[], records: CsvRecord[]): RowInput[] {
	return records.map(({ cells, line }, index) => {
		const row: Record<string, string> = {};
		header.forEach((name, i) => (row[name] = cells[i] ?? ''));
		const extra = cells.slice(header.length).some((cell) => cell !== '');
		return {
			index,
			line,
			row,
			...(extra && {
				problem: {
					code: 'TOO_MANY_VALUES' as const,
					message: `${cells.length} values for ${header.length} header columns`,
				},
			}),
		};
	});
}

/**
 * Header names trimmed (lowercased unless case sensitive). Sandbox choice (spec: not shown): empty
 * or repeated names are refused.
 */
export function normalizeHeader(header: string[], caseSensitive: boolean): string[] {
	const names = header.map((name) => (caseSensitive ? name.trim() : name.trim().toLowerCase()));
	names.forEach((name, i) => {
		if (name === '') throw badRequest(`CSV header column ${i + 1} has no name`);
		if (names.indexOf(name) !== i) throw badRequest(`CSV header names column "${name}" twice`);
	});
	return names;
}
