import { confirmedRepeats, readTwice, RepeatCandidates } from '../../../../src/csv/confirm';
import { csvLayout } from '../../../../src/csv/rows';

async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
	for (let start = 0; start < bytes.length; start += size)
		yield bytes.subarray(start, start + size);
}

async function collect(source: Buffer | AsyncIterable<Uint8Array | string>): Promise<Buffer> {
	if (Buffer.isBuffer(source)) return source;
	const parts: Buffer[] = [];
	for await (const part of source) parts.push(Buffer.from(part));
	return Buffer.concat(parts);
}

/** A file of `rows` values of one column, some repeated, and the repeats a plain Map finds. */
function file(rows: number) {
	let seed = 11;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	const values = Array.from({ length: rows }, () => `v${Math.floor(random() * rows)}@example.com`);
	const first = new Map<string, number>();
	const repeats: number[][] = [];
	values.forEach((value, index) => {
		if (first.has(value)) repeats.push([index, first.get(value)!]);
		else first.set(value, index);
	});
	const bytes = Buffer.from(`email,n\n${values.map((value, n) => `${value},${n}`).join('\n')}\n`);
	return { bytes, repeats, layout: csvLayout(bytes) };
}

/** Every row a candidate (as though every hash were the same): the values decide alone. */
const everyRow = (rows: number) => Uint32Array.from({ length: rows }, (_, index) => index);

describe('confirmedRepeats: the values of the candidate rows compared on another read', () => {
	it('finds exactly the repeats a plain Map finds, however small the budget: reads again for the values it could not keep', async () => {
		for (const [rows, budget] of [
			[3000, { values: 1 << 18, chars: 1 << 23 }],
			[3000, { values: 700, chars: 1 << 23 }],
			[3000, { values: 1 << 18, chars: 5000 }],
			// A value over the budget is kept all the same, one a read.
			[60, { values: 1 << 18, chars: 1 }],
		] as const) {
			const { bytes, repeats, layout } = file(rows);
			const column = { at: 0, value: (field: string) => field || undefined, rows: everyRow(rows) };
			let opens = 0;
			const found: number[][] = [];
			const reads = await confirmedRepeats(
				async () => (opens++, pieces(bytes, 4096)),
				layout,
				[column],
				(c, index, firstIndex) => found.push([c, index, firstIndex]),
				budget,
			);
			expect(found.sort((a, b) => a[1] - b[1])).toEqual(repeats.map((pair) => [0, ...pair]));
			expect(repeats.length).toBeGreaterThan(rows / 5);
			expect(reads).toBe(opens);
			if (budget.values === 700) expect(reads).toBe(3);
			if (budget.chars === 5000) expect(reads).toBeGreaterThan(5);
			if (budget.chars === 1) expect(reads).toBe(rows - repeats.length);
		}
	});

	it('reads only as far as the last row to compare, once when the hash found nothing', async () => {
		const { bytes, layout } = file(20_000);
		let read = 0;
		const source = async () =>
			(async function* () {
				for await (const piece of pieces(bytes, 1024)) {
					read += piece.length;
					yield piece;
				}
			})();
		const candidates = new RepeatCandidates();
		candidates.add(900, 12);
		candidates.add(40, 12);
		expect([...candidates.sorted()]).toEqual([12, 40, 900]);
		const column = { at: 0, value: (field: string) => field, rows: candidates.sorted() };
		expect(await confirmedRepeats(source, layout, [column], () => {})).toBe(1);
		expect(read).toBeLessThan(bytes.length / 10);
		expect(
			await confirmedRepeats(source, layout, [{ ...column, rows: new Uint32Array() }], () => {}),
		).toBe(0);
	});
});

describe('readTwice: the check reads a file, then reads it again only from memory up to 16 MB', () => {
	it('reads a stream again from the bytes it kept, opening it once; past the limit it opens it again', async () => {
		const bytes = Buffer.from('email\n'.padEnd(10_000, 'x'));
		for (const [keepBytes, expected] of [
			[20_000, 1],
			[5000, 2],
		]) {
			let opens = 0;
			const { first, again } = await readTwice(
				async () => (opens++, pieces(bytes, 999)),
				keepBytes,
			);
			expect(await collect(first)).toEqual(bytes);
			expect(await collect(typeof again === 'function' ? await again() : again)).toEqual(bytes);
			expect(opens).toBe(expected);
		}
		const buffer = await readTwice(async () => bytes);
		expect(buffer).toEqual({ first: bytes, again: bytes });
	});
});
