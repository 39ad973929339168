import { Readable } from 'node:stream';

import { chunk } from '../../../../src/base/chunk';
import { CSV_MAX_BYTES, assertCsvSize, csvHeader } from '../../../../src/csv/header';
import { InputError } from '../../../../src/base/input-errors';
import { isStreamedBody, multipartFileBody } from '../../../../src/http/multipart';
import type { StreamedBody } from '../../../../src/http/multipart';

describe('assertCsvSize', () => {
	it('accepts up to 200 MB and refuses more, before any upload', () => {
		expect(() => assertCsvSize(CSV_MAX_BYTES, 'f')).not.toThrow();
		expect(() => assertCsvSize(CSV_MAX_BYTES + 1, 'f')).toThrow(/at most 200 MB/);
		expect(() => assertCsvSize(0, 'f')).toThrow(/empty/);
	});
});

describe('csvHeader', () => {
	it('reads the column names of the first line, BOM and quotes included', () => {
		expect(csvHeader(Buffer.from('\uFEFFemail,"first name",age\r\na@b.c,Ada,3\r\n'), 'f')).toEqual([
			'email',
			'first name',
			'age',
		]);
	});

	it('refuses an empty header, an unnamed column and a repeated one', () => {
		expect(() => csvHeader('\nrow', 'f')).toThrow(InputError);
		expect(() => csvHeader('email,,age\n', 'f')).toThrow(/column 2 of the CSV header has no name/);
		expect(() => csvHeader('email,age,email\n', 'f')).toThrow(/names the column "email" twice/);
	});
});

describe('multipartFileBody', () => {
	const collect = async (body: Buffer | StreamedBody) => {
		if (Buffer.isBuffer(body)) return body;
		const chunks: Buffer[] = [];
		for await (const part of body.stream()) chunks.push(Buffer.from(part));
		return Buffer.concat(chunks);
	};

	it('builds one file part with an exact Content-Length, from a buffer or a stream', async () => {
		const data = Buffer.from('email\na@b.c\n');
		for (const source of [data, Readable.from([data.subarray(0, 5), data.subarray(5)])]) {
			const { body, headers } = multipartFileBody({
				name: 'csvFile',
				fileName: 'people.csv',
				contentType: 'text/csv',
				data: source,
				size: data.length,
			});
			const bytes = await collect(body);
			const boundary = headers['Content-Type'].split('boundary=')[1];
			expect(Number(headers['Content-Length'])).toBe(bytes.length);
			expect(bytes.toString()).toBe(
				`--${boundary}\r\nContent-Disposition: form-data; name="csvFile"; filename="people.csv"\r\nContent-Type: text/csv\r\n\r\nemail\na@b.c\n\r\n--${boundary}--\r\n`,
			);
			expect(Buffer.isBuffer(body)).toBe(Buffer.isBuffer(source));
			if (!Buffer.isBuffer(body)) {
				// What n8n's request helper (axios) reads: a Blob with the exact size and the multipart
				// type.
				expect(isStreamedBody(body)).toBe(true);
				expect(body.size).toBe(bytes.length);
				expect(body.type).toBe(headers['Content-Type']);
			}
		}
	});

	it('a streamed body can be read once: a second read fails instead of sending a truncated file', async () => {
		const { body } = multipartFileBody({
			name: 'csvFile',
			fileName: 'a.csv',
			contentType: 'text/csv',
			data: Readable.from([Buffer.from('x\n')]),
			size: 2,
		});
		await collect(body);
		await expect(collect(body)).rejects.toThrow(/already sent once/);
	});
});

describe('chunk', () => {
	it('splits into batches of at most the size, in order', () => {
		expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
		expect(chunk([], 3)).toEqual([]);
		expect(() => chunk([1], 0)).toThrow(RangeError);
	});
});
