import { Readable } from 'node:stream';

import { BinaryDataService } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { binaryItem, setBinaryDataMode } from '../helpers/n8n';
import { byId, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

/** A member export: header and `rows` rows; row `n` gets what `change` returns instead. */
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

const csvItem = async (text: string | Buffer, fileName = 'members.csv', json = {}) =>
	await binaryItem(
		json,
		'data',
		Buffer.isBuffer(text) ? text : Buffer.from(text),
		fileName,
		'text/csv',
	);
const createFromCsv = (options: IDataObject = {}): INodeParameters =>
	({
		resource: 'list',
		operation: 'createFromCsv',
		name: 'Members',
		binaryPropertyName: 'data',
		simplify: false,
		options,
	}) as INodeParameters;
const uploaded = () =>
	ctx.sandbox.requests
		.filter((request) => request.method === 'POST')
		.map((request) => request.parts?.[0]);

describe('CSV files checked row by row before upload (List › Create From CSV, Subscriber › Add Many)', () => {
	it('refuses a file with a quote never closed 30,000 lines down, before any request of the run, naming the line', async () => {
		const broken = members(50_000, (n, row) =>
			n === 30_000 ? row.replace('"Ada, 30000"', '"Ada, 30000') : row,
		);
		// Two items: the good first file is not uploaded either, since every item is checked before the
		// first request.
		const result = await run(ctx.credentials, createFromCsv(), [
			await csvItem(members(10), 'good.csv'),
			await csvItem(broken, 'broken.csv'),
		]);
		expect(result.error?.message).toMatch(
			/^Invalid "Input Binary Field" in item 1: the CSV file "broken\.csv" has 1 problem, the first on line 30002: a quoted value on line 30002 does not end where it should/,
		);
		expect((result.error as { description?: string }).description).toMatch(
			/Nothing was uploaded\. Fix the file, or set Options › When the CSV Has Problems to Leave Out the Bad Rows or Upload Anyway\./,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('refuses a semicolon file by default, and with Convert to Commas uploads it with commas', async () => {
		const semicolons =
			'email;firstName;city\nada@example.com;Ada;Paris, France\nalan@example.com;Alan;London\n';
		const refused = await run(ctx.credentials, createFromCsv(), [await csvItem(semicolons)]);
		expect(refused.error?.message).toBe(
			'Invalid "Input Binary Field" in item 0: the values of "members.csv" are separated by semicolons, and the platform reads commas',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);

		const [item] = outputOf(
			await run(ctx.credentials, createFromCsv({ csvDelimiter: 'convert' }), [
				await csvItem(semicolons),
			]),
		);
		const converted =
			'email,firstName,city\nada@example.com,Ada,"Paris, France"\nalan@example.com,Alan,London\n';
		expect(uploaded()).toEqual([
			{
				name: 'csvFile',
				filename: 'members.csv',
				contentType: 'text/csv',
				size: converted.length,
				text: converted,
			},
		]);
		expect(item.json).toMatchObject({ size: 2, csvCheck: { convertedFrom: ';' } });
		expect((item.json.columns as Array<{ name: string }>).map((column) => column.name)).toEqual(
			expect.arrayContaining(['email', 'firstname', 'city']),
		);
	});

	it('lists a repeated e-mail and a mobile without country code by line and column, and uploads nothing', async () => {
		const text = members(8, (n, row) =>
			n === 3
				? 'user1@example.com,+33610000003,Bob,pro'
				: n === 5
					? 'user5@example.com,0612345678,Eve,pro'
					: row,
		);
		const result = await run(ctx.credentials, createFromCsv(), [await csvItem(text)]);
		expect(result.error?.message).toBe(
			'Invalid "Input Binary Field" in item 0: the CSV file "members.csv" has 2 problems in 2 rows, the first on line 5, column "email": the same email as line 3: values of email must not repeat in the file',
		);
		expect((result.error as { description?: string }).description).toContain(
			'- line 5, column "email": the same email as line 3: values of email must not repeat in the file\n- line 7, column "mobile": "0612345678" has no country code: write it in international form, e.g. +33612345678\n',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('with Leave Out the Bad Rows uploads the other rows, exactly, and says which it left out; a preview shows the same file', async () => {
		const text = members(8, (n, row) =>
			n === 3
				? 'user1@example.com,+33610000003,Bob,pro'
				: n === 5
					? 'user5@example.com,0612345678,Eve,pro'
					: row,
		);
		const expected = text
			.split('\n')
			.filter((_, line) => line !== 4 && line !== 6)
			.join('\n');
		const [preview] = outputOf(
			await run(ctx.credentials, createFromCsv({ csvProblems: 'leaveOut', preview: true }), [
				await csvItem(text),
			]),
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
		const [item] = outputOf(
			await run(ctx.credentials, createFromCsv({ csvProblems: 'leaveOut' }), [await csvItem(text)]),
		);
		expect(uploaded()).toEqual([
			expect.objectContaining({ size: Buffer.byteLength(expected), text: expected }),
		]);
		expect(item.json).toMatchObject({
			size: 6,
			csvCheck: {
				rowsLeftOut: 2,
				problemCount: 2,
				problems: [
					{ line: 5, column: 'email' },
					{ line: 7, column: 'mobile' },
				],
			},
		});
		expect(preview.json.request).toMatchObject({
			body: { csvFile: { bytes: Buffer.byteLength(expected), rows: 6, rowsLeftOut: 2 } },
		});
	});

	it('with Upload Anyway sends the file as it is and reports the problems it had', async () => {
		const text = members(4, (n, row) => (n === 2 ? row.replace('@', ' at ') : row));
		const [item] = outputOf(
			await run(ctx.credentials, createFromCsv({ csvProblems: 'upload' }), [await csvItem(text)]),
		);
		expect(uploaded()).toEqual([expect.objectContaining({ text })]);
		expect(item.json.csvCheck).toEqual({
			uploadedWithProblems: 1,
			problems: [
				{ line: 4, column: 'email', problem: '"user2 at example.com" is not an e-mail address' },
			],
		});
	});

	it('refuses a file that is not UTF-8, and a Key column the header lacks', async () => {
		const latin1 = Buffer.from('email,city\nada@example.com,Zürich\n', 'latin1');
		expect(
			(await run(ctx.credentials, createFromCsv(), [await csvItem(latin1)])).error?.message,
		).toMatch(
			/the CSV file "members\.csv" has 1 problem, the first on line 2: the file is not UTF-8 text: byte 29 \(0xfc\) is not UTF-8 on line 2/,
		);
		expect(
			(await run(ctx.credentials, createFromCsv({ key: 'memberId' }), [await csvItem(members(2))]))
				.error?.message,
		).toMatch(
			/the first on line 1, column "memberId": the Key column "memberId" is not in the header/,
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it("uploads a file with a BOM (as n8n's Convert to File writes one) as it is; an empty first value is a warning", async () => {
		const text = `\uFEFF${members(3, (n, row) => (n === 0 ? row.replace(',pro', ',') : row))}`;
		const [item] = outputOf(await run(ctx.credentials, createFromCsv(), [await csvItem(text)]));
		expect(uploaded()[0]).toMatchObject({ size: Buffer.byteLength(text), text });
		expect(item.json.csvCheck).toEqual({
			warnings: [
				'The first value of column "plan" (line 2) is empty: the platform infers a column\'s type from its first value.',
			],
		});
	});

	it("reads the file from n8n's binary store twice at most, once to check and once to send, a rewrite included", async () => {
		const read = { opens: 0, bytes: 0 };
		const original = BinaryDataService.prototype.getAsStream;
		const spy = jest
			.spyOn(BinaryDataService.prototype, 'getAsStream')
			.mockImplementation(async function (
				this: BinaryDataService,
				...args: Parameters<BinaryDataService['getAsStream']>
			) {
				const stream = await original.apply(this, args);
				read.opens++;
				return Readable.from(
					(async function* () {
						for await (const chunk of stream) {
							read.bytes += (chunk as Buffer).length;
							yield chunk;
						}
					})(),
				);
			});
		try {
			const text = members(40_000, (n, row) =>
				n === 30_000 ? row.replace('user30000@', 'user3@') : row,
			);
			for (const options of [{ csvProblems: 'upload' }, { csvProblems: 'leaveOut' }]) {
				Object.assign(read, { opens: 0, bytes: 0 });
				outputOf(await run(ctx.credentials, createFromCsv(options), [await csvItem(text)]));
				// The first 64 KB for the header (this test's wrapper reads a piece or two ahead), then the
				// whole file to check it and the whole file to send it.
				expect(read.opens).toBe(3);
				expect(read.bytes).toBeLessThanOrEqual(2 * Buffer.byteLength(text) + 256 * 1024);
				expect(read.bytes).toBeGreaterThanOrEqual(2 * Buffer.byteLength(text));
			}
		} finally {
			spy.mockRestore();
		}
	});

	it('uploads a file whose two different e-mails (and Key values) share their hash: a repeat is the same value, compared', async () => {
		// Twins: the top bit of the characters at 1 and 3 flipped (U+4E00… to U+CE00…) leaves the
		// 64-bit hash of the check the same (test/unit/src/csv/repeats.test.tsx).
		const twin = (value: string) =>
			[...value]
				.map((char, at) =>
					at === 1 || at === 3 ? String.fromCharCode(char.charCodeAt(0) ^ 0x8000) : char,
				)
				.join('');
		const [email, name] = ['a一b丁@example.com', '王一丁七'];
		const text = members(3000, (n, row) =>
			n === 10
				? row.replace(`user${n}@example.com`, email).replace(`"Ada, ${n}"`, name)
				: n === 2500
					? row.replace(`user${n}@example.com`, twin(email)).replace(`"Ada, ${n}"`, twin(name))
					: row,
		);
		for (const options of [{}, { csvProblems: 'leaveOut' }, { key: 'firstName' }]) {
			ctx.sandbox.reset();
			const [item] = outputOf(
				await run(ctx.credentials, createFromCsv(options), [await csvItem(text)]),
			);
			expect(uploaded()).toEqual([
				expect.objectContaining({ size: Buffer.byteLength(text), text }),
			]);
			expect(item.json.csvCheck).toBeUndefined();
		}
		// The same value twice is still a repeat, named by its first line.
		const repeated = text.replace(twin(email), email);
		expect(
			(await run(ctx.credentials, createFromCsv(), [await csvItem(repeated)])).error?.message,
		).toMatch(/the first on line 2502, column "email": the same email as line 12: /);
	});

	describe.each(['filesystem', 'default'] as const)(
		'Subscriber › Add Many from a CSV file, binary data mode %s',
		(mode) => {
			beforeAll(async () => await setBinaryDataMode(mode));
			afterAll(async () => await setBinaryDataMode('filesystem'));

			const addMany = (options: IDataObject = {}): INodeParameters =>
				({
					resource: 'subscriber',
					operation: 'addMany',
					source: 'csv',
					listId: byId('={{ $json.listId }}'),
					binaryPropertyName: 'data',
					options,
				}) as INodeParameters;
			const items = async (text: string): Promise<INodeExecutionData[]> => {
				const list = ctx.sandbox.seedList({
					name: 'Members',
					columns: [
						{ name: 'email', type: 'STRING', unique: true },
						{ name: 'mobile', type: 'STRING' },
						{ name: 'firstName', type: 'STRING' },
						{ name: 'plan', type: 'STRING' },
					],
				});
				return [await csvItem(text, 'members.csv', { listId: list.id })];
			};

			it('leaves out a repeated e-mail 20,000 rows down and adds the rest', async () => {
				const text = members(30_000, (n, row) =>
					n === 20_000 ? row.replace('user20000@', 'user7@') : row,
				);
				const [item] = outputOf(
					await run(ctx.credentials, addMany({ csvProblems: 'leaveOut' }), await items(text)),
				);
				const expected = text
					.split('\n')
					.filter((_, line) => line !== 20_001)
					.join('\n');
				expect(uploaded()[0]?.size).toBe(Buffer.byteLength(expected));
				expect(item.json).toMatchObject({
					subscriberAdded: 29_999,
					csvCheck: {
						rowsLeftOut: 1,
						problems: [
							{
								line: 20_002,
								column: 'email',
								problem: 'the same email as line 9: values of email must not repeat in the file',
							},
						],
					},
				});
			});

			it('refuses it by default, before any request', async () => {
				const result = await run(
					ctx.credentials,
					addMany(),
					await items(members(5, (n, row) => (n === 4 ? row.replace('user4@', 'user0@') : row))),
				);
				expect(result.error?.message).toMatch(
					/the first on line 6, column "email": the same email as line 2/,
				);
				expect(ctx.sandbox.requests).toHaveLength(0);
			});
		},
	);
});
