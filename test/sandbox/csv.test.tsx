import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_CSV_MAX_BYTES, startSandbox, type Sandbox } from '../sandbox';
import { csvTooLarge } from './csv-upload';
import { call, csvForm, expectMeta } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const createCsv = (
	csv: string,
	query: Record<string, string> = { name: 'Imported' },
	type?: string,
) => call(sandbox, 'POST', '/lists', { form: csvForm(csv, type), query });

const columnTypes = (columns: Array<{ name: string; type: string }>) =>
	Object.fromEntries(columns.map((c) => [c.name, c.type]));

describe('POST /lists (CSV)', () => {
	const csv = [
		'Email,First Name,Age,Score,Active,Birthday,Phone,Notes',
		'ann@x.io,Ann,,1.5,true,1990-04-01,0612345678,"likes ""quotes"", commas"',
		'bob@x.io,Bob,42,2,FALSE,1985-12-24T10:00:00Z,+33612345678,"two',
		'lines"',
		'',
		'cy@x.io,Cy,old,3,yes,,,',
	].join('\r\n');

	it('creates the list with columns from the header and inferred types', async () => {
		const res = await createCsv(csv);
		expect(res.status).toBe(200);
		expectMeta(res.body);
		const list = res.body.data;
		expect(list).toMatchObject({
			id: 1,
			name: 'Imported',
			size: 3,
			totalLines: 3,
			key: 'id',
			autoId: true,
			usesAutoColumns: true,
			caseSensitive: false,
			usesGeneratedData: false,
			trackLastActivity: false,
			status: 'OK',
			percentProcessed: 100,
			subscribersError: [],
		});
		expect(columnTypes(list.columns)).toEqual({
			id: 'STRING',
			email: 'STRING',
			mobile: 'STRING',
			devices: 'STRING',
			devices_type: 'STRING',
			'first name': 'STRING',
			age: 'NUMBER',
			score: 'NUMBER',
			active: 'BOOLEAN',
			birthday: 'DATE',
			phone: 'STRING',
			notes: 'STRING',
		});
		// The header's email keeps the automatic column's flags.
		expect(list.columns.find((c: { name: string }) => c.name === 'email')).toMatchObject({
			unique: true,
			indexed: true,
		});
	});

	it('parses quoted cells and converts numbers and booleans', async () => {
		await createCsv(csv);
		const [ann, bob, cy] = sandbox.listSubscribers(1) ?? [];
		expect(ann).toMatchObject({
			email: 'ann@x.io',
			'first name': 'Ann',
			age: null,
			score: 1.5,
			active: true,
			phone: '0612345678',
			notes: 'likes "quotes", commas',
		});
		expect(bob).toMatchObject({
			age: 42,
			active: false,
			birthday: '1985-12-24T10:00:00Z',
			phone: '+33612345678',
			notes: 'two\r\nlines',
		});
		expect(cy).toMatchObject({ age: 'old', active: 'yes', birthday: null });
	});

	it('applies the query flags and keeps header case when caseSensitive', async () => {
		const res = await createCsv('Email,Nick\na@x.io,A\n', {
			name: 'Flags',
			caseSensitive: 'true',
			usesAutoColumns: 'false',
			trackLastActivity: 'TRUE',
		});
		expect(res.body.data).toMatchObject({
			caseSensitive: true,
			usesAutoColumns: false,
			trackLastActivity: true,
		});
		expect(res.body.data.columns.map((c: { name: string }) => c.name)).toEqual([
			'id',
			'Email',
			'Nick',
		]);
		expect(res.body.data.columns[1]).toMatchObject({ unique: false, indexed: false });
	});

	it('fills empty unique columns with generated data when asked', async () => {
		const res = await createCsv('email,mobile,name\n,,Ann\nb@x.io,,Bob\n', {
			name: 'G',
			usesGeneratedData: 'true',
		});
		expect(res.body.data.usesGeneratedData).toBe(true);
		const [ann, bob] = sandbox.listSubscribers(1) ?? [];
		expect(ann.email).toMatch(/^generated-[0-9a-f]{12}@example\.invalid$/);
		expect(ann.mobile).toMatch(/^\+1555\d{9}$/);
		expect(bob.email).toBe('b@x.io');
	});

	it('uses the key column to match rows, in the create call and later bulk adds', async () => {
		const res = await createCsv('email,name\na@x.io,Ann\nb@x.io,Bob\na@x.io,Anna\n', {
			name: 'K',
			key: 'EMAIL',
		});
		expect(res.body.data).toMatchObject({ key: 'email', size: 2 });
		const again = await call(sandbox, 'POST', '/lists/1/subscribers/bulk', {
			json: [{ email: 'b@x.io', name: 'Bobby' }, { email: 'c@x.io' }],
		});
		expect(again.body.data).toMatchObject({ subscriberUpdated: 1, subscriberAdded: 1 });
		expect(sandbox.listSubscribers(1)?.map((s) => s.name)).toEqual(['Anna', 'Bobby', null]);
	});

	it('reports per-row failures with the CSV line', async () => {
		const res = await createCsv('id,email\nx1,a@x.io\nx2,a@x.io\nx3,b@x.io,extra\n');
		expect(res.body.data.size).toBe(1);
		expect(res.body.data.autoId).toBe(false);
		expect(res.body.data.subscribersError).toEqual([
			{
				index: 1,
				line: 3,
				id: 'x2',
				column: 'email',
				code: 'UNIQUE_VALUE_DUPLICATED',
				message: 'Line 3: column "email" value "a@x.io" already exists',
				row: { id: 'x2', email: 'a@x.io' },
			},
			{
				index: 2,
				line: 4,
				code: 'TOO_MANY_VALUES',
				message: 'Line 4: 3 values for 2 header columns',
				row: { id: 'x3', email: 'b@x.io' },
			},
		]);
	});

	it('accepts semicolon-separated files and a UTF-8 BOM', async () => {
		await createCsv('\uFEFFemail;city\na@x.io;Zürich\n');
		expect(sandbox.listSubscribers(1)?.[0]).toMatchObject({ email: 'a@x.io', city: 'Zürich' });
	});

	it.each([
		['no name', '', 'email\n', undefined, 400, /^Query parameter name is required/],
		['a bad boolean', 'x', 'email\n', undefined, 400, /caseSensitive must be "true" or "false"/],
		['an empty file', 'x', '', undefined, 400, /CSV file is empty/],
		['a repeated header', 'x', 'email,EMAIL\n', undefined, 400, /names column "email" twice/],
		['an unknown key', 'x', 'email\n', undefined, 400, /key "phone" is not a column/],
		[
			'a non-CSV part',
			'x',
			'email\n',
			'application/octet-stream',
			415,
			/must have content type text\/csv \(got application\/octet-stream\)/,
		],
	])('answers an error for %s', async (what, name, content, type, status, message) => {
		const query: Record<string, string> = { name };
		if (what === 'a bad boolean') query.caseSensitive = 'yes';
		if (what === 'an unknown key') query.key = 'phone';
		const res = await createCsv(content, query, type);
		expect(res.status).toBe(status);
		expect(res.body.error.message).toMatch(message);
		expect(sandbox.allLists()).toEqual([]);
	});

	it('answers 400 without a csvFile part', async () => {
		const form = new FormData();
		form.append('file', new Blob(['email\n'], { type: 'text/csv' }), 'a.csv');
		const res = await call(sandbox, 'POST', '/lists', { form, query: { name: 'x' } });
		expect(res.status).toBe(400);
		expect(res.body.error.message).toBe('Form part csvFile (text/csv) is required');
	});
});

describe('POST /lists/{listId}/subscribers/bulk (CSV)', () => {
	beforeEach(() => {
		sandbox.seedList({
			name: 'L',
			columns: [
				{ name: 'age', type: 'NUMBER' },
				{ name: 'vip', type: 'BOOLEAN' },
			],
			rows: [{ id: 's1', email: 'a@x.io' }],
		});
	});

	it('adds and updates subscribers from a CSV file', async () => {
		const res = await call(sandbox, 'POST', '/lists/1/subscribers/bulk', {
			form: csvForm('id,email,age,vip\ns1,,30,true\ns2,b@x.io,41,false\ns3,a@x.io,,\n'),
		});
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.data).toEqual({
			subscriberUpdated: 1,
			subscriberAdded: 1,
			subscribersError: [
				expect.objectContaining({
					index: 2,
					line: 4,
					column: 'email',
					code: 'UNIQUE_VALUE_DUPLICATED',
				}),
			],
		});
		expect(sandbox.listSubscribers(1)).toEqual([
			{
				id: 's1',
				email: 'a@x.io',
				mobile: null,
				devices: null,
				devices_type: null,
				age: 30,
				vip: true,
			},
			{
				id: 's2',
				email: 'b@x.io',
				mobile: null,
				devices: null,
				devices_type: null,
				age: 41,
				vip: false,
			},
		]);
		expect(sandbox.getList(1)?.size).toBe(2);
	});

	it('reports header columns the list does not have', async () => {
		const res = await call(sandbox, 'POST', '/lists/1/subscribers/bulk', {
			form: csvForm('email,shoe\nb@x.io,42\nc@x.io,\n'),
		});
		expect(res.body.data.subscriberAdded).toBe(1);
		expect(res.body.data.subscribersError).toEqual([
			expect.objectContaining({ line: 2, column: 'shoe', code: 'UNKNOWN_COLUMN' }),
		]);
	});
});

/**
 * Memory is judged against the size of what was streamed, not as an absolute figure. A part kept
 * whole costs at least its size in live memory (sampled after a full GC, so garbage a busy
 * machine has not collected yet does not count). Streamed, what is live is the chunks in flight
 * in Node's own sockets: a few MB on an idle machine, up to about 26 MB with both cores of a
 * 2-core machine busy, whatever the file's size (a plain node:http server shows the same). Half
 * the file is 2.5 times that, and half of what keeping it would cost.
 */
const STREAMED_BYTES = 128 * 1024 * 1024;

describe('CSV size limit', () => {
	let small: Sandbox;
	beforeAll(async () => (small = await startSandbox({ csvMaxBytes: 1024 })));
	afterAll(() => small.close());
	beforeEach(() => small.reset());

	const bigCsv =
		'email\n' + Array.from({ length: 200 }, (_, i) => `user${i}@example.com`).join('\n');

	it('refuses list creation with 413 and creates no list', async () => {
		const res = await call(small, 'POST', '/lists', {
			form: csvForm(bigCsv),
			query: { name: 'Big' },
		});
		expect(res.status).toBe(413);
		expectMeta(res.body);
		expect(res.body.error).toEqual({
			status: 413,
			code: 'CSV_TOO_LARGE',
			message: 'CSV file exceeds the maximum size of 1 KB',
		});
		expect(small.allLists()).toEqual([]);
		expect((await call(small, 'GET', '/lists')).body.items).toEqual([]);
	});

	it('refuses a bulk add with 413 and adds nobody', async () => {
		small.seedList({ name: 'L' });
		const res = await call(small, 'POST', '/lists/1/subscribers/bulk', { form: csvForm(bigCsv) });
		expect(res.status).toBe(413);
		expect(small.listSubscribers(1)).toEqual([]);
	});

	it('accepts a file exactly at the limit', async () => {
		const atLimit = 'email\n' + 'a'.repeat(1024 - 'email\n'.length);
		const res = await call(small, 'POST', '/lists', {
			form: csvForm(atLimit),
			query: { name: 'Edge' },
		});
		expect(res.status).toBe(200);
	});

	it('names the 200 MB limit by default', () => {
		expect(csvTooLarge(DEFAULT_CSV_MAX_BYTES).message).toBe(
			'CSV file exceeds the maximum size of 200 MB',
		);
	});

	it('answers 413 to a streamed 128 MB upload without buffering it', async () => {
		const result = await streamUpload(small, STREAMED_BYTES, 'csvFile');
		expect(result.status).toBe(413);
		expect(JSON.parse(result.body).error.code).toBe('CSV_TOO_LARGE');
		expect(result.heapGrowth).toBeLessThan(STREAMED_BYTES / 2);
	});
});

describe('streaming', () => {
	it('streams a 128 MB non-CSV part through without keeping it', async () => {
		sandbox.seedList({ name: 'L' });
		const result = await streamUpload(sandbox, STREAMED_BYTES, 'attachment');
		expect(result.status).toBe(200);
		const recorded = sandbox.requests.at(-1);
		expect(recorded?.parts?.map((p) => [p.name, p.size, p.text === undefined])).toEqual([
			['attachment', STREAMED_BYTES, true],
			['csvFile', 'email\nz@x.io\n'.length, false],
		]);
		expect(result.heapGrowth).toBeLessThan(STREAMED_BYTES / 2);
	});
});

/**
 * Sends a multipart bulk add whose first part (`partName`) is `size` bytes generated on the fly.
 */
async function streamUpload(target: Sandbox, size: number, partName: string) {
	const boundary = 'sandbox-test-boundary';
	const head = `--${boundary}\r\nContent-Disposition: form-data; name="${partName}"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nemail\n`;
	const tail =
		partName === 'csvFile'
			? `\r\n--${boundary}--\r\n`
			: `\r\n--${boundary}\r\nContent-Disposition: form-data; name="csvFile"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nemail\nz@x.io\n\r\n--${boundary}--\r\n`;
	const line = Buffer.from('user@example.com\n');
	const block = Buffer.concat(Array.from({ length: 4096 }, () => line));
	const url = new URL(`${target.listsBaseUrl}/lists/1/subscribers/bulk`);
	if (partName === 'csvFile') url.pathname = '/audience/v3/lists';
	url.searchParams.set('name', 'Big');
	const before = liveMemory();
	let peak = before;
	return new Promise<{ status: number; body: string; heapGrowth: number }>((resolve, reject) => {
		const req = http.request(url, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${target.apiKey}`,
				'content-type': `multipart/form-data; boundary=${boundary}`,
			},
		});
		req.on('response', (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => (body += chunk));
			res.on('end', () =>
				resolve({ status: res.statusCode ?? 0, body, heapGrowth: peak - before }),
			);
		});
		req.on('error', reject);
		let sent = 'email\n'.length;
		const pump = () => {
			while (sent < size) {
				if (sent % (8 * 1024 * 1024) < block.length) peak = Math.max(peak, liveMemory());
				const chunk = block.subarray(0, Math.min(block.length, size - sent));
				sent += chunk.length;
				if (!req.write(chunk)) return void req.once('drain', pump);
			}
			req.end(tail);
		};
		req.on('error', () => undefined);
		req.write(head);
		pump();
	});
}

/**
 * Heap plus buffers still reachable after a full GC (exposed at runtime, since jest runs without
 * --expose-gc).
 */
function liveMemory(): number {
	v8.setFlagsFromString('--expose-gc');
	(vm.runInNewContext('gc') as () => void)();
	const memory = process.memoryUsage();
	return memory.heapUsed + memory.arrayBuffers;
}
