import { CsvParser } from './csv';
import { MultipartError, MultipartParser, parseHeaderValue, type PartHeaders } from './multipart';

interface Parsed {
	headers: PartHeaders;
	body: string;
	ended: boolean;
}

/** Feeds `body` to a parser in pieces split at `splits`. */
function parseMultipart(boundary: string, body: Buffer, splits: number[] = []): Parsed[] {
	const parts: Parsed[] = [];
	const parser = new MultipartParser(boundary, (headers) => {
		const part: Parsed = { headers, body: '', ended: false };
		parts.push(part);
		const chunks: Buffer[] = [];
		return {
			data: (chunk) => chunks.push(Buffer.from(chunk)),
			end: () => {
				part.body = Buffer.concat(chunks).toString('utf8');
				part.ended = true;
			},
		};
	});
	let start = 0;
	for (const at of [...splits, body.length]) {
		parser.write(body.subarray(start, at));
		start = at;
	}
	parser.end();
	return parts;
}

const boundary = 'XyZ';
const sample = Buffer.from(
	[
		'preamble to ignore',
		`--${boundary}`,
		'Content-Disposition: form-data; name="csvFile"; filename="a b.csv"',
		'Content-Type: text/csv',
		'',
		'email\r\n--XyZnot-a-boundary\r\nü@x.io',
		`--${boundary}   `,
		'content-disposition: form-data; name="note"',
		'',
		'',
		`--${boundary}`,
		'',
		'no headers',
		`--${boundary}--`,
		'epilogue',
	].join('\r\n'),
);

describe('MultipartParser', () => {
	it('parses parts, headers, empty bodies, padding and near-boundaries', () => {
		const parts = parseMultipart(boundary, sample);
		expect(
			parts.map((p) => [
				p.headers.name,
				p.headers.filename,
				p.headers.contentType,
				p.body,
				p.ended,
			]),
		).toEqual([
			['csvFile', 'a b.csv', 'text/csv', 'email\r\n--XyZnot-a-boundary\r\nü@x.io', true],
			['note', undefined, undefined, '', true],
			['', undefined, undefined, 'no headers', true],
		]);
	});

	it('gives the same result wherever the input is split', () => {
		const expected = parseMultipart(boundary, sample);
		for (let a = 1; a < sample.length; a++) {
			expect(parseMultipart(boundary, sample, [a])).toEqual(expected);
			expect(parseMultipart(boundary, sample, [Math.floor(a / 2), a])).toEqual(expected);
		}
	});

	it('decodes RFC 5987 filenames', () => {
		const body = Buffer.from(
			`--b\r\nContent-Disposition: form-data; name="f"; filename="x"; filename*=UTF-8''caf%C3%A9.csv\r\n\r\nx\r\n--b--`,
		);
		expect(parseMultipart('b', body)[0].headers.filename).toBe('café.csv');
	});

	it('fails on a body without the closing boundary', () => {
		expect(() => parseMultipart('b', Buffer.from('--b\r\n\r\nabc'))).toThrow(MultipartError);
	});

	it('parses header parameters', () => {
		expect(parseHeaderValue('Multipart/Form-Data; boundary="a;b"; x=1')).toEqual({
			value: 'multipart/form-data',
			params: { boundary: 'a;b', x: '1' },
		});
	});
});

function parseCsv(text: string, splits: number[] = []): Array<[string[], number]> {
	const records: Array<[string[], number]> = [];
	const parser = new CsvParser((cells, line) => records.push([cells, line]));
	const bytes = Buffer.from(text);
	let start = 0;
	for (const at of [...splits, bytes.length]) {
		parser.write(bytes.subarray(start, at));
		start = at;
	}
	parser.end();
	return records;
}

describe('CsvParser', () => {
	const text = '\uFEFFa,"b ""q""",c\r\n1,"x\r\ny",\r\n\r\n"",é,"3"\nlast,row';

	it('parses quotes, escaped quotes, embedded newlines, blank lines and line numbers', () => {
		expect(parseCsv(text)).toEqual([
			[['a', 'b "q"', 'c'], 1],
			[['1', 'x\r\ny', ''], 2],
			[['', 'é', '3'], 5],
			[['last', 'row'], 6],
		]);
	});

	it('gives the same result wherever the bytes are split (even inside a UTF-8 character)', () => {
		const expected = parseCsv(text);
		for (let a = 1; a < Buffer.byteLength(text); a++) expect(parseCsv(text, [a])).toEqual(expected);
	});

	it('sniffs semicolon and tab delimiters from the header', () => {
		expect(parseCsv('a;b\n1,5;2\n')).toEqual([
			[['a', 'b'], 1],
			[['1,5', '2'], 2],
		]);
		expect(parseCsv('a\tb\n1\t2')).toEqual([
			[['a', 'b'], 1],
			[['1', '2'], 2],
		]);
	});

	it('handles a file without a trailing newline or with only a header', () => {
		expect(parseCsv('email')).toEqual([[['email'], 1]]);
		expect(parseCsv('')).toEqual([]);
	});
});
