/**
 * The values of one unique column of a CSV file, to find the rows that may repeat an earlier one
 * once the file is read, in memory and time linear in the rows, whatever the size:
 * - each value is kept as two 32-bit hashes with its row index (12 bytes), never as text;
 * - while the file is read, values are only appended to one of 256 buckets (by their first hash's
 *   top bits) in blocks of 6 KB: 256 places being written stay in the processor's cache, where a
 *   table of 2 million values looked up at random would miss it on every row (measured: a third
 *   of the check's time);
 * - at the end each bucket (a few thousand values) goes through a small table that fits the
 *   cache, in file order, so a candidate names the first row that held the same hash.
 * The two hashes make 64 bits (the bucket is 8 bits of the first, compared in full too), which two
 * different values may share: rarely by chance, always when they differ only in the top bit of two
 * characters at odd places (U+8000 and up): both hashes carry a bit only upward, and the top bit
 * nowhere. A candidate is only a repeat once the values are compared (confirmedRepeats).
 */
const BUCKET_BITS = 8;
const BLOCK_ENTRIES = 512;

export class UniqueValues {
	/**
	 * Per bucket, blocks of BLOCK_ENTRIES entries of three words: first hash, second hash, row index.
	 */
	private readonly buckets: Uint32Array[][] = Array.from({ length: 1 << BUCKET_BITS }, () => []);
	private readonly fill = new Uint32Array(1 << BUCKET_BITS);

	add(value: string, index: number): void {
		const hash = valueHash(value);
		const a = hash[0];
		const b = hash[1];
		const bucket = a >>> (32 - BUCKET_BITS);
		const blocks = this.buckets[bucket];
		const used = this.fill[bucket];
		if (used % BLOCK_ENTRIES === 0) blocks.push(new Uint32Array(BLOCK_ENTRIES * 3));
		const block = blocks[blocks.length - 1];
		const at = (used % BLOCK_ENTRIES) * 3;
		block[at] = a;
		block[at + 1] = b;
		block[at + 2] = index;
		this.fill[bucket] = used + 1;
	}

	/**
	 * Calls `repeat` for every value whose hash an earlier row already held, with the first such
	 * row's index (a candidate: the two values may differ); frees the values.
	 */
	repeats(repeat: (index: number, firstIndex: number) => void): void {
		// A bucket's table: the entry numbers (+1; 0 is free), placed by the second hash.
		let table = new Uint32Array(0);
		this.buckets.forEach((blocks, bucket) => {
			const count = this.fill[bucket];
			let size = 16;
			while (size < count * 2) size *= 2;
			if (table.length < size) table = new Uint32Array(size);
			else table.fill(0, 0, size);
			const mask = size - 1;
			const word = (entry: number, offset: number) =>
				blocks[Math.floor(entry / BLOCK_ENTRIES)][(entry % BLOCK_ENTRIES) * 3 + offset];
			for (let entry = 0; entry < count; entry++) {
				const a = word(entry, 0);
				const b = word(entry, 1);
				for (let slot = b & mask; ; slot = (slot + 1) & mask) {
					const held = table[slot];
					if (held === 0) {
						table[slot] = entry + 1;
						break;
					}
					if (word(held - 1, 0) === a && word(held - 1, 1) === b) {
						repeat(word(entry, 2), word(held - 1, 2));
						break;
					}
				}
			}
			blocks.length = 0;
		});
	}
}

/** valueHash's result, reused: no allocation per row. */
const HASH = new Int32Array(2);

/**
 * The two 32-bit hashes of a value in one pass, FNV-1a and a multiply-add one, two characters a
 * step (UTF-16 code units, 16 bits each), mixed at the end so that the top bits of the first (the
 * bucket) depend on every character. The result is overwritten by the next call.
 */
export function valueHash(value: string): Int32Array {
	let a = 0x811c9dc5;
	let b = value.length;
	const even = value.length & ~1;
	for (let i = 0; i < even; i += 2) {
		const code = value.charCodeAt(i) | (value.charCodeAt(i + 1) << 16);
		a = Math.imul(a ^ code, 0x01000193);
		b = (Math.imul(b, 0x5bd1e995) + code) | 0;
	}
	if (even < value.length) {
		a = Math.imul(a ^ value.charCodeAt(even), 0x01000193);
		b = (Math.imul(b, 0x5bd1e995) + value.charCodeAt(even)) | 0;
	}
	a ^= a >>> 15;
	a = Math.imul(a, 0x2c1b3c6d);
	a ^= a >>> 12;
	b ^= b >>> 13;
	HASH[0] = a;
	HASH[1] = b;
	return HASH;
}
