import { PIECE_INDEX_WASM } from './piece-index-wasm';

/** What of the WebAssembly API the index uses (typed here: the project's libraries do not). */
interface IndexExports {
	memory: { buffer: ArrayBuffer; grow(pages: number): number };
	index(
		at: number,
		end: number,
		marks: number,
		stride: number,
		delimiter: number,
		lineBreak: number,
	): void;
}
declare const WebAssembly: {
	Module: new (bytes: Uint8Array) => object;
	Instance: new (module: object, imports: object) => { exports: IndexExports };
};

/** How pieces are indexed: tests read files the JavaScript way too (`webAssembly: false`). */
export const pieceIndexing = { webAssembly: true };

const PAGE_BYTES = 65536;
const QUOTE = '"';

/** The module, compiled once; null where WebAssembly (or its SIMD) is missing. */
let compiled: object | null | undefined;

function indexModule(): object | null {
	if (compiled === undefined) {
		compiled = null;
		if (typeof WebAssembly === 'object')
			try {
				compiled = new WebAssembly.Module(Buffer.from(PIECE_INDEX_WASM, 'base64'));
			} catch {
				// An engine without SIMD refuses the module: the pieces are indexed in JavaScript.
			}
	}
	return compiled;
}

/**
 * Where a piece's delimiters, line breaks (their first character) and quotes are, as bitmaps: bit k
 * of word w is the piece's byte 32w + k (issue 50: found 32 bytes a step with SIMD, where indexOf
 * was called 22 million times for a 190 MB file). The places are the piece's ByteText's. Where
 * WebAssembly is missing, indexOf marks them: the same bitmaps, about as fast as the scan that
 * called indexOf for each of them (c644c93).
 */
export class PieceIndex {
	delimiters = new Uint32Array(0);
	breaks = new Uint32Array(0);
	quotes = new Uint32Array(0);
	/** How the pieces are indexed: with the WebAssembly module, or with indexOf where it is missing. */
	readonly way: 'webassembly' | 'javascript';
	/** The words of the last piece's bitmaps (32 bytes each). */
	words = 0;
	/** The bytes a piece may have without the memory growing (a multiple of 32). */
	private capacity = 0;
	private exports: IndexExports | undefined;
	private memoryBytes = new Uint8Array(0);
	private readonly delimiter: number;
	private readonly lineBreak: number;

	constructor(delimiter: string, lineBreak: string) {
		this.delimiter = delimiter.charCodeAt(0);
		this.lineBreak = lineBreak.charCodeAt(0);
		const module = pieceIndexing.webAssembly ? indexModule() : null;
		if (module) this.exports = new WebAssembly.Instance(module, {}).exports;
		this.way = this.exports ? 'webassembly' : 'javascript';
	}

	/** Indexes a piece: its bytes, and the same as ByteText. */
	index(bytes: Uint8Array, text: string): void {
		const length = bytes.length;
		const padded = (length + 31) & ~31;
		// A bitmap has a word more than the piece's (read by a row that ends at its end, unmarked).
		if (padded >= this.capacity) this.grow(padded + 32);
		this.words = padded >>> 5;
		const { exports } = this;
		if (exports) {
			this.memoryBytes.set(bytes, 0);
			this.memoryBytes.fill(0, length, padded);
			const stride = this.capacity >>> 3;
			exports.index(0, padded, this.capacity, stride, this.delimiter, this.lineBreak);
			return;
		}
		const { words } = this;
		marked(this.delimiters, words, text, String.fromCharCode(this.delimiter));
		marked(this.breaks, words, text, String.fromCharCode(this.lineBreak));
		marked(this.quotes, words, text, QUOTE);
	}

	/** Room for a piece of `bytes` (a multiple of 32): the bytes, then three bitmaps. */
	private grow(bytes: number): void {
		let capacity = Math.max(this.capacity, 128 * 1024);
		while (capacity < bytes) capacity *= 2;
		this.capacity = capacity;
		const stride = capacity >>> 3;
		const { exports } = this;
		if (!exports) {
			this.delimiters = new Uint32Array(stride >>> 2);
			this.breaks = new Uint32Array(stride >>> 2);
			this.quotes = new Uint32Array(stride >>> 2);
			return;
		}
		const { memory } = exports;
		const needed = Math.ceil((capacity + 3 * stride) / PAGE_BYTES);
		const pages = memory.buffer.byteLength / PAGE_BYTES;
		if (needed > pages) memory.grow(needed - pages);
		const { buffer } = memory;
		this.memoryBytes = new Uint8Array(buffer, 0, capacity);
		this.delimiters = new Uint32Array(buffer, capacity, stride >>> 2);
		this.breaks = new Uint32Array(buffer, capacity + stride, stride >>> 2);
		this.quotes = new Uint32Array(buffer, capacity + 2 * stride, stride >>> 2);
	}
}

/** The places of `character` in `text` set in `bits` (its first `words` words cleared first). */
function marked(bits: Uint32Array, words: number, text: string, character: string): void {
	bits.fill(0, 0, words);
	for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1))
		bits[at >>> 5] |= 1 << (at & 31);
}

/** The first place marked in `bits` from `from` on (bitmaps of `words` words), or −1. */
export function nextMark(bits: Uint32Array, from: number, words: number): number {
	let word = from >>> 5;
	if (word >= words) return -1;
	let marks = bits[word] & (-1 << (from & 31));
	while (marks === 0) {
		if (++word === words) return -1;
		marks = bits[word];
	}
	return (word << 5) | (31 - Math.clz32(marks & -marks));
}
