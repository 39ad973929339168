/**
 * The values of one unique column of a CSV file, to find the rows that may repeat an earlier one
 * once the file is read, in memory and time linear in the rows, whatever the size:
 * - each value is kept as two 32-bit hashes with its row index (12 bytes), never as text;
 * - while the file is read, values are appended to one chunk of 4,096; each time it is full, its
 *   values are put in one of 256 buckets (by their first hash's top bits), in blocks of 24 KB, in
 *   one go: appending each value to its bucket as it came cost a sixth of the check's time (issue
 *   50: the 256 places written pushed the reading out of the processor's cache), and a table of
 *   2 million values looked up at random, a third;
 * - at the end each bucket (a few thousand values) goes through a small table that fits the
 *   cache, in file order, so a candidate names the first row that held the same hash.
 * The two hashes make 64 bits (the bucket is 8 bits of the first, compared in full too), which two
 * different values may share: rarely by chance, always when they differ only in the top bit of two
 * characters at odd places (U+8000 and up): both hashes carry a bit only upward, and the top bit
 * nowhere. A candidate is only a repeat once the values are compared (confirmedRepeats).
 */
const BUCKET_BITS = 8;
const BLOCK_BITS = 11;
const BLOCK_ENTRIES = 1 << BLOCK_BITS;
const CHUNK_WORDS = 3 * 4096;
const EMPTY_BLOCK = new Uint32Array(0);

export class UniqueValues {
	/** The values not yet in their bucket: per value its first hash, second hash, row index. */
	private readonly chunk = new Uint32Array(CHUNK_WORDS);
	private used = 0;
	/**
	 * Per bucket, blocks of BLOCK_ENTRIES entries of three words: first hash, second hash, row index.
	 */
	private buckets: Uint32Array[][] = Array.from({ length: 1 << BUCKET_BITS }, () => []);
	/** Per bucket, the block being filled (the last of its blocks). */
	private readonly filling: Uint32Array[] = Array.from(
		{ length: 1 << BUCKET_BITS },
		() => EMPTY_BLOCK,
	);
	private readonly fill = new Uint32Array(1 << BUCKET_BITS);

	add(value: string, index: number): void {
		const hash = valueHash(value);
		this.addHash(hash[0], hash[1], index);
	}

	/** A value by its two hashes (valueHash), as add() keeps it. */
	addHash(a: number, b: number, index: number): void {
		const at = this.used;
		const { chunk } = this;
		chunk[at] = a;
		chunk[at + 1] = b;
		chunk[at + 2] = index;
		this.used = at + 3;
		if (this.used === CHUNK_WORDS) this.bucketed();
	}

	/** Puts the chunk's values in their buckets. */
	private bucketed(): void {
		const { chunk, used, fill, filling } = this;
		for (let from = 0; from < used; from += 3) {
			const a = chunk[from];
			const bucket = a >>> (32 - BUCKET_BITS);
			const entries = fill[bucket];
			const at = (entries & (BLOCK_ENTRIES - 1)) * 3;
			let block = filling[bucket];
			if (at === 0) {
				block = filling[bucket] = new Uint32Array(BLOCK_ENTRIES * 3);
				this.buckets[bucket].push(block);
			}
			block[at] = a;
			block[at + 1] = chunk[from + 1];
			block[at + 2] = chunk[from + 2];
			fill[bucket] = entries + 1;
		}
		this.used = 0;
	}

	/**
	 * Calls `repeat` for every value whose hash an earlier row already held, with the first such
	 * row's index (a candidate: the two values may differ); frees the values.
	 */
	repeats(repeat: (index: number, firstIndex: number) => void): void {
		this.bucketed();
		// A bucket's table: its entries' places + 1 (0: a free slot), placed by their second hash.
		let table = EMPTY_BLOCK;
		for (let bucket = 0; bucket < this.buckets.length; bucket++) {
			const blocks = this.buckets[bucket];
			const count = this.fill[bucket];
			// Freed first: a line after the loop below, met only once it is optimized, would make V8
			// throw the optimized code away every time.
			this.buckets[bucket] = [];
			this.filling[bucket] = EMPTY_BLOCK;
			this.fill[bucket] = 0;
			let size = 16;
			while (size < count * 2) size *= 2;
			if (table.length < size) table = new Uint32Array(size);
			else table.fill(0, 0, size);
			bucketRepeats(blocks, count, table, size - 1, repeat);
		}
	}
}

/**
 * The repeats of one bucket's `count` entries (in `blocks`), through `table` (free, of `mask` + 1
 * slots): repeat(index, firstIndex) for each entry whose hashes an earlier one held.
 */
function bucketRepeats(
	blocks: Uint32Array[],
	count: number,
	table: Uint32Array,
	mask: number,
	repeat: (index: number, firstIndex: number) => void,
): void {
	for (let entry = 0; entry < count; entry++) {
		const block = blocks[entry >>> BLOCK_BITS];
		const at = (entry & (BLOCK_ENTRIES - 1)) * 3;
		const a = block[at];
		const b = block[at + 1];
		for (let slot = b & mask; ; slot = (slot + 1) & mask) {
			const held = table[slot];
			if (held === 0) {
				table[slot] = entry + 1;
				break;
			}
			const first = blocks[(held - 1) >>> BLOCK_BITS];
			const firstAt = ((held - 1) & (BLOCK_ENTRIES - 1)) * 3;
			if (first[firstAt] === a && first[firstAt + 1] === b) {
				repeat(block[at + 2], first[firstAt + 2]);
				break;
			}
		}
	}
}

/** valueHash's result, reused: no allocation per row. Read it before the next hash. */
export const HASH = new Int32Array(2);

/**
 * The two 32-bit hashes of a value, `text` from `start` to `end` (all of it by default), in one
 * pass, FNV-1a and a multiply-add one, two characters a step (UTF-16 code units, 16 bits each),
 * mixed at the end so that the top bits of the first (the bucket) depend on every character. A
 * value has the same hashes wherever it is read (in its own string, in a piece of the file, or as
 * bytes: bytesHash). The result is HASH, overwritten by the next call.
 */
export function valueHash(text: string, start = 0, end = text.length): Int32Array {
	let a = 0x811c9dc5;
	let b = end - start;
	const even = start + ((end - start) & ~1);
	for (let i = start; i < even; i += 2) {
		const code = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
		a = Math.imul(a ^ code, 0x01000193);
		b = (Math.imul(b, 0x5bd1e995) + code) | 0;
	}
	if (even < end) {
		a = Math.imul(a ^ text.charCodeAt(even), 0x01000193);
		b = (Math.imul(b, 0x5bd1e995) + text.charCodeAt(even)) | 0;
	}
	return mixed(a, b);
}

/** Where bytesHash found its `mark`: how many times, and the last place. */
export const MARKS = new Int32Array(2);

/**
 * valueHash of a value read from its bytes (from `start` to `end`), where a byte is a character
 * (reading bytes is faster than reading a string's characters), for values whose bytes
 * `refused` allows (a table of 256: 1 refuses; refuse the bytes past ASCII, which are not
 * characters): true, its hashes in HASH; false when a byte is refused (HASH is then not to be
 * read). In the same pass it counts the bytes equal to `mark` (MARKS), which the reader checks.
 */
export function bytesHash(
	bytes: Uint8Array,
	start: number,
	end: number,
	refused: Uint8Array,
	mark: number,
): boolean {
	let a = 0x811c9dc5;
	let b = end - start;
	let refusals = 0;
	let marks = 0;
	let marked = -1;
	const even = start + ((end - start) & ~1);
	for (let i = start; i < even; i += 2) {
		const low = bytes[i];
		const high = bytes[i + 1];
		refusals |= refused[low] | refused[high];
		if (low === mark) {
			marks++;
			marked = i;
		}
		if (high === mark) {
			marks++;
			marked = i + 1;
		}
		const code = low | (high << 16);
		a = Math.imul(a ^ code, 0x01000193);
		b = (Math.imul(b, 0x5bd1e995) + code) | 0;
	}
	if (even < end) {
		const last = bytes[even];
		refusals |= refused[last];
		if (last === mark) {
			marks++;
			marked = even;
		}
		a = Math.imul(a ^ last, 0x01000193);
		b = (Math.imul(b, 0x5bd1e995) + last) | 0;
	}
	if (refusals !== 0) return false;
	MARKS[0] = marks;
	MARKS[1] = marked;
	mixed(a, b);
	return true;
}

/** The hashes' last step, into HASH. */
function mixed(a: number, b: number): Int32Array {
	a ^= a >>> 15;
	a = Math.imul(a, 0x2c1b3c6d);
	a ^= a >>> 12;
	b ^= b >>> 13;
	HASH[0] = a;
	HASH[1] = b;
	return HASH;
}
