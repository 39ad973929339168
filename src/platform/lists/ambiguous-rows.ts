/** Bulk-batch errors naming their row by a bare number of unknown base (`{ row: 1 }`). */

/** An error's position read under one numbering: `value` under `key` is `position` (0-based). */
export interface Reading {
	key: string;
	value: number;
	/** The number of the batch's first row under this reading: 0, 1, or 2 (a CSV header line). */
	offset: number;
	position: number;
}

/** The row an error is about, or, when only its base is unknown, the rows it may be about. */
export interface ErrorMatch {
	row?: number;
	readings?: Reading[];
}

/** An error matched to no row, with the rows it may be about. */
export interface AmbiguousError {
	message: string;
	readings: Reading[];
}

const BASES = ['counted from 0', 'counted from 1', 'counted from 1 after a header line'];

/**
 * The fewest rows not failed already that the ambiguous errors must be about (each is about a row
 * not stored): numbers under one key share a base, so per key the fewest distinct rows any open
 * base gives; over keys, the most. Errors under several keys are left out: it stays the lower
 * bound rowOutcomes' proof needs.
 */
export function fewestFailing(
	errors: AmbiguousError[],
	failed: (position: number) => boolean,
): number {
	const byKey = new Map<string, Map<number, Set<number>>>();
	for (const { readings } of errors) {
		const key = readings[0].key;
		if (readings.some((reading) => reading.key !== key)) continue;
		const byOffset = byKey.get(key) ?? new Map<number, Set<number>>();
		byKey.set(key, byOffset);
		for (const { offset, position } of readings) {
			const rows = byOffset.get(offset) ?? new Set<number>();
			byOffset.set(offset, rows);
			if (!failed(position)) rows.add(position);
		}
	}
	let fewest = 0;
	for (const byOffset of byKey.values())
		fewest = Math.max(fewest, Math.min(...[...byOffset.values()].map((rows) => rows.size)));
	return fewest;
}

/** The rows not failed that some ambiguous error may be about → those errors. */
export function candidateRows(
	errors: AmbiguousError[],
	failed: (position: number) => boolean,
): Map<number, AmbiguousError[]> {
	const candidates = new Map<number, AmbiguousError[]>();
	for (const error of errors) {
		for (const { position } of error.readings) {
			if (failed(position)) continue;
			const found = candidates.get(position) ?? [];
			// An error's readings come together: one naming this row again is its last one.
			if (found[found.length - 1] !== error) found.push(error);
			candidates.set(position, found);
		}
	}
	return candidates;
}

/** The warning of a row an ambiguous error may be about: its readings, rows named by nameRow. */
export function ambiguityWarning(
	position: number,
	errors: AmbiguousError[],
	nameRow: (position: number) => string,
): string {
	const named = (reading: Reading) =>
		`${nameRow(reading.position)}${reading.position === position ? ' (this one)' : ''} ${
			BASES[reading.offset]
		}`;
	const clauses = errors.map(({ message, readings }) => {
		const keys = [...new Set(readings.map((reading) => `${reading.key} ${reading.value}`))];
		const said = keys.map((key) => {
			const read = readings.filter((reading) => `${reading.key} ${reading.value}` === key);
			return `${key}, which is ${read.map(named).join(' or ')}`;
		});
		return `its error "${message}" names ${said.join(', and ')}`;
	});
	return `The platform does not say where it counts rows from: ${clauses.join('; ')}. Its counts prove that the rows no error names were stored, not which of these were: check this subscriber in the list.`;
}
