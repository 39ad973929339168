/** Which row of a bulk batch each of the platform's row errors is about (errorRows). */
import type { ErrorMatch, Reading } from './ambiguous-rows';
import type { BatchRows } from './batch-rows';
import { cluesOf } from './row-clues';
import type { Clues } from './row-clues';

/** Position = number - offset: 0-based, 1-based, 1-based counting a CSV header line. */
const OFFSETS = [0, 1, 2];

/** The base a key's name implies on a tie: index, idx, position from 0; number, line, no from 1. */
function conventionalOffset(key: string): number | undefined {
	const last = key.split('.').pop() ?? key;
	if (/(index|idx|position)$/.test(last)) return 0;
	if (/(number|num|no|line)$/.test(last)) return 1;
	return undefined;
}
/** A value shared by more rows than this does not narrow down which row an error is about. */
const FEW_ROWS = 16;

interface Numbering {
	/** Position key → the offset its numbers are read with. */
	offsets: Map<string, number>;
	/** Position key left ambiguous → the offsets its numbers all fit. */
	open: Map<string, number[]>;
}

/** +1 when the error's values or content agree with the row, -1 when none do, 0 if it has none. */
function agreement(clues: Clues, position: number, rows: BatchRows): number {
	if (!clues.values.length && !clues.contents.length) return 0;
	if (clues.contents.some((content) => content === rows.content(position))) return 1;
	if (clues.values.some(([column, value]) => rows.value(position, column) === value)) return 1;
	return -1;
}

/**
 * Each position key's offset where the errors make it unambiguous: its numbers fit the rows under
 * one offset only (a 0 is 0-based, the row count 1-based, one more counts a header line), or the
 * errors' values agree best under one. `open`: an ambiguous key's offsets its numbers all fit.
 */
function numbering(clues: Clues[], rowCount: number, rows: BatchRows): Numbering {
	const reported = new Map<string, Array<[Clues, number]>>();
	for (const clue of clues) {
		for (const [key, value] of clue.positions) {
			if (value > rowCount + 1) continue; // out of range whatever the numbering
			const entries = reported.get(key);
			if (entries) entries.push([clue, value]);
			else reported.set(key, [[clue, value]]);
		}
	}
	const offsets = new Map<string, number>();
	const open = new Map<string, number[]>();
	for (const [key, entries] of reported) {
		let low = Infinity;
		let high = -Infinity;
		for (const [, value] of entries) {
			low = Math.min(low, value);
			high = Math.max(high, value);
		}
		const fitting = OFFSETS.filter((offset) => low >= offset && high < rowCount + offset);
		if (fitting.length === 1) {
			offsets.set(key, fitting[0]);
			continue;
		}
		const conventional = conventionalOffset(key);
		const fallback =
			conventional !== undefined && fitting.includes(conventional) ? conventional : undefined;
		let best: number | undefined;
		let bestScore = -Infinity;
		let tie = false;
		let tied: number[] = [];
		for (const offset of fitting.length ? fitting : OFFSETS) {
			let score = 0;
			let agreeing = 0;
			for (const [clue, value] of entries) {
				const position = value - offset;
				if (position < 0 || position >= rowCount) continue;
				const says = agreement(clue, position, rows);
				score += says;
				if (says > 0) agreeing++;
			}
			if (agreeing === 0) continue;
			if (score > bestScore) [best, bestScore, tie, tied] = [offset, score, false, [offset]];
			else if (score === bestScore) {
				tie = true;
				tied.push(offset);
			}
		}
		if (best !== undefined && !tie) offsets.set(key, best);
		// On a tie of evidence (a repeated row: one e-mail at 0 and 2), the key's name decides.
		else if (tie && fallback !== undefined && tied.includes(fallback)) offsets.set(key, fallback);
		else if (fitting.length) open.set(key, fitting);
	}
	return { offsets, open };
}

/** The one row the error's content or values point to; undefined if none does or they disagree. */
function identifiedRow(clues: Clues, rows: BatchRows): number | undefined {
	let byContent: number | undefined;
	for (const content of clues.contents) {
		const position = rows.rowWithContent(content);
		if (position === undefined) continue;
		if (byContent !== undefined && byContent !== position) return undefined;
		byContent = position;
	}
	if (byContent !== undefined) return byContent;
	let candidates: number[] | undefined;
	let unique: number | undefined;
	let uniqueAgree = true;
	for (const [column, value] of clues.values) {
		const found = rows.rowsWith(column, value);
		// Names no row of the batch, or too many to tell.
		if (found.length === 0 || found.length > FEW_ROWS) continue;
		if (found.length === 1) {
			if (unique !== undefined && unique !== found[0]) uniqueAgree = false;
			unique = found[0];
		}
		candidates = candidates ? candidates.filter((position) => found.includes(position)) : found;
	}
	if (candidates?.length === 1) return candidates[0];
	return uniqueAgree ? unique : undefined;
}

/**
 * The readings of an unmatched error whose positions are all under keys of open base: one per
 * open offset, within the batch. Undefined when a key is not open, or its values fit none.
 */
function readingsOf(clue: Clues, open: Map<string, number[]>, rows: BatchRows) {
	const readings: Reading[] = [];
	for (const [key, value] of clue.positions) {
		const offsets = open.get(key);
		if (!offsets) return undefined;
		for (const offset of offsets)
			if (value - offset >= 0 && value - offset < rows.rows.length)
				readings.push({ key, value, offset, position: value - offset });
	}
	const agrees = readings.some(({ position }) => agreement(clue, position, rows) >= 0);
	return agrees ? readings : undefined;
}

/**
 * The row each subscribersError element is about (the spec shows no shape): by a position under
 * any usual key (`rowNumber`, `line`, `{ row: { index } }`…) in the numbering the batch makes
 * unambiguous, or by the error's content or values. A position and values naming different rows
 * match neither; an unmatched error of open base gets its readings (readingsOf).
 */
export function errorRows(errors: unknown[], rows: BatchRows): ErrorMatch[] {
	const rowCount = rows.rows.length;
	const clues = errors.map((error) => cluesOf(error, rows));
	const { offsets, open } = clues.some((clue) => clue.positions.length)
		? numbering(clues, rowCount, rows)
		: { offsets: new Map<string, number>(), open: new Map<string, number[]>() };
	return clues.map((clue) => {
		let byNumber: number | undefined;
		let conflict = false;
		for (const [key, value] of clue.positions) {
			const offset = offsets.get(key);
			if (offset === undefined || value - offset < 0 || value - offset >= rowCount) continue;
			if (byNumber !== undefined && byNumber !== value - offset) conflict = true;
			byNumber = value - offset;
		}
		const byValues = identifiedRow(clue, rows);
		const row =
			byNumber === undefined || conflict
				? byValues
				: byValues === undefined || byValues === byNumber
					? byNumber
					: undefined;
		if (row !== undefined) return { row };
		const readings = clue.positions.length ? readingsOf(clue, open, rows) : undefined;
		return readings?.length ? { readings } : {};
	});
}
