import Papa from 'papaparse';

import { checkCsv } from '../../../../src/csv/check';
import { rewrittenCsv } from '../../../../src/csv/rewrite';

const auto = { autoColumns: true };

/**
 * A stream of the text's bytes in pieces of `size` (a multi-byte character may be cut between two).
 */
async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
	for (let start = 0; start < bytes.length; start += size)
		yield bytes.subarray(start, start + size);
}

const check = async (
	text: string | Buffer,
	options: Parameters<typeof checkCsv>[2] = auto,
	pieceSize?: number,
) => {
	const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
	// The file may be read twice (repeats found by hash are confirmed by a second read).
	return await checkCsv(
		pieceSize ? async () => pieces(bytes, pieceSize) : bytes,
		bytes.subarray(0, 64 * 1024),
		options,
	);
};

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
	const parts: Buffer[] = [];
	for await (const part of source) parts.push(Buffer.from(part));
	return Buffer.concat(parts);
}

/** A member export of `rows` rows; row `n` gets what `change` returns instead. */
function members(
	rows: number,
	change: (n: number, row: string) => string = (_, row) => row,
): string {
	const lines = ['email,mobile,firstName,plan'];
	for (let n = 0; n < rows; n++)
		lines.push(
			change(n, `user${n}@example.com,+3361${String(n).padStart(7, '0')},"Ada, ${n}",pro`),
		);
	return `${lines.join('\n')}\n`;
}

describe('checkCsv: every row of a CSV file checked in one streamed read', () => {
	it('passes a sound file: rows, columns, size, no problem', async () => {
		const text = members(1000);
		const { report } = await check(text);
		expect(report).toEqual({
			bytes: Buffer.byteLength(text),
			rows: 1000,
			columns: ['email', 'mobile', 'firstName', 'plan'],
			delimiter: ',',
			bom: false,
			problems: [],
			problemCount: 0,
			badRows: 0,
			rowsCanBeLeftOut: true,
			warnings: [],
		});
	});

	it('finds a quote never closed deep in the file, by its line, and stops there', async () => {
		// Row 30,000 (line 30,002) opens a quote that is never closed: the next row's quote would close
		// it, with text after it.
		const text = members(60_000, (n, row) =>
			n === 30_000 ? row.replace('"Ada, 30000"', '"Ada, 30000') : row,
		);
		const { report } = await check(text, auto, 64 * 1024);
		expect(report.problems).toEqual([
			{
				line: 30_002,
				problem: expect.stringMatching(
					/^a quoted value on line 30002 does not end where it should/,
				),
			},
		]);
		expect(report.rowsCanBeLeftOut).toBe(false);
		expect(report.warnings).toContain(
			'The check stopped there: the rows after it were not checked.',
		);
		// Without a later quote the rest of the file would be one value: the reading stops once it
		// passes 1 MB, memory flat.
		const unquoted = members(60_000, (n, row) =>
			row.replace(/"Ada, (\d+)"/, n === 30_000 ? '"Ada $1' : 'Ada $1'),
		);
		expect((await check(unquoted, auto, 64 * 1024)).report.problems).toEqual([
			{
				line: 30_002,
				problem:
					'a quoted field that starts on line 30002 is never closed (or its row is over 1 MB)',
			},
		]);
	});

	it('finds a quote never closed in the last row, and a quote in the wrong place', async () => {
		expect((await check('email,name\na@example.com,"Ada\n')).report.problems).toEqual([
			{ line: 2, problem: 'a quoted field that starts on line 2 is never closed' },
		]);
		expect(
			(await check('email,name\na@example.com,"Ada"x,"pro"\nb@example.com,Bob\n')).report
				.problems[0],
		).toMatchObject({
			line: 2,
			problem: expect.stringMatching(/^a quoted value on line 2 does not end where it should/),
		});
	});

	it.each([
		['00A0', '\u00A0'],
		['FEFF', '\uFEFF'],
		['3000', '\u3000'],
		['2028', '\u2028'],
	])(
		'a space past ASCII (U+%s) after a closing quote is refused naming the character and the line',
		async (code, space) => {
			const file = `email,name,note\na@example.com,"Ada",x\nb@example.com,"two\nlines" ${space} ,x\n`;
			expect((await check(file)).report.problems).toEqual([
				{
					line: 4,
					problem: `a quoted value on line 4 has a space character past ASCII (U+${code}) after its closing quote: remove it, or put it inside the quotes`,
				},
			]);
			// At the end of a row too, and ASCII spaces alone stay allowed.
			expect(
				(await check(`email,name\na@example.com,"Ada"${space}\n`)).report.problems[0],
			).toMatchObject({ line: 2, problem: expect.stringContaining(`(U+${code})`) });
			expect((await check('email,name\na@example.com,"Ada"  \n')).report.problems).toEqual([]);
		},
	);

	it('counts lines, not rows: a quoted value over two lines moves the next row down one line', async () => {
		const { report } = await check(
			'email,notes\na@example.com,"two\nlines"\nnot-an-email,x\nb@example.com,"three\nmore\nlines"\na@example.com,y\nb@example.com,z\n',
		);
		expect(report.problems).toEqual([
			{ line: 4, column: 'email', problem: '"not-an-email" is not an e-mail address' },
			{
				line: 8,
				column: 'email',
				problem: 'the same email as line 2: values of email must not repeat in the file',
			},
			{
				line: 9,
				column: 'email',
				problem: 'the same email as line 5: values of email must not repeat in the file',
			},
		]);
		expect(report.rows).toBe(5);
	});

	it('recognises a semicolon or tab file', async () => {
		expect((await check('email;firstName\na@example.com;Ada\n')).report).toMatchObject({
			delimiter: ';',
			columns: ['email', 'firstName'],
			problemCount: 0,
		});
		expect((await check('email\tfirstName\na@example.com\tAda\n')).report).toMatchObject({
			delimiter: '\t',
			columns: ['email', 'firstName'],
		});
	});

	it('finds a repeated e-mail and mobile (the same number written two ways), naming both lines', async () => {
		const text = members(10, (n, row) =>
			n === 7 ? 'user2@example.com,+33 61 000 0004,Bob,pro' : row,
		);
		const { report, badRows } = await check(text);
		expect(report.problems).toEqual([
			{
				line: 9,
				column: 'email',
				problem: 'the same email as line 4: values of email must not repeat in the file',
			},
			{
				line: 9,
				column: 'mobile',
				problem: 'the same mobile as line 6: values of mobile must not repeat in the file',
			},
		]);
		expect(report).toMatchObject({ problemCount: 2, badRows: 1 });
		expect([...badRows]).toEqual([7]);
	});

	it('finds a mobile without a country code and a bad e-mail; empty values pass', async () => {
		const text = 'email,mobile\nada@example.com,0612345678\nnot an email,+33612345678\n,\n';
		expect((await check(text)).report.problems).toEqual([
			{
				line: 2,
				column: 'mobile',
				problem:
					'"0612345678" has no country code: write it in international form, e.g. +33612345678',
			},
			{ line: 3, column: 'email', problem: '"not an email" is not an e-mail address' },
		]);
		// Without the automatic columns, email and mobile are columns like any other.
		expect((await check(text, { autoColumns: false })).report.problemCount).toBe(0);
	});

	it('finds exactly the repeats a plain set finds, in 50,000 rows, naming the first line of each value and listing the earliest', async () => {
		let seed = 7;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		const values = Array.from(
			{ length: 50_000 },
			() => `member${Math.floor(random() * 40_000)}@example.com`,
		);
		const firstLine = new Map<string, number>();
		const expected: Array<{ line: number; first: number }> = [];
		values.forEach((value, row) => {
			const line = row + 2;
			if (firstLine.has(value)) expected.push({ line, first: firstLine.get(value)! });
			else firstLine.set(value, line);
		});
		const { report, badRows } = await check(`email\n${values.join('\n')}\n`, auto, 10_000);
		expect(report.problemCount).toBe(expected.length);
		expect(expected.length).toBeGreaterThan(5000);
		expect([...badRows].sort((a, b) => a - b)).toEqual(expected.map(({ line }) => line - 2));
		expect(report.problems).toEqual(
			expected.slice(0, 20).map(({ line, first }) => ({
				line,
				column: 'email',
				problem: `the same email as line ${first}: values of email must not repeat in the file`,
			})),
		);
	});

	it('finds rows with too few or too many fields', async () => {
		const { report } = await check(
			'email,plan\na@example.com,pro\nb@example.com\nc@example.com,pro,extra\n',
		);
		expect(report.problems.map((problem) => problem.problem)).toEqual([
			'line 3 has 1 field, the header 2',
			'line 4 has 3 fields, the header 2',
		]);
	});

	it('finds empty and repeated header names', async () => {
		const { report } = await check('email,,plan,plan\na@example.com,x,pro,pro\n');
		expect(report.problems).toEqual([
			{ line: 1, problem: 'column 2 of the header has no name' },
			{
				line: 1,
				column: 'plan',
				problem: 'the header names the column "plan" twice (columns 3 and 4)',
			},
		]);
		expect(report.rowsCanBeLeftOut).toBe(false);
	});

	it('checks the Key column: in the header, a value on every row, never twice', async () => {
		expect(
			(await check('email,code\na@example.com,1\n', { ...auto, keyColumn: 'ref' })).report.problems,
		).toEqual([
			{
				line: 1,
				column: 'ref',
				problem: 'the Key column "ref" is not in the header (email, code)',
			},
		]);
		expect(
			(await check('code,plan\nA1,pro\n,free\nA1,pro\n', { ...auto, keyColumn: 'code' })).report
				.problems,
		).toEqual([
			{ line: 3, column: 'code', problem: 'the Key column is empty' },
			{
				line: 4,
				column: 'code',
				problem: 'the same code as line 2: values of code must not repeat in the file',
			},
		]);
	});

	it('reads UTF-8 with or without BOM, and a character cut between two pieces of the stream', async () => {
		const text = `email,city\n${Array.from({ length: 3000 }, (_, n) => `u${n}@example.com,Zürich — 東京`).join('\n')}\n`;
		for (const size of [7, 1000, 4093])
			expect((await check(text, auto, size)).report).toMatchObject({ rows: 3000, problemCount: 0 });
		const { report } = await check(
			Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
			auto,
			1000,
		);
		expect(report).toMatchObject({
			bom: true,
			columns: ['email', 'city'],
			problemCount: 0,
			warnings: [],
		});
	});

	it('refuses bytes that are not UTF-8 (a Latin-1 export), near the line they are on', async () => {
		const latin1 = Buffer.from('email,city\na@example.com,Paris\nb@example.com,Zürich\n', 'latin1');
		const problem = {
			line: 3,
			problem:
				'the file is not UTF-8 text: byte 47 (0xfc) is not UTF-8 on line 3 (save it as "CSV UTF-8")',
		};
		// Whether the bad byte comes in the first piece of the stream or a later one.
		expect((await check(latin1)).report.problems).toEqual([problem]);
		expect((await check(latin1, auto, 8)).report.problems).toEqual([problem]);
	});

	it("warns when a column's first value is empty, and lists at most 20 problems but counts all", async () => {
		const { report } = await check(
			members(100, (n, row) => (n === 0 ? row.replace('pro', '') : row.replace('@', ' at '))),
		);
		expect(report.warnings).toEqual([
			'The first value of column "plan" (line 2) is empty: the platform infers a column\'s type from its first value.',
		]);
		expect(report.problems).toHaveLength(20);
		expect(report).toMatchObject({ problemCount: 99, badRows: 99 });
	});
});

describe('rewrittenCsv: the file without its bad rows, or converted to commas, exactly the size the check counted', () => {
	it('leaves out the bad rows and keeps every other byte', async () => {
		const text = members(5000, (n, row) => (n % 1000 === 999 ? row.replace('@', '#') : row));
		const bytes = Buffer.from(text);
		const { badRows, layout, rewrittenBytes, report } = await check(text, {
			...auto,
			rowSizes: true,
		});
		expect(report.badRows).toBe(5);
		const out = await collect(rewrittenCsv(pieces(bytes, 4096), layout, badRows, false));
		expect(out.length).toBe(rewrittenBytes.withoutBadRows);
		expect(rewrittenBytes.withBadRows).toBe(bytes.length);
		expect(out.toString()).toBe(
			text
				.split('\n')
				.filter((line) => !line.includes('#'))
				.join('\n'),
		);
	});

	it('converts a semicolon file to commas, quoting where needed, the size counted by the check', async () => {
		const text =
			'\uFEFFemail;name;notes\na@example.com;Ada, Countess;"says ""hi""; twice"\nb@example.com;Bob;\n';
		const { layout, badRows, rewrittenBytes } = await check(text, { ...auto, convert: true });
		const out = await collect(rewrittenCsv(pieces(Buffer.from(text), 5), layout, badRows, true));
		expect(out.length).toBe(rewrittenBytes.withoutBadRows);
		expect(out.toString()).toBe(
			'\uFEFFemail,name,notes\na@example.com,"Ada, Countess","says ""hi""; twice"\nb@example.com,Bob,\n',
		);
		expect(
			Papa.parse(out.toString().slice(1), { header: true, skipEmptyLines: true }).data,
		).toEqual([
			{ email: 'a@example.com', name: 'Ada, Countess', notes: 'says "hi"; twice' },
			{ email: 'b@example.com', name: 'Bob', notes: '' },
		]);
	});
});

/**
 * The same value with the top bit of its characters at 1 and 3 flipped (U+4E00… become U+CE00…,
 * Hangul): a different value with the same 64-bit hash, since each flip changes the top bit of both
 * hashes (FNV-1a and multiply-add, two characters a step) and the second flip undoes the first
 * (test/unit/src/csv/repeats.test.tsx checks it).
 */
const twin = (value: string) =>
	[...value]
		.map((char, at) =>
			at === 1 || at === 3 ? String.fromCharCode(char.charCodeAt(0) ^ 0x8000) : char,
		)
		.join('');

describe('checkCsv: a repeat found by hash is confirmed by comparing the values', () => {
	const email = 'a一b丁@example.com';
	const other = twin(email);

	it('does not report two different values that share their hash, nor leave a row out', async () => {
		expect(other).not.toBe(email);
		const text = members(6, (n, row) =>
			n === 1
				? row.replace('user1@example.com', email)
				: n === 4
					? row.replace('user4@example.com', other)
					: row,
		);
		for (const pieceSize of [undefined, 64, 7]) {
			const { report, badRows, rewrittenBytes } = await check(
				text,
				{ ...auto, rowSizes: true },
				pieceSize,
			);
			expect(report).toMatchObject({ rows: 6, problems: [], problemCount: 0, badRows: 0 });
			expect(badRows.size).toBe(0);
			expect(rewrittenBytes.withoutBadRows).toBe(Buffer.byteLength(text));
		}
		// The Key column and `id`, compared as written.
		const key = `code,id,plan\n${email},一丁二七,pro\n${other},${twin('一丁二七')},free\n`;
		expect((await check(key, { ...auto, keyColumn: 'code' })).report.problemCount).toBe(0);
	});

	it('still reports a real repeat, naming the first line that held the same value', async () => {
		// Lines 2 and 3 share a hash but not a value; line 4 repeats line 3, line 5 repeats line 2.
		const text = `email,plan\n${email},pro\n${other},free\n${other},pro\n${email},free\n`;
		const { report, badRows } = await check(text, { ...auto, rowSizes: true }, 16);
		expect(report.problems).toEqual([
			{
				line: 4,
				column: 'email',
				problem: 'the same email as line 3: values of email must not repeat in the file',
			},
			{
				line: 5,
				column: 'email',
				problem: 'the same email as line 2: values of email must not repeat in the file',
			},
		]);
		expect([...badRows].sort()).toEqual([2, 3]);
	});
});
