/** Bitmaps of a piece's delimiters, line breaks, quotes: bit k of word w is character 32w + k. */
export class PieceIndex {
	delimiters = new Uint32Array(0);
	breaks = new Uint32Array(0);
	quotes = new Uint32Array(0);
	/** The words of the last piece's bitmaps (32 characters each). */
	words = 0;

	constructor(
		private readonly delimiter: string,
		private readonly lineBreak: string,
	) {}

	/** Indexes a piece (one-byte text: its places are its bytes'). */
	index(text: string): void {
		// A bitmap has a word more than the piece's (read by a row that ends at its end, unmarked).
		const words = (this.words = (text.length + 31) >>> 5);
		if (words >= this.delimiters.length) {
			let capacity = Math.max(this.delimiters.length, 4096);
			while (capacity <= words) capacity *= 2;
			this.delimiters = new Uint32Array(capacity);
			this.breaks = new Uint32Array(capacity);
			this.quotes = new Uint32Array(capacity);
		}
		marked(this.delimiters, words, text, this.delimiter[0]);
		marked(this.breaks, words, text, this.lineBreak[0]);
		marked(this.quotes, words, text, '"');
	}
}

/** Sets the places of `character` in `text` in `bits` (its first `words` + 1 words cleared). */
function marked(bits: Uint32Array, words: number, text: string, character: string): void {
	bits.fill(0, 0, words + 1);
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
