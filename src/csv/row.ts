/** A CSV row as the reading gives it, the reading's state, and the file's layout. */
import { textOf } from './pieces';
import type { ByteText } from './pieces';

/** How a file's rows are split: delimiter, line break, and whether it starts with a BOM. */
export interface CsvLayout {
	delimiter: string;
	lineBreak: '\n' | '\r\n' | '\r';
	bom: boolean;
}

/** Why the reading stopped before the end (not UTF-8, a row that never ends), and on which line. */
export interface CsvStop {
	problem: string;
	line: number;
}

/** A reading in progress: the row object it fills, the next row's index and line, its stop. */
export interface RowReading {
	layout: CsvLayout;
	/** The bytes of the piece being read. */
	bytes: Uint8Array;
	row: CsvRow;
	index: number;
	line: number;
	/** Whether RowScanner left a row it does not read as papaparse does (papaparse reads on). */
	unusual: boolean;
	stop?: CsvStop;
	onRow: (row: CsvRow) => void;
}

/** Gives `reading.row`, ending at `end`, to onRow; `lines`: the row's line breaks (its own too). */
export function giveRow(reading: RowReading, end: number, lines: number): void {
	const { row } = reading;
	row.index = reading.index++;
	row.line = reading.line;
	row.end = end;
	reading.onRow(row);
	reading.line += lines;
}

/**
 * A row as read (index −1: the header): its bytes and fields as places in `text` (a ByteText piece)
 * or papaparse's strings. One object serves every row: keep what you need of it, not the object.
 */
export class CsvRow {
	index = -1;
	line = 1;
	text: ByteText = '';
	/** The piece's bytes (the same places as in `text`), for fields read in place. */
	bytes: Uint8Array = new Uint8Array(0);
	start = 0;
	end = 0;
	count = 0;
	/** A row without quotes (most rows): where each field but the last ends, set by RowScanner. */
	ends: Int32Array = new Int32Array(64);
	private plain = false;
	private lastEnd = 0;
	/** A row with quotes: per field, where its value starts and ends in `text` (without quotes). */
	private bounds = new Int32Array(128);
	/** Per field of a row with quotes, whether its value holds doubled quotes (""), made one. */
	private escaped = new Uint8Array(64);
	/** The fields as papaparse gave them, when it read the row (places are then not used). */
	private values: string[] | undefined;

	/** Starts a row with quotes, read from places in `text` (then addField for each field). */
	begin(text: string, start: number): void {
		this.text = text;
		this.start = start;
		this.count = 0;
		this.plain = false;
		this.values = undefined;
	}

	addField(start: number, end: number, escaped: boolean): void {
		const at = this.count++;
		if (at === this.escaped.length) {
			this.bounds = grown(this.bounds);
			this.escaped = grown(this.escaped);
		}
		this.bounds[at * 2] = start;
		this.bounds[at * 2 + 1] = end;
		this.escaped[at] = escaped ? 1 : 0;
	}

	moreEnds(): Int32Array {
		return (this.ends = grown(this.ends));
	}

	/** A row without quotes from `start` to `end` (line break left out); fields end per `ends`. */
	setPlain(text: string, start: number, count: number, end: number): void {
		this.text = text;
		this.start = start;
		this.count = count;
		this.lastEnd = end;
		this.plain = true;
		this.values = undefined;
	}

	/** A row papaparse read: its fields as strings. */
	setValues(text: string, start: number, values: string[]): void {
		this.text = text;
		this.start = start;
		this.count = values.length;
		this.plain = false;
		this.values = values;
	}

	/** The value of field `at` (decoded from its bytes; '' past the last). */
	field(at: number): string {
		if (this.values) return this.values[at] ?? '';
		if (at >= this.count) return '';
		const value = textOf(this.text.slice(this.startOf(at), this.endOf(at)));
		return !this.plain && this.escaped[at] ? value.replace(/""/g, '"') : value;
	}

	get fields(): string[] {
		return Array.from({ length: this.count }, (_, at) => this.field(at));
	}

	/** Whether field `at` is in `text` as is (no "" inside, not papaparse's): read in place. */
	inText(at: number): boolean {
		if (at >= this.count) return false;
		return this.plain || (this.values === undefined && this.escaped[at] === 0);
	}

	startOf(at: number): number {
		if (!this.plain) return this.bounds[at * 2];
		return at === 0 ? this.start : this.ends[at - 1] + 1;
	}

	endOf(at: number): number {
		if (!this.plain) return this.bounds[at * 2 + 1];
		return at === this.count - 1 ? this.lastEnd : this.ends[at];
	}
}

/** A typed array of twice the length, with the same values first. */
export function grown<T extends Int32Array | Uint32Array | Uint8Array>(array: T): T {
	const larger = new (array.constructor as new (length: number) => T)(array.length * 2);
	larger.set(array);
	return larger;
}
