/** Confirming repeats found by hash: the candidate rows' values read again and compared. */
import type { ByteSource } from '../base/bytes';
import { readCsvRows } from './rows';
import { grown } from './row';
import type { CsvLayout } from './row';

/** A CSV that can be read again: the file, or what opens it (a binary-store stream) per read. */
export type CsvSource = Buffer | (() => Promise<Buffer | ByteSource>);

/** Bytes of a stream the check's read keeps, to compare values from memory, not in a third read. */
const KEEP_BYTES = 16 * 1024 * 1024;

/** A source opened for the check, and how to read it again: itself, its kept bytes, or reopened. */
export async function readTwice(
	source: CsvSource,
	keepBytes = KEEP_BYTES,
): Promise<{ first: Buffer | ByteSource; again: CsvSource }> {
	if (Buffer.isBuffer(source)) return { first: source, again: source };
	const opened = await source();
	if (Buffer.isBuffer(opened)) return { first: opened, again: opened };
	const stream: ByteSource = opened;
	let kept: Buffer[] | undefined = [];
	let size = 0;
	async function* first(): AsyncGenerator<Uint8Array | string> {
		for await (const chunk of stream) {
			if (kept) {
				const bytes = Buffer.from(chunk);
				size += bytes.length;
				if (size > keepBytes) kept = undefined;
				else kept.push(bytes);
			}
			yield chunk;
		}
	}
	async function* keptBytes(parts: Buffer[]): AsyncGenerator<Buffer> {
		yield* parts;
	}
	// The bytes the first read took, up to where it stopped: the rows compared are all before that.
	const again = async () => (kept ? keptBytes(kept) : await source());
	return { first: first(), again };
}

/** One column's rows that may repeat an earlier one (by hash), with that row: 8 bytes a pair. */
export class RepeatCandidates {
	private rows = new Uint32Array(64);
	private count = 0;

	/** A row whose value's hash `firstIndex` held first (each row once). */
	add(index: number, firstIndex: number): void {
		if (this.count + 2 > this.rows.length) this.rows = grown(this.rows);
		this.rows[this.count++] = index;
		this.rows[this.count++] = firstIndex;
	}

	/** The rows whose values are compared, in file order, each once. */
	sorted(): Uint32Array {
		const rows = this.rows.subarray(0, this.count).sort();
		let unique = 0;
		for (let i = 0; i < rows.length; i++)
			if (unique === 0 || rows[i] !== rows[unique - 1]) rows[unique++] = rows[i];
		return rows.subarray(0, unique);
	}
}

/** A column whose candidates are compared: where it is among the fields, its value as compared. */
export interface ComparedColumn {
	at: number;
	value: (field: string) => string | undefined;
	/** The rows to compare (RepeatCandidates.sorted). */
	rows: Uint32Array;
}

/** Most values (and characters) one read keeps; values first met past it wait for a later read. */
const COMPARE_BUDGET = { values: 1 << 18, chars: 1 << 23 };

/**
 * Reads the file again, calling `repeat` for each candidate whose value an earlier row of its
 * column held, with that row. Values are kept within `budget` (the rest wait); returns the reads.
 */
export async function confirmedRepeats(
	source: CsvSource,
	layout: CsvLayout,
	columns: ComparedColumn[],
	repeat: (column: number, index: number, firstIndex: number) => void,
	budget = COMPARE_BUDGET,
): Promise<number> {
	let pending = columns.map((column) => column.rows);
	let reads = 0;
	while (pending.some((rows) => rows.length)) {
		reads++;
		const rows = pending;
		const firstRows = rows.map(() => new Map<string, number>());
		const later = rows.map(() => [] as number[]);
		const next = rows.map(() => 0);
		let kept = 0;
		let chars = 0;
		let full = false;
		const compare = (c: number, field: string, index: number) => {
			const value = columns[c].value(field);
			if (value === undefined) return;
			const first = firstRows[c].get(value);
			if (first !== undefined) return repeat(c, index, first);
			// Once full, no value is kept until the next read: all rows of a value are read in one.
			full ||= kept > 0 && (kept >= budget.values || chars + value.length > budget.chars);
			if (full) {
				later[c].push(index);
				return;
			}
			// A copy: the field may be a slice of the whole piece of text it was read from.
			firstRows[c].set(Buffer.from(value).toString(), index);
			kept++;
			chars += value.length;
		};
		const reading = readCsvRows(
			typeof source === 'function' ? await source() : source,
			layout,
			(row) => {
				for (let c = 0; c < rows.length; c++) {
					if (rows[c][next[c]] !== row.index) continue;
					next[c]++;
					compare(c, row.field(columns[c].at), row.index);
				}
			},
		);
		const done = () => rows.every((column, c) => next[c] >= column.length);
		for (;;) {
			const step = await reading.next();
			if (step.done) break;
			if (done()) {
				await reading.return({ bytes: 0 });
				break;
			}
		}
		pending = later.map((indexes) => Uint32Array.from(indexes));
	}
	return reads;
}
