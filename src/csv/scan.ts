import type { ByteText } from './pieces';
import { giveRow } from './row';
import type { RowReading } from './row';

const QUOTE = 0x22;
/** quotedRow's answers when it gives no row: the row goes on in the next piece, or is unusual. */
const PENDING = -1;
const UNUSUAL = -2;

/**
 * Gives the complete rows of each piece of text (all of it when `last`), reading them as papaparse
 * does but faster (issue 50: the check at upload speed): the places of the delimiters, quotes and
 * line breaks are found with indexOf, each kept as the next one from where the reading is (so each
 * part of the text is searched once), and a field's value is kept as its place in the text
 * (CsvRow).
 *
 * A field is quoted when it starts with a quote; its closing quote must be followed by the
 * delimiter, the line break or the end of the file. Any other quoted row (spaces after the closing
 * quote, which papaparse allows, a stray quote, a quote never closed in the last piece) stops the
 * scan at its start (`reading.unusual`): papaparse reads the rest of the piece, so its verdicts
 * stay. scan() returns where the rows it gave end (the rest is pending, or papaparse's when
 * unusual). One scanner serves a whole reading: a scanner made for every piece, returning an
 * object, had V8 throw its optimized code away at the end of pieces (135 times a file) and run
 * 2.5 times slower once it stopped doing so (measured, issue 50).
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

	/** One scanner a reading, whose pieces scan() takes in turn (its state stays of one shape). */
	constructor(private readonly reading: RowReading) {
		({ delimiter: this.delimiter, lineBreak: this.lineBreak } = reading.layout);
	}

	scan(text: ByteText, last: boolean): number {
		const { reading, delimiter, lineBreak } = this;
		const { row } = reading;
		reading.unusual = false;
		row.bytes = reading.bytes;
		this.text = text;
		this.last = last;
		const length = text.length;
		let pos = 0;
		let nextQuote = -2;
		let nextDelimiter = text.indexOf(delimiter);
		let nextBreak = text.indexOf(lineBreak);
		while (pos < length) {
			if (nextQuote !== -1 && nextQuote < pos) nextQuote = text.indexOf('"', pos);
			if (nextDelimiter !== -1 && nextDelimiter < pos) nextDelimiter = text.indexOf(delimiter, pos);
			// Most rows: no quote before the line break that ends them.
			if (nextQuote === -1 || (nextBreak !== -1 && nextQuote > nextBreak)) {
				if (nextBreak === -1 && !last) break;
				const rowEnd = nextBreak === -1 ? length : nextBreak;
				let { ends } = row;
				let count = 0;
				while (nextDelimiter !== -1 && nextDelimiter < rowEnd) {
					if (count === ends.length) ends = row.moreEnds();
					ends[count++] = nextDelimiter;
					nextDelimiter = text.indexOf(delimiter, nextDelimiter + 1);
				}
				row.setPlain(text, pos, count + 1, rowEnd);
				pos = nextBreak === -1 ? length : nextBreak + lineBreak.length;
				giveRow(reading, pos, nextBreak === -1 ? 0 : 1);
				if (nextBreak !== -1) nextBreak = text.indexOf(lineBreak, pos);
				continue;
			}
			this.nextDelimiter = nextDelimiter;
			this.nextBreak = nextBreak;
			const end = this.quotedRow(pos);
			if (end < 0) {
				reading.unusual = end === UNUSUAL;
				return pos;
			}
			pos = end;
			({ nextDelimiter, nextBreak } = this);
			if (nextBreak !== -1 && nextBreak < pos) nextBreak = text.indexOf(lineBreak, pos);
		}
		return pos;
	}

	/**
	 * Gives the row with a quote that starts at `pos`, field by field; returns where it ends, or
	 * PENDING (it ends in a later piece) or UNUSUAL (papaparse reads it).
	 */
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
					this.nextBreak = text.indexOf(lineBreak, this.nextBreak + lineBreak.length);
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
			if (nextDelimiter !== -1 && nextDelimiter < at) nextDelimiter = text.indexOf(delimiter, at);
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

	/**
	 * The closing quote of the quoted field that starts at `open`, or −1 when the text ends before
	 * it (a quote that is the text's last character is taken as closing); `escaped` says whether
	 * doubled quotes are inside.
	 */
	private closingQuote(open: number): number {
		const { text } = this;
		let close = open + 1;
		this.escaped = false;
		for (;;) {
			close = text.indexOf('"', close);
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
