/**
 * A unique CSV column's values as hashes, to find the rows that may repeat an earlier one.
 *
 * Memory and time stay linear: a value is two 32-bit hashes and its row (12 bytes), never text.
 * Values fill a chunk of 4,096, then go in one go to 256 buckets (the first hash's top bits), as a
 * bucket written per value, or one table of all values, would push the reading out of the cache.
 * Each bucket then goes through a small table, in file order, so a candidate names the first row
 * with its hashes. Values may share hashes (by chance, or differing only in the top bit of two
 * characters at odd places, U+8000 and up): a candidate is a repeat only once compared.
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
	/** Per bucket, blocks of BLOCK_ENTRIES entries (first hash, second hash, row index). */
	private buckets: Uint32Array[][] = Array.from({ length: 1 << BUCKET_BITS }, () => []);
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

	/** Calls `repeat` for each value whose hashes an earlier row held, with that row; frees all. */
	repeats(repeat: (index: number, firstIndex: number) => void): void {
		this.bucketed();
		// A bucket's table: its entries' places + 1 (0: a free slot), placed by their second hash.
		let table = EMPTY_BLOCK;
		for (let bucket = 0; bucket < this.buckets.length; bucket++) {
			const blocks = this.buckets[bucket];
			const count = this.fill[bucket];
			// Freed first: a line after the loop below, met only once it is optimized, would make
			// V8 throw the optimized code away every time.
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

/** One bucket's repeats, through `table`: all free, `mask` + 1 slots. */
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
 * `text`'s two 32-bit hashes, `start` to `end`: FNV-1a and multiply-add, two UTF-16 units a step,
 * mixed so the bucket bits depend on every character; the same from bytes (bytesHash). Gives HASH.
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
 * valueHash of a value's bytes, a byte a character (faster than a string): true, or false if a
 * byte is `refused` (256 entries, 1 refusing; bytes past ASCII must be). Counts `mark` in MARKS.
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
