/** Reading a CSV's rows as it streams: its layout, its pieces, and why a reading stops. */
import Papa from 'papaparse';

import type { ByteSource } from '../base/bytes';
import { BOM, byteChunks, PIECE_BYTES } from './bytes';
import { papaRows } from './papa-rows';
import { BytePieces } from './pieces';
import type { ByteText } from './pieces';
import { CsvRow } from './row';
import type { CsvLayout, CsvStop, RowReading } from './row';
import { RowScanner } from './scan';

/** The longest row: past it, a quote never closed would make the rest of the file one row. */
const MAX_ROW_BYTES = 1024 * 1024;

/** A CSV's layout from its first bytes: its first line break, papaparse's delimiter (or `,`). */
export function csvLayout(head: Buffer): CsvLayout {
	const bom = BOM.every((byte, index) => head[index] === byte);
	const text = head.subarray(bom ? 3 : 0).toString('utf8');
	const newline = text.indexOf('\n');
	const lineBreak =
		newline > 0 && text[newline - 1] === '\r'
			? '\r\n'
			: newline === -1 && text.includes('\r')
				? '\r'
				: '\n';
	// The first lines only, cut at a line break: a partial last line would weigh in the guess.
	const sample = text.slice(
		0,
		Math.max(text.lastIndexOf(lineBreak, 16 * 1024), Math.min(text.length, 16 * 1024)),
	);
	const guessed = Papa.parse<string[]>(sample, {
		preview: 20,
		newline: lineBreak,
		skipEmptyLines: true,
		delimitersToGuess: [',', ';', '\t', '|'],
	}).meta.delimiter;
	return { delimiter: guessed || ',', lineBreak, bom };
}

/**
 * Reads a CSV's rows as it streams, each to `onRow` with its line: bytes checked as UTF-8
 * (BytePieces), split in pieces by RowScanner (papaparse for rows it leaves). It yields after each
 * source chunk so a reader can pass on what rows gave; memory stays at a chunk and its last row (a
 * row over MAX_ROW_BYTES stops the reading). Returns the bytes read and any early stop.
 */
export async function* readCsvRows(
	source: Buffer | ByteSource,
	layout: CsvLayout,
	onRow: (row: CsvRow) => void,
): AsyncGenerator<void, { bytes: number; stop?: CsvStop }> {
	const reading: RowReading = {
		layout,
		bytes: new Uint8Array(0),
		row: new CsvRow(),
		index: -1,
		line: 1,
		unusual: false,
		onRow,
	};
	const pieces = new BytePieces();
	const scanner = new RowScanner(reading);
	for await (const chunk of byteChunks(source)) {
		for (let start = 0; start < chunk.length; start += PIECE_BYTES) {
			const piece = pieces.piece(chunk.subarray(start, start + PIECE_BYTES));
			if (!piece) continue;
			if (piece.text === undefined)
				return {
					bytes: pieces.bytes,
					stop: notUtf8(pieces, piece, reading.line, layout.lineBreak),
				};
			reading.bytes = piece.bytes;
			pieces.carry(readPiece(scanner, piece.text, false, reading));
			if (reading.stop) return { bytes: pieces.bytes, stop: reading.stop };
		}
		yield;
	}
	if (pieces.endsInsideACharacter) {
		const line = reading.line + countOf(pieces.carriedText(), layout.lineBreak);
		const problem = notUtf8Problem('it ends inside a character', line);
		return { bytes: pieces.bytes, stop: { problem, line } };
	}
	const piece = pieces.piece()!;
	if (piece.text === undefined)
		return { bytes: pieces.bytes, stop: notUtf8(pieces, piece, reading.line, layout.lineBreak) };
	reading.bytes = piece.bytes;
	readPiece(scanner, piece.text, true, reading);
	yield;
	return { bytes: pieces.bytes, stop: reading.stop };
}

/** Gives a piece's complete rows (all when `last`); returns where they end (the rest carries). */
function readPiece(
	scanner: RowScanner,
	text: ByteText,
	last: boolean,
	reading: RowReading,
): number {
	let end = scanner.scan(text, last);
	if (reading.unusual) end += papaRows(text.slice(end), last, reading);
	if (!reading.stop && text.length - end > MAX_ROW_BYTES) {
		const { line } = reading;
		reading.stop = {
			problem: text.includes('"', end)
				? `a quoted field that starts on line ${line} is never closed (or its row is over 1 MB)`
				: `line ${line} is over 1 MB long`,
			line,
		};
	}
	return end;
}

const notUtf8Problem = (where: string, line: number) =>
	`the file is not UTF-8 text: ${where} on line ${line} (save it as "CSV UTF-8")`;

/** The stop at the first byte of a piece that is not UTF-8, on its line. */
function notUtf8(
	pieces: BytePieces,
	piece: { invalidAt: number; fileOffset: number },
	line: number,
	lineBreak: string,
): CsvStop {
	const before = pieces.carriedText(piece.invalidAt + 1);
	const at = line + countOf(before.slice(0, piece.invalidAt), lineBreak);
	const code = before.charCodeAt(piece.invalidAt);
	const byte = `0x${Number.isNaN(code) ? '??' : code.toString(16).padStart(2, '0')}`;
	const where = `byte ${(piece.fileOffset + 1).toLocaleString('en-US')} (${byte}) is not UTF-8`;
	return { problem: notUtf8Problem(where, at), line: at };
}

function countOf(text: string, part: string): number {
	let count = 0;
	for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
	return count;
}

/** Reads a whole file with readCsvRows. */
export async function eachCsvRow(
	source: Buffer | ByteSource,
	layout: CsvLayout,
	onRow: (row: CsvRow) => void,
): Promise<{ bytes: number; stop?: CsvStop }> {
	const reading = readCsvRows(source, layout, onRow);
	for (;;) {
		const next = await reading.next();
		if (next.done) return next.value;
	}
}
