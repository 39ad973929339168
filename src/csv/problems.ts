/**
 * The problems a check of a CSV file finds: the earliest `max`, how many, and their rows.
 *
 * Repeats are found after the reading, so the list is sorted now and then. The header's problems
 * are counted apart: a file with one cannot lose its bad rows.
 */
import type { CsvProblem } from './check-types';

export class CsvProblems {
	private list: CsvProblem[] = [];
	count = 0;
	headerProblems = 0;
	readonly badRows = new Set<number>();

	constructor(private readonly max: number) {}

	/** A problem of the row of index `rowIndex` (−1: the header, or the file). */
	note(problem: CsvProblem, rowIndex: number): void {
		this.count++;
		this.list.push(problem);
		if (this.list.length >= this.max * 4) this.list = this.earliest();
		if (rowIndex >= 0) this.badRows.add(rowIndex);
		else this.headerProblems++;
	}

	/** The first `max` problems in file order (the header's first, then by line). */
	earliest(): CsvProblem[] {
		return this.list.sort((a, b) => a.line - b.line).slice(0, this.max);
	}
}
