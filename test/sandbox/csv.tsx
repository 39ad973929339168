/** A streaming CSV parser that reports each record with the line it starts on. */
import { StringDecoder } from 'node:string_decoder';

/** Called once per non-empty record with its cells and the 1-based file line where it starts. */
export type RecordCallback = (cells: string[], line: number) => void;

/**
 * Sandbox choice (spec: not shown): the CSV format (UTF-8, optional BOM, RFC 4180 quoting, a
 * delimiter sniffed among these).
 */
const DELIMITERS = [',', ';', '\t'];
const SNIFF_LIMIT = 64 * 1024;

/**
 * Streaming RFC 4180 CSV parser fed with raw bytes (UTF-8, optional BOM).
 * The delimiter (comma, semicolon or tab) is sniffed from the header line.
 */
export class CsvParser {
	private readonly decoder = new StringDecoder('utf8');
	private delimiter?: string;
	private sniffed = '';
	private cells: string[] = [];
	private field = '';
	private fieldStart = true;
	private quoted = false;
	private quoteSeen = false;
	private skipLf = false;
	private line = 1;
	private recordLine = 1;

	constructor(private readonly onRecord: RecordCallback) {}

	write(chunk: Buffer): void {
		this.feed(this.decoder.write(chunk));
	}

	end(): void {
		this.feed(this.decoder.end());
		if (this.delimiter === undefined) this.sniff();
		if (this.quoted && this.quoteSeen) this.quoted = false;
		if (this.field !== '' || this.cells.length > 0 || !this.fieldStart) this.endRecord();
	}

	private feed(text: string): void {
		if (this.delimiter !== undefined) return this.parse(text);
		this.sniffed += text;
		if (/[\r\n]/.test(this.sniffed) || this.sniffed.length > SNIFF_LIMIT) this.sniff();
	}

	private sniff(): void {
		const text = this.sniffed.replace(/^\uFEFF/, '');
		const firstLine = text.split(/\r?\n|\r/, 1)[0].replace(/"[^"]*"/g, '');
		const count = (d: string) => firstLine.split(d).length - 1;
		this.delimiter = DELIMITERS.reduce((best, d) => (count(d) > count(best) ? d : best), ',');
		this.sniffed = '';
		this.parse(text);
	}

	/**
	 * Copies whole runs of text with slice() instead of char by char (much less garbage on big
	 * files).
	 */
	private parse(text: string): void {
		let run = 0; // start of the part of the current field not yet copied into this.field
		const copy = (end: number) => {
			if (end > run) this.field += text.slice(run, end);
		};
		for (let i = 0; i < text.length; i++) {
			const c = text[i];
			if (this.skipLf) {
				this.skipLf = false;
				if (c === '\n') {
					run = i + 1;
					continue;
				}
			}
			if (this.quoted) {
				if (!this.quoteSeen) {
					if (c === '"') {
						copy(i);
						this.quoteSeen = true;
						run = i + 1;
					} else if (c === '\n') this.line++;
					continue;
				}
				this.quoteSeen = false;
				if (c === '"') {
					this.field += '"'; // "" is an escaped quote
					run = i + 1;
					continue;
				}
				this.quoted = false; // the quote closed the field; handle c as unquoted text
			}
			if (c === this.delimiter) {
				copy(i);
				this.cells.push(this.field);
				this.field = '';
				this.fieldStart = true;
				run = i + 1;
			} else if (c === '\n' || c === '\r') {
				copy(i);
				this.endRecord();
				this.line++;
				this.recordLine = this.line;
				this.skipLf = c === '\r';
				run = i + 1;
			} else if (c === '"' && this.fieldStart) {
				this.quoted = true;
				this.fieldStart = false;
				run = i + 1;
			} else this.fieldStart = false;
		}
		copy(text.length);
	}

	private endRecord(): void {
		this.cells.push(this.field);
		const cells = this.cells;
		this.cells = [];
		this.field = '';
		this.fieldStart = true;
		if (cells.length === 1 && cells[0] === '') return; // blank line
		this.onRecord(cells, this.recordLine);
	}
}
