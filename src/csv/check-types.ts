import type { CsvLayout } from './rows';

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

/**
 * The check's result: its report, the bad rows' indexes, the file's layout, and the size of the
 * file as rewritten (rewrittenCsv: converted to commas when asked), with and without its bad rows.
 */
export interface CsvCheck {
	report: CsvReport;
	badRows: Set<number>;
	layout: CsvLayout;
	/**
	 * Without its bad rows only when the check kept each row's size (CsvCheckOptions.rowSizes, or
	 * converting).
	 */
	rewrittenBytes: { withBadRows: number; withoutBadRows?: number };
}

export interface CsvCheckOptions {
	/**
	 * Whether the list has the automatic unique columns `id`, `email` and `mobile` (checked when the
	 * file has them).
	 */
	autoColumns: boolean;
	/**
	 * The column named by List › Create From CSV's Key: present, and a value on every row, never
	 * twice.
	 */
	keyColumn?: string;
	maxProblems?: number;
	/**
	 * Whether the file will be converted to commas when its delimiter is another (its rewritten size
	 * is counted).
	 */
	convert?: boolean;
	/**
	 * Whether each row's size is kept, so that the file's size without its bad rows is known (Leave
	 * Out the Bad Rows).
	 */
	rowSizes?: boolean;
}
