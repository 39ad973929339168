import type { CsvCheck, CsvCheckOptions, CsvProblem } from './check-types';
import { confirmedRepeats, readTwice, RepeatCandidates } from './confirm';
import type { CsvSource } from './confirm';
import { csvLayout, eachCsvRow } from './rows';
import { UniqueValues } from './repeats';
import { rewrittenRow } from './rewrite';
import { RowSizes } from './row-sizes';
import { comparedValue, emailKey, mobileKey } from './value-keys';
import type { ValueProblem } from './value-keys';

const MAX_PROBLEMS = 20;

/**
 * Checks every row of a CSV file in one streamed read, before it is uploaded: UTF-8 text (with or
 * without BOM), quotes, the same number of fields on every row, the automatic unique columns'
 * values (`email`, `mobile` well-formed; `id`, `email`, `mobile` not repeated within the file),
 * the Key column, and each column's first value (the platform infers a column's type from it).
 * Repeats are found by hash, then confirmed by comparing the values of those rows only, read again
 * (confirmedRepeats): from the bytes kept of a stream up to 16 MB, else by opening `source` again.
 * Returns the report and the indexes of the bad rows (Leave Out the Bad Rows skips them). A file
 * whose reading cannot go on (not UTF-8, a quote never closed) ends with that problem.
 */
export async function checkCsv(
	source: CsvSource,
	head: Buffer,
	options: CsvCheckOptions,
): Promise<CsvCheck> {
	const layout = csvLayout(head);
	const maxProblems = options.maxProblems ?? MAX_PROBLEMS;
	let problems: CsvProblem[] = [];
	const badRows = new Set<number>();
	const warnings: string[] = [];
	let problemCount = 0;
	let headerProblems = 0;
	const note = (problem: CsvProblem, rowIndex: number) => {
		problemCount++;
		// Repeats are found after the reading: the earliest problems are kept, sorted now and then.
		problems.push(problem);
		if (problems.length >= maxProblems * 4) problems = earliest(problems, maxProblems);
		if (rowIndex >= 0) badRows.add(rowIndex);
		else headerProblems++;
	};
	const convert = options.convert === true && layout.delimiter !== ',';
	// Each row's size in the rewritten file, when one may be sent (leaving out rows, converting): its
	// size with and without the bad rows.
	const sizes = options.rowSizes || convert ? new RowSizes() : undefined;
	let stopped = false;
	let columns: string[] = [];
	let emptyLines = 0;
	let dataRows = 0;
	const checks: Array<{
		at: number;
		name: string;
		key?: (value: string) => string | ValueProblem;
		seen: UniqueValues;
		candidates?: RepeatCandidates;
		required?: boolean;
	}> = [];
	const firstValueSeen = new Set<number>();
	const readHeader = (fields: string[]) => {
		columns = fields.map((name) => name.trim());
		const seen = new Map<string, number>();
		columns.forEach((name, at) => {
			if (!name) note({ line: 1, problem: `column ${at + 1} of the header has no name` }, -1);
			else if (seen.has(name))
				note(
					{
						line: 1,
						column: name,
						problem: `the header names the column "${name}" twice (columns ${seen.get(name)! + 1} and ${at + 1})`,
					},
					-1,
				);
			else seen.set(name, at);
		});
		if (options.autoColumns) {
			if (seen.has('email'))
				checks.push({
					at: seen.get('email')!,
					name: 'email',
					key: emailKey,
					seen: new UniqueValues(),
				});
			if (seen.has('mobile'))
				checks.push({
					at: seen.get('mobile')!,
					name: 'mobile',
					key: mobileKey,
					seen: new UniqueValues(),
				});
			if (seen.has('id') && options.keyColumn !== 'id')
				checks.push({ at: seen.get('id')!, name: 'id', seen: new UniqueValues() });
		}
		if (options.keyColumn) {
			if (!seen.has(options.keyColumn))
				note(
					{
						line: 1,
						column: options.keyColumn,
						problem: `the Key column "${options.keyColumn}" is not in the header (${columns.join(', ')})`,
					},
					-1,
				);
			else
				checks.push({
					at: seen.get(options.keyColumn)!,
					name: options.keyColumn,
					seen: new UniqueValues(),
					required: true,
				});
		}
	};
	const checkRow = (fields: string[], index: number, line: number): void => {
		if (fields.length === 1 && fields[0] === '' && columns.length !== 1) {
			emptyLines++;
			return;
		}
		dataRows++;
		if (fields.length !== columns.length) {
			note(
				{
					line,
					problem: `line ${line} has ${fields.length} field${fields.length === 1 ? '' : 's'}, the header ${columns.length}`,
				},
				index,
			);
			return;
		}
		for (let c = 0; c < checks.length; c++) {
			const check = checks[c];
			const key = comparedValue(fields[check.at], check.key);
			if (key === '') {
				if (check.required)
					note({ line, column: check.name, problem: 'the Key column is empty' }, index);
				continue;
			}
			if (typeof key === 'string') check.seen.add(key, index);
			else note({ line, column: check.name, problem: key.problem }, index);
		}
		if (firstValueSeen.size < columns.length) {
			columns.forEach((name, at) => {
				if (firstValueSeen.has(at) || !name) return;
				firstValueSeen.add(at);
				if (!fields[at].trim())
					warnings.push(
						`The first value of column "${name}" (line ${line}) is empty: the platform infers a column's type from its first value.`,
					);
			});
		}
	};
	// Where a row's line stops being its index + 2 (after a quoted line break): the lines of repeats,
	// found by index, come from these.
	const shiftIndexes: number[] = [-1];
	const shifts: number[] = [2];
	const lineOf = (index: number): number => {
		let low = 0;
		let high = shiftIndexes.length - 1;
		while (low < high) {
			const middle = (low + high + 1) >> 1;
			if (shiftIndexes[middle] <= index) low = middle;
			else high = middle - 1;
		}
		return index + shifts[low];
	};
	const { first, again } = await readTwice(source);
	const read = await eachCsvRow(first, layout, (row) => {
		if (row.line - row.index !== shifts[shifts.length - 1]) {
			shiftIndexes.push(row.index);
			shifts.push(row.line - row.index);
		}
		if (row.index < 0) readHeader(row.fields);
		else checkRow(row.fields, row.index, row.line);
		sizes?.add(Buffer.byteLength(rewrittenRow(row, layout, convert)));
	});
	// The rows whose value's hash an earlier row held, then those whose value it held.
	for (const check of checks) {
		check.seen.repeats((index, firstIndex) =>
			(check.candidates ??= new RepeatCandidates()).add(index, firstIndex),
		);
	}
	const compared = checks.filter((check) => check.candidates);
	await confirmedRepeats(
		again,
		layout,
		compared.map(({ at, key, candidates }) => ({
			at,
			value: (field) => {
				const value = comparedValue(field, key);
				return typeof value === 'string' && value ? value : undefined;
			},
			rows: candidates!.sorted(),
		})),
		(column, index, firstIndex) => {
			const { name } = compared[column];
			note(
				{
					line: lineOf(index),
					column: name,
					problem: `the same ${name} as line ${lineOf(firstIndex)}: values of ${name} must not repeat in the file`,
				},
				index,
			);
		},
	);
	const { bytes } = read;
	if (read.stop) {
		stopped = true;
		note({ line: read.stop.line, problem: read.stop.problem }, -1);
		warnings.push('The check stopped there: the rows after it were not checked.');
	}
	if (!columns.length && !stopped)
		note({ line: 1, problem: 'the file has no header line with column names' }, -1);
	if (emptyLines)
		warnings.push(
			`${emptyLines} empty line${emptyLines === 1 ? ' was' : 's were'} left out of the check.`,
		);
	const rowsCanBeLeftOut = !stopped && headerProblems === 0 && columns.length > 0;
	const withBadRows = sizes ? (layout.bom ? 3 : 0) + sizes.total() : bytes;
	return {
		report: {
			bytes,
			rows: dataRows,
			columns,
			delimiter: layout.delimiter,
			bom: layout.bom,
			problems: earliest(problems, maxProblems),
			problemCount,
			badRows: badRows.size,
			rowsCanBeLeftOut,
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

/** The first `count` problems in file order (the header's first, then by line). */
function earliest(problems: CsvProblem[], count: number): CsvProblem[] {
	return problems.sort((a, b) => a.line - b.line).slice(0, count);
}
