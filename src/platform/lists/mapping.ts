/** Lists: the editor's parameters to bodies and queries, items to rows, Simplify. */
import { entries, optionalBoolean, rawText, record, text } from '../../base/coerce';
import { InputError } from '../../base/input-errors';
import type { Column, SubscriberRow } from './schema';
import { EMAIL_COLUMN } from './schema';
import { trimEmail } from '../../base/addresses';
import { parseObjectList } from '../../base/json';

interface CreateListParameters {
	name: unknown;
	/** The Columns fixedCollection: { column: [...] }. */
	columns?: unknown;
	rows?: unknown;
}

interface CsvImportOptions {
	key?: string;
	usesAutoColumns?: boolean;
	caseSensitive?: boolean;
	usesGeneratedData?: boolean;
	trackLastActivity?: boolean;
}

/** The editor's default-value field is text; give NUMBER and BOOLEAN columns a typed default. */
export function typedDefaultValue(type: string, value: string | undefined): Column['defaultValue'] {
	if (value === undefined || value === '') return undefined;
	const upper = type.toUpperCase();
	if (upper === 'NUMBER' && value.trim() !== '' && Number.isFinite(Number(value)))
		return Number(value);
	if (upper === 'BOOLEAN' && /^(true|false)$/i.test(value.trim()))
		return value.trim().toLowerCase() === 'true';
	return value;
}

/** A column's type when Type is unset: the editor's default, the one type the spec documents. */
export const DEFAULT_COLUMN_TYPE = 'STRING';

/**
 * A column's type: unset (saved without the field) is STRING; set but empty is an error, as STRING
 * would hide a broken expression behind a wrongly typed column that cannot be changed.
 */
function columnType(column: Record<string, unknown>, field: string): string {
	if (column.type === undefined) return DEFAULT_COLUMN_TYPE;
	const type = text(column.type, `${field}.type`);
	if (type) return type;
	const name = text(column.name, `${field}.name`);
	throw new InputError(
		`${field}.type`,
		`the type${name ? ` of the column "${name}"` : ''} is empty: pick String, Number, Boolean or Date, or have the expression give a type such as STRING`,
	);
}

/** One entry of the Columns collection; `field` is its path ("columns.1"). */
function columnFromParameter(
	column: Record<string, unknown>,
	field = 'columns.0',
): Record<string, unknown> {
	const type = columnType(column, field);
	const mapped: Record<string, unknown> = { name: text(column.name, `${field}.name`), type };
	const unique = optionalBoolean(column.unique, `${field}.unique`);
	const required = optionalBoolean(column.required, `${field}.required`);
	if (unique !== undefined) mapped.unique = unique;
	if (required !== undefined) mapped.required = required;
	const defaultValue = typedDefaultValue(
		type,
		rawText(column.defaultValue, `${field}.defaultValue`),
	);
	if (defaultValue !== undefined) mapped.defaultValue = defaultValue;
	return mapped;
}

/** List > Create parameters to the body of POST /lists (its schema checks it after). */
export function createListBody(parameters: CreateListParameters): Record<string, unknown> {
	return {
		name: text(parameters.name, 'name'),
		columns: entries(parameters.columns, 'columns', 'column').map((column, index) =>
			columnFromParameter(column, `columns.${index}`),
		),
		rows: parseObjectList(parameters.rows, 'rows'),
	};
}

/** The switches of Create From CSV, sent as query flags when the user sets them. */
const CSV_IMPORT_FLAGS = [
	'usesAutoColumns',
	'caseSensitive',
	'usesGeneratedData',
	'trackLastActivity',
] as const;

/** The Create From CSV options collection, each option of its type. */
export function csvImportOptions(value: unknown): CsvImportOptions {
	const options = record(value, 'options');
	const result: CsvImportOptions = {};
	if (options.key !== undefined) result.key = text(options.key, 'options.key');
	for (const flag of CSV_IMPORT_FLAGS) {
		const flagValue = optionalBoolean(options[flag], `options.${flag}`);
		if (flagValue !== undefined) result[flag] = flagValue;
	}
	return result;
}

/** List > Create From CSV options to the query of POST /lists: only those the user set. */
export function csvImportQuery(
	name: string,
	options: CsvImportOptions,
): Record<string, string | boolean> {
	const query: Record<string, string | boolean> = { name };
	if (options.key !== undefined && options.key.trim() !== '') query.key = options.key.trim();
	for (const flag of CSV_IMPORT_FLAGS) {
		if (options[flag] !== undefined) query[flag] = options[flag] as boolean;
	}
	return query;
}

/** An input item's JSON as a subscriber row: objects are refused, never silently flattened. */
export function subscriberFromItem(
	json: Record<string, unknown>,
	columns?: string[],
): SubscriberRow {
	const row: SubscriberRow = {};
	const keys = columns && columns.length ? columns : Object.keys(json);
	for (const key of keys) {
		const value = json[key];
		if (value === undefined) continue;
		if (value !== null && typeof value === 'object') {
			throw new InputError(
				key,
				'it holds an object or a list; a list column takes text, a number, true/false or null (use a Set node to flatten it)',
			);
		}
		row[key] = (key === EMAIL_COLUMN ? trimEmail(value) : value) as SubscriberRow[string];
	}
	return row;
}

/** The fields a simplified list keeps (List › Create, Create From CSV and Get with Simplify on). */
const SIMPLE_LIST_FIELDS = [
	'id',
	'name',
	'key',
	'status',
	'size',
	'totalLines',
	'percentProcessed',
	'createdAt',
	'lastUpdated',
] as const;

/** A list as Simplify outputs it: `columns` as names, other shapes left out rather than guessed. */
export function simplifyList<T extends Record<string, unknown>>(list: T): T {
	const simple: Record<string, unknown> = {};
	for (const field of SIMPLE_LIST_FIELDS)
		if (list[field] !== undefined) simple[field] = list[field];
	if (Array.isArray(list.columns)) {
		simple.columns = list.columns
			.map((column) =>
				column && typeof column === 'object' ? (column as Record<string, unknown>).name : column,
			)
			.filter((name): name is string => typeof name === 'string');
	}
	return simple as T;
}
