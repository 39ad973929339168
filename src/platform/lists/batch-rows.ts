/** A bulk batch's rows, lookups by value, and the keys an error gives a row's position under. */
import { canonicalJson } from '../../base';
import type { SubscriberRow } from './schema';

/** Names an error may give a row's e-mail, phone or key under, whatever the rows call it. */
const ALIASES = [
	['email', 'emailaddress', 'mail'],
	[
		'mobile',
		'mobilenumber',
		'mobilephone',
		'phone',
		'phonenumber',
		'cellphone',
		'msisdn',
		'tel',
		'telephone',
	],
];
const ID_NAMES = new Set(['id', 'subscriberid', 'subscriberkey', 'key', 'keyvalue']);
export const nameKey = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');

/** Values as platforms tend to echo them: trimmed, any case, phones without separators, 3 = "3". */
export function valueKey(value: unknown): string | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean') return String(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim().toLowerCase();
	if (!text) return undefined;
	return /^\+?[\d\s().\-/]{6,}$/.test(text) ? text.replace(/[\s().\-/]/g, '') : text;
}

/** Lookups built once per batch, only when an error needs them: matching stays linear. */
export class BatchRows {
	private columnNames?: Map<string, string[]>;
	private readonly byValue = new Map<string, Map<string, number[]>>();
	private byContent?: Map<string, number>;
	private readonly contents: Array<string | undefined> = [];
	private readonly keyColumn: string;

	constructor(
		readonly rows: SubscriberRow[],
		keyColumn: string,
	) {
		this.keyColumn = nameKey(keyColumn);
	}

	/** The rows' column names by nameKey (rows may spell a column differently). */
	private columns(): Map<string, string[]> {
		if (!this.columnNames) {
			const columns = new Map<string, string[]>();
			for (const row of this.rows) {
				for (const name of Object.keys(row)) {
					const names = columns.get(nameKey(name));
					if (!names) columns.set(nameKey(name), [name]);
					else if (!names.includes(name)) names.push(name);
				}
			}
			this.columnNames = columns;
		}
		return this.columnNames;
	}

	isColumn(key: string): boolean {
		return this.columns().has(key);
	}

	/** Columns an error field `key` may mean: its own, its aliases, the Key Column for an id. */
	columnsFor(key: string): string[] {
		const columns = this.columns();
		const found = columns.has(key) ? [key] : [];
		for (const names of ALIASES)
			if (names.includes(key))
				found.push(...names.filter((name) => name !== key && columns.has(name)));
		if (ID_NAMES.has(key))
			for (const name of [this.keyColumn, 'id'])
				if (name !== key && columns.has(name) && !found.includes(name)) found.push(name);
		return found;
	}

	value(position: number, column: string): string | undefined {
		for (const name of this.columns().get(column) ?? []) {
			const value = valueKey(this.rows[position][name]);
			if (value !== undefined) return value;
		}
		return undefined;
	}

	rowsWith(column: string, value: string): number[] {
		let index = this.byValue.get(column);
		if (!index) {
			index = new Map();
			for (let position = 0; position < this.rows.length; position++) {
				const key = this.value(position, column);
				if (key === undefined) continue;
				const positions = index.get(key);
				if (positions) positions.push(position);
				else index.set(key, [position]);
			}
			this.byValue.set(column, index);
		}
		return index.get(value) ?? [];
	}

	content(position: number): string {
		return (this.contents[position] ??= canonicalJson(this.rows[position]));
	}

	/** The one row whose content is `text`; undefined when none is, or several are. */
	rowWithContent(text: string): number | undefined {
		if (!this.byContent) {
			this.byContent = new Map();
			for (let position = 0; position < this.rows.length; position++) {
				const content = this.content(position);
				this.byContent.set(content, this.byContent.has(content) ? -1 : position);
			}
		}
		const position = this.byContent.get(text);
		return position === undefined || position < 0 ? undefined : position;
	}
}

/** Keys (in nameKey form) under which a subscribersError element may give its row's position. */
export const POSITION_KEYS = new Set([
	'row',
	'rownumber',
	'rownum',
	'rowno',
	'rowindex',
	'rowidx',
	'rowposition',
	'line',
	'linenumber',
	'linenum',
	'lineno',
	'lineindex',
	'index',
	'idx',
	'position',
	'recordnumber',
	'recordindex',
	'itemindex',
]);
/** Inside an object saying where (`{ row: { number: 3 } }`) these name the position too. */
export const NESTED_POSITION_KEYS = new Set([...POSITION_KEYS, 'number', 'num', 'no']);

/** A reported position: a whole number, or text holding one. */
export function positionValue(value: unknown): number | undefined {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d+\s*$/.test(value)
				? Number(value)
				: NaN;
	return Number.isInteger(number) && number >= 0 ? number : undefined;
}
