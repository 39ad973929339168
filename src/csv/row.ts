import { textOf } from './pieces';
import type { ByteText } from './pieces';

/**
 * How a file's rows are split: its delimiter and line break, and whether it starts with a byte
 * order mark.
 */
export interface CsvLayout {
	delimiter: string;
	lineBreak: '\n' | '\r\n' | '\r';
	bom: boolean;
}

/**
 * Why the reading of a file stopped before its end (bytes that are not UTF-8, a row that never
 * ends), and on which line.
 */
export interface CsvStop {
	problem: string;
	line: number;
}

/**
 * A reading in progress: the file's layout, the row object it fills, the next row's index and
 * line, and why it stopped if it did.
 */
export interface RowReading {
	layout: CsvLayout;
	row: CsvRow;
	index: number;
	line: number;
	stop?: CsvStop;
	onRow: (row: CsvRow) => void;
}

/**
 * Gives the row `reading.row` holds, which ends at `end` in its text, to onRow, with the next
 * index and line; `lines` is the number of line breaks in the row (its own included).
 */
export function giveRow(reading: RowReading, end: number, lines: number): void {
	const { row } = reading;
	row.index = reading.index++;
	row.line = reading.line;
	row.end = end;
	reading.onRow(row);
	reading.line += lines;
}

/**
 * A row of a CSV file as the reading gives it: its index among the rows after the header (the
 * header is −1), the line it starts on, where its bytes (line break included) are in `text` (a
 * piece of the file as ByteText), and its fields. The fields are kept as places in `text` (no
 * string is made for a field nobody reads), or as the strings papaparse gave when it read the row.
 * One object is reused for every row: keep what you need of it, not it.
 */
export class CsvRow {
	index = -1;
	line = 1;
	text: ByteText = '';
	start = 0;
	end = 0;
	/** How many fields the row has. */
	count = 0;
	/** Per field, where its value starts and ends in `text` (its quotes left out). */
	private bounds = new Int32Array(128);
	/** Per field, whether its value holds doubled quotes (""), which field() makes one. */
	private escaped = new Uint8Array(64);
	/** The fields as papaparse gave them, when it read the row (bounds are then not used). */
	private values: string[] | undefined;

	/** Starts a row read from places in `text` (then addField for each field). */
	begin(text: string, start: number): void {
		this.text = text;
		this.start = start;
		this.count = 0;
		this.values = undefined;
	}

	addField(start: number, end: number, escaped: boolean): void {
		const at = this.count++;
		if (at === this.escaped.length) this.grow();
		this.bounds[at * 2] = start;
		this.bounds[at * 2 + 1] = end;
		this.escaped[at] = escaped ? 1 : 0;
	}

	/** A row papaparse read: its fields as strings. */
	setValues(text: string, start: number, values: string[]): void {
		this.text = text;
		this.start = start;
		this.count = values.length;
		this.values = values;
	}

	/** The value of field `at` (decoded from its bytes; '' past the last). */
	field(at: number): string {
		if (this.values) return this.values[at] ?? '';
		if (at >= this.count) return '';
		const value = textOf(this.text.slice(this.bounds[at * 2], this.bounds[at * 2 + 1]));
		return this.escaped[at] ? value.replace(/""/g, '"') : value;
	}

	/** Every field's value, in a new array. */
	get fields(): string[] {
		return Array.from({ length: this.count }, (_, at) => this.field(at));
	}

	/**
	 * Whether field `at` is `text` from startOf(at) to endOf(at) as it is (no doubled quotes, not a
	 * string of papaparse's): its value can be read there without a string being made (as bytes:
	 * where it is ASCII, they are its text).
	 */
	inText(at: number): boolean {
		return this.values === undefined && at < this.count && this.escaped[at] === 0;
	}

	startOf(at: number): number {
		return this.bounds[at * 2];
	}

	endOf(at: number): number {
		return this.bounds[at * 2 + 1];
	}

	private grow(): void {
		const bounds = new Int32Array(this.bounds.length * 2);
		bounds.set(this.bounds);
		this.bounds = bounds;
		const escaped = new Uint8Array(this.escaped.length * 2);
		escaped.set(this.escaped);
		this.escaped = escaped;
	}
}
