/** The check of a CSV file before upload: every row in one streamed read, then its repeats. */
import type { CsvCheck, CsvCheckOptions } from './check-types';
import { confirmedRepeats, readTwice } from './confirm';
import type { CsvSource } from './confirm';
import { CsvProblems } from './problems';
import { rewrittenRow } from './rewrite';
import { RowChecks } from './row-checks';
import { RowSizes } from './row-sizes';
import type { CsvLayout, CsvRow } from './row';
import { csvLayout, eachCsvRow } from './rows';
import type { UniqueColumn } from './unique-column';

const MAX_PROBLEMS = 20;

/**
 * Checks each row (RowChecks) in one streamed read; repeats found by hash are confirmed by reading
 * those rows' values again. A reading that cannot go on (not UTF-8, an unclosed quote) ends there.
 */
export async function checkCsv(
	source: CsvSource,
	head: Buffer,
	options: CsvCheckOptions,
): Promise<CsvCheck> {
	const layout = csvLayout(head);
	const problems = new CsvProblems(options.maxProblems ?? MAX_PROBLEMS);
	const checks = new RowChecks(options, problems);
	const lines = new RowLines();
	const convert = options.convert === true && layout.delimiter !== ',';
	// Each row's size in the rewritten file, when one may be sent (leaving out rows, converting).
	const sizes = options.rowSizes || convert ? new RowSizes() : undefined;
	const { first, again } = await readTwice(source);
	const read = await eachCsvRow(first, layout, (row) => {
		lines.add(row);
		checks.add(row);
		sizes?.add(rewrittenRow(row, layout, convert).length);
	});
	await noteRepeats(again, layout, checks.uniques, lines, problems);
	const { warnings, columns } = checks;
	const stopped = read.stop !== undefined;
	if (read.stop) {
		problems.note({ line: read.stop.line, problem: read.stop.problem }, -1);
		warnings.push('The check stopped there: the rows after it were not checked.');
	}
	if (!columns.length && !stopped)
		problems.note({ line: 1, problem: 'the file has no header line with column names' }, -1);
	if (checks.emptyLines)
		warnings.push(
			`${checks.emptyLines} empty line${checks.emptyLines === 1 ? ' was' : 's were'} left out of the check.`,
		);
	const withBadRows = sizes ? (layout.bom ? 3 : 0) + sizes.total() : read.bytes;
	const { badRows } = problems;
	return {
		report: {
			bytes: read.bytes,
			rows: checks.dataRows,
			columns,
			delimiter: layout.delimiter,
			bom: layout.bom,
			problems: problems.earliest(),
			problemCount: problems.count,
			badRows: badRows.size,
			rowsCanBeLeftOut: !stopped && problems.headerProblems === 0 && columns.length > 0,
			warnings,
		},
		badRows,
		layout,
		rewrittenBytes: {
			withBadRows,
			...(sizes ? { withoutBadRows: withBadRows - sizes.totalOf(badRows) } : {}),
		},
	};
}

/** Compares the candidates' values (read again) and notes each true repeat as its row's problem. */
async function noteRepeats(
	source: CsvSource,
	layout: CsvLayout,
	uniques: UniqueColumn[],
	lines: RowLines,
	problems: CsvProblems,
): Promise<void> {
	const compared = uniques.flatMap((unique) => {
		const column = unique.compared();
		return column ? [{ name: unique.name, column }] : [];
	});
	await confirmedRepeats(
		source,
		layout,
		compared.map(({ column }) => column),
		(column, index, firstIndex) => {
			const { name } = compared[column];
			const problem = `the same ${name} as line ${lines.of(firstIndex)}: values of ${name} must not repeat in the file`;
			problems.note({ line: lines.of(index), column: name, problem }, index);
		},
	);
}

/** The line each row starts on, by index: kept only where line − index changes (quoted breaks). */
class RowLines {
	private readonly shiftIndexes: number[] = [-1];
	private readonly shifts: number[] = [2];

	add(row: CsvRow): void {
		if (row.line - row.index !== this.shifts[this.shifts.length - 1]) {
			this.shiftIndexes.push(row.index);
			this.shifts.push(row.line - row.index);
		}
	}

	of(index: number): number {
		const { shiftIndexes } = this;
		let low = 0;
		let high = shiftIndexes.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if (shiftIndexes[middle] <= index) low = middle;
			else high = middle - 1;
		}
		return index + this.shifts[low];
	}
}
