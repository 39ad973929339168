/** The types of a CSV file's check: its options, its problems and its result. */
import type { CsvLayout } from './row';

/** One problem of a CSV file, by line (1 is the header) and column. */
export interface CsvProblem {
	line: number;
	column?: string;
	problem: string;
}

/** What the check of a CSV file found: what a preview shows and an error lists. */
interface CsvReport {
	bytes: number;
	/** Rows after the header, empty lines left out. */
	rows: number;
	columns: string[];
	delimiter: string;
	bom: boolean;
	/** The first MAX_PROBLEMS problems, in file order. */
	problems: CsvProblem[];
	problemCount: number;
	/** Rows with at least one problem (those Leave Out the Bad Rows leaves out). */
	badRows: number;
	/** Whether the bad rows can be left out: the header is sound and every row could be read. */
	rowsCanBeLeftOut: boolean;
	warnings: string[];
}

/** The check's result, and the file's size as rewrittenCsv sends it (with or without bad rows). */
export interface CsvCheck {
	report: CsvReport;
	badRows: Set<number>;
	layout: CsvLayout;
	/** withoutBadRows only when the check kept each row's size (rowSizes, or converting). */
	rewrittenBytes: { withBadRows: number; withoutBadRows?: number };
}

export interface CsvCheckOptions {
	/** Whether the list has the automatic unique columns id, email, mobile (checked if present). */
	autoColumns: boolean;
	/** List › Create From CSV's Key column: present, with a value on every row, never twice. */
	keyColumn?: string;
	maxProblems?: number;
	/** Whether a file of another delimiter is converted to commas (its new size is counted). */
	convert?: boolean;
	/** Whether each row's size is kept, so the file's size without its bad rows is known. */
	rowSizes?: boolean;
}
