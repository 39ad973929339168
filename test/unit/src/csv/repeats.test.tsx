import { UniqueValues, valueHash } from '../../../../src/csv/repeats';

/** The same value with the top bit of its characters at 1 and 3 flipped (U+4E00… to U+CE00…). */
const twin = (value: string) =>
	[...value]
		.map((char, at) =>
			at === 1 || at === 3 ? String.fromCharCode(char.charCodeAt(0) ^ 0x8000) : char,
		)
		.join('');

describe('UniqueValues: the rows that may repeat an earlier one, found by a 64-bit hash', () => {
	it('takes two different values with the same hash for a candidate (which checkCsv then compares)', () => {
		// The tests of checkCsv and of the node use such twins: the hash is the same, the value not.
		for (const value of ['a一b丁@example.com', '一丁二七', 'x中y丙z']) {
			expect(twin(value)).not.toBe(value);
			expect(Buffer.from(twin(value)).toString()).toBe(twin(value));
			expect([...valueHash(twin(value))]).toEqual([...valueHash(value)]);
		}
		const seen = new UniqueValues();
		['x中y丙z', 'other', twin('x中y丙z'), 'other', 'x中y丙z'].forEach((value, index) =>
			seen.add(value, index),
		);
		const candidates: number[][] = [];
		seen.repeats((index, firstIndex) => candidates.push([index, firstIndex]));
		expect(candidates.sort((a, b) => a[0] - b[0])).toEqual([
			[2, 0],
			[3, 1],
			[4, 0],
		]);
	});

	it('names, for each value seen before, the first row that held it, among 300,000 values kept in several chunks', () => {
		// Values repeat near and far (across the chunks of 65,536 values, and the 256 buckets),
		// some three times; every other value once.
		const values = Array.from({ length: 300_000 }, (_, index) =>
			index % 7 === 3
				? `v${(Math.imul(index, 2654435761) >>> 0) % 40_000}@example.com`
				: `u${index}`,
		);
		const seen = new UniqueValues();
		values.forEach((value, index) => seen.add(value, index));
		const candidates: number[][] = [];
		seen.repeats((index, firstIndex) => candidates.push([index, firstIndex]));
		const first = new Map<string, number>();
		const expected: number[][] = [];
		values.forEach((value, index) => {
			const earlier = first.get(value);
			if (earlier === undefined) first.set(value, index);
			else expected.push([index, earlier]);
		});
		expect(expected.length).toBeGreaterThan(1000);
		expect(candidates.sort((a, b) => a[0] - b[0])).toEqual(expected);
		// The values are freed: a second call finds nothing.
		seen.repeats(() => {
			throw new Error('a value was kept');
		});
	});
});
