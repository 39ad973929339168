/** RowScanner: the fast reading of a CSV piece's rows, from its bitmaps. */
import { nextMark, PieceIndex } from './piece-index';
import type { ByteText } from './pieces';
import { giveRow } from './row';
import type { RowReading } from './row';

const QUOTE = 0x22;
/** quotedRow's answers when it gives no row: the row goes on in the next piece, or is unusual. */
const PENDING = -1;
const UNUSUAL = -2;

/**
 * Gives each piece's complete rows (all when `last`) as papaparse would; fields are kept as places
 * in the text (CsvRow). A quoted field's closing quote must be followed by the delimiter, the line
 * break or the end of the file; any other quoted row (spaces after the closing quote, which
 * papaparse allows, a stray quote, a quote never closed) stops the scan at its start
 * (`reading.unusual`) and papaparse reads the rest of the piece, so its verdicts stay. One
 * scanner, of one shape, serves a whole reading, so V8 keeps its optimized code across pieces.
 */
export class RowScanner {
	private text: ByteText = '';
	private last = false;
	private nextDelimiter = -1;
	private nextBreak = -1;
	/** Whether the last quoted field had doubled quotes inside. */
	private escaped = false;
	private readonly delimiter: string;
	private readonly lineBreak: string;
	/** Whether the line break is two characters (CR LF): the index marks the first. */
	private readonly twoByteBreak: boolean;
	private readonly index: PieceIndex;

	constructor(private readonly reading: RowReading) {
		({ delimiter: this.delimiter, lineBreak: this.lineBreak } = reading.layout);
		this.twoByteBreak = this.lineBreak.length === 2;
		this.index = new PieceIndex(this.delimiter, this.lineBreak);
	}

	scan(text: ByteText, last: boolean): number {
		const { reading, lineBreak, index } = this;
		const { row } = reading;
		reading.unusual = false;
		row.bytes = reading.bytes;
		this.text = text;
		this.last = last;
		index.index(text);
		const { delimiters, quotes, words } = index;
		const length = text.length;
		let pos = 0;
		let nextQuote = -2;
		let nextBreak = this.breakFrom(0);
		// Where quotedRow looks for the next delimiter from (−1: none; below its field: look).
		this.nextDelimiter = -2;
		while (pos < length) {
			if (nextQuote !== -1 && nextQuote < pos) nextQuote = nextMark(quotes, pos, words);
			// Most rows: no quote before the line break that ends them.
			if (nextQuote === -1 || (nextBreak !== -1 && nextQuote > nextBreak)) {
				if (nextBreak === -1 && !last) break;
				const rowEnd = nextBreak === -1 ? length : nextBreak;
				// The delimiters from pos to rowEnd, read from their bitmap 32 bytes at a time.
				let { ends } = row;
				let count = 0;
				let word = pos >>> 5;
				let marks = delimiters[word] & (-1 << (pos & 31));
				const endWord = rowEnd >>> 5;
				for (;;) {
					if (word === endWord) marks &= ~(-1 << (rowEnd & 31));
					while (marks !== 0) {
						if (count === ends.length) ends = row.moreEnds();
						ends[count++] = (word << 5) | (31 - Math.clz32(marks & -marks));
						marks &= marks - 1;
					}
					if (word === endWord) break;
					marks = delimiters[++word];
				}
				row.setPlain(text, pos, count + 1, rowEnd);
				pos = nextBreak === -1 ? length : nextBreak + lineBreak.length;
				giveRow(reading, pos, nextBreak === -1 ? 0 : 1);
				if (nextBreak !== -1) nextBreak = this.breakFrom(pos);
				continue;
			}
			this.nextBreak = nextBreak;
			const end = this.quotedRow(pos);
			if (end < 0) {
				reading.unusual = end === UNUSUAL;
				return pos;
			}
			pos = end;
			nextBreak = this.nextBreak;
			if (nextBreak !== -1 && nextBreak < pos) nextBreak = this.breakFrom(pos);
		}
		return pos;
	}

	/** The first line break from `from` on in the piece, or −1. */
	private breakFrom(from: number): number {
		const { breaks, words } = this.index;
		let at = nextMark(breaks, from, words);
		if (this.twoByteBreak)
			while (at !== -1 && this.text.charCodeAt(at + 1) !== 0x0a)
				at = nextMark(breaks, at + 1, words);
		return at;
	}

	/** Gives the quoted row at `pos`; returns its end, PENDING (in a later piece) or UNUSUAL. */
	private quotedRow(pos: number): number {
		const { text, last, reading, delimiter, lineBreak } = this;
		const { row } = reading;
		const length = text.length;
		let lines = 0;
		let at = pos;
		row.begin(text, pos);
		for (;;) {
			if (text.charCodeAt(at) === QUOTE) {
				const close = this.closingQuote(at);
				if (close === -1) return last ? UNUSUAL : PENDING;
				if (close + 1 >= length && !last) return PENDING;
				while (this.nextBreak !== -1 && this.nextBreak < close) {
					lines++;
					this.nextBreak = this.breakFrom(this.nextBreak + lineBreak.length);
				}
				row.addField(at + 1, close, this.escaped);
				const after = close + 1;
				if (after === length) return this.give(length, lines);
				if (text.startsWith(delimiter, after)) {
					at = after + 1;
					continue;
				}
				if (this.nextBreak !== after) return UNUSUAL;
				return this.give(after + lineBreak.length, lines + 1);
			}
			let { nextDelimiter } = this;
			if (nextDelimiter !== -1 && nextDelimiter < at)
				nextDelimiter = nextMark(this.index.delimiters, at, this.index.words);
			this.nextDelimiter = nextDelimiter;
			const { nextBreak } = this;
			if (nextDelimiter !== -1 && (nextBreak === -1 || nextDelimiter < nextBreak)) {
				row.addField(at, nextDelimiter, false);
				at = nextDelimiter + 1;
				continue;
			}
			if (nextBreak === -1 && !last) return PENDING;
			row.addField(at, nextBreak === -1 ? length : nextBreak, false);
			return nextBreak === -1
				? this.give(length, lines)
				: this.give(nextBreak + lineBreak.length, lines + 1);
		}
	}

	/** The field at `open`'s closing quote (the text's last counts), or −1; sets `escaped`. */
	private closingQuote(open: number): number {
		const { text } = this;
		const { quotes, words } = this.index;
		let close = open + 1;
		this.escaped = false;
		for (;;) {
			close = nextMark(quotes, close, words);
			if (close === -1 || close + 1 >= text.length) return close;
			if (text.charCodeAt(close + 1) !== QUOTE) return close;
			this.escaped = true;
			close += 2;
		}
	}

	private give(end: number, lines: number): number {
		giveRow(this.reading, end, lines);
		return end;
	}
}
