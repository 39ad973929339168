/** Each row's checks as a CSV is read: header names, then field counts, unique and first values. */
import type { CsvCheckOptions } from './check-types';
import type { CsvProblems } from './problems';
import type { CsvRow } from './row';
import { UniqueColumn } from './unique-column';

export class RowChecks {
	columns: string[] = [];
	readonly uniques: UniqueColumn[] = [];
	readonly warnings: string[] = [];
	emptyLines = 0;
	dataRows = 0;
	private readonly firstValueSeen = new Set<number>();

	constructor(
		private readonly options: CsvCheckOptions,
		private readonly problems: CsvProblems,
	) {}

	add(row: CsvRow): void {
		if (row.index < 0) this.header(row.fields);
		else this.row(row);
	}

	private header(fields: string[]): void {
		const { options, problems } = this;
		const columns = (this.columns = fields.map((name) => name.trim()));
		const seen = new Map<string, number>();
		columns.forEach((name, at) => {
			const twice = seen.get(name);
			if (!name)
				problems.note({ line: 1, problem: `column ${at + 1} of the header has no name` }, -1);
			else if (twice !== undefined) {
				const problem = `the header names the column "${name}" twice (columns ${twice + 1} and ${at + 1})`;
				problems.note({ line: 1, column: name, problem }, -1);
			} else seen.set(name, at);
		});
		if (options.autoColumns) {
			const email = seen.get('email');
			const mobile = seen.get('mobile');
			const id = seen.get('id');
			if (email !== undefined) this.uniques.push(new UniqueColumn(email, 'email', 'email'));
			if (mobile !== undefined) this.uniques.push(new UniqueColumn(mobile, 'mobile', 'mobile'));
			if (id !== undefined && options.keyColumn !== 'id')
				this.uniques.push(new UniqueColumn(id, 'id', 'plain'));
		}
		const { keyColumn } = options;
		if (!keyColumn) return;
		const at = seen.get(keyColumn);
		if (at !== undefined) this.uniques.push(new UniqueColumn(at, keyColumn, 'plain', true));
		else {
			const problem = `the Key column "${keyColumn}" is not in the header (${columns.join(', ')})`;
			problems.note({ line: 1, column: keyColumn, problem }, -1);
		}
	}

	private row(row: CsvRow): void {
		const { columns, problems } = this;
		const { index, line, count } = row;
		if (count === 1 && columns.length !== 1 && row.field(0) === '') {
			this.emptyLines++;
			return;
		}
		this.dataRows++;
		if (count !== columns.length) {
			const problem = `line ${line} has ${count} field${count === 1 ? '' : 's'}, the header ${columns.length}`;
			problems.note({ line, problem }, index);
			return;
		}
		for (const unique of this.uniques) {
			const problem = unique.check(row);
			if (problem) problems.note({ line, column: unique.name, problem }, index);
		}
		if (this.firstValueSeen.size < columns.length) this.firstValues(row);
	}

	/** Warns of a column whose first value is empty. */
	private firstValues(row: CsvRow): void {
		this.columns.forEach((name, at) => {
			if (this.firstValueSeen.has(at) || !name) return;
			this.firstValueSeen.add(at);
			if (!row.field(at).trim())
				this.warnings.push(
					`The first value of column "${name}" (line ${row.line}) is empty: the platform infers a column's type from its first value.`,
				);
		});
	}
}
