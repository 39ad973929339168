/** A list's columns: their types, the automatic ones, and a cell's conversion. */
import { randomBytes, randomInt } from 'node:crypto';
import { badRequest, isPlainObject } from './http';
import type { Column } from './list-store';

/**
 * Sandbox choice (spec: not shown): the column types accepted, any case (the spec only shows
 * STRING); others are a 400.
 */
export const COLUMN_TYPES = ['STRING', 'NUMBER', 'BOOLEAN', 'DATE'] as const;

const column = (name: string, flags: Partial<Column> = {}): Column => ({
	name,
	type: 'STRING',
	defaultValue: null,
	indexed: false,
	required: false,
	unique: false,
	customConfiguration: null,
	...flags,
});

export const automaticColumns = (): Column[] => [
	column('id', { required: true, unique: true, indexed: true }),
	column('email', { unique: true, indexed: true }),
	column('mobile', { unique: true, indexed: true }),
	column('devices', { indexed: true }),
	column('devices_type', { indexed: true }),
];

/**
 * Automatic columns first (a same-named created column takes its place), then the other created
 * ones.
 */
export function withAutomaticColumns(created: Column[]): Column[] {
	const byName = new Map(created.map((c) => [c.name, c]));
	const automatic = automaticColumns().map((auto) => byName.get(auto.name) ?? auto);
	const automaticNames = new Set(automatic.map((c) => c.name));
	return [...automatic, ...created.filter((c) => !automaticNames.has(c.name))];
}

/** Validates `columns` of the JSON create body. */
export function parseJsonColumns(input: unknown): Column[] {
	if (!Array.isArray(input))
		throw badRequest('columns is required (an array of column definitions, may be empty)');
	const seen = new Set<string>();
	return input.map((raw, i) => {
		const at = `columns[${i}]`;
		if (!isPlainObject(raw)) throw badRequest(`${at} must be an object`);
		if (typeof raw.name !== 'string' || raw.name.trim() === '')
			throw badRequest(`${at}.name is required (non-empty string)`);
		// Sandbox choice (spec: not shown): column names are unique within the request.
		if (seen.has(raw.name)) throw badRequest(`${at}.name "${raw.name}" is defined twice`);
		seen.add(raw.name);
		if (typeof raw.type !== 'string')
			throw badRequest(`${at}.type is required (one of ${COLUMN_TYPES.join(', ')})`);
		const type = raw.type.toUpperCase();
		if (!(COLUMN_TYPES as readonly string[]).includes(type)) {
			throw badRequest(
				`${at}.type "${raw.type}" is not supported; use one of ${COLUMN_TYPES.join(', ')}`,
			);
		}
		const flag = (name: 'unique' | 'required' | 'indexed', fallback: boolean) => {
			const value = raw[name];
			if (value === undefined || value === null) return fallback;
			if (typeof value !== 'boolean') throw badRequest(`${at}.${name} must be a boolean`);
			return value;
		};
		const unique = flag('unique', false); // Sandbox choice (spec: not shown): `indexed` defaults to `unique`
		return column(raw.name, {
			type,
			unique,
			required: flag('required', false),
			indexed: flag('indexed', unique),
			defaultValue: raw.defaultValue ?? null,
			customConfiguration: raw.customConfiguration ?? null,
		});
	});
}

/**
 * Columns of a CSV import: header order, types inferred from each column's first non-empty cell.
 */
export function csvColumns(
	header: string[],
	rows: string[][],
	options: { usesAutoColumns: boolean; key: string },
): Column[] {
	const automatic = new Map(automaticColumns().map((c) => [c.name, c]));
	const created = header.map((name, i) => {
		const sample = rows.find((cells) => (cells[i] ?? '') !== '')?.[i];
		const base =
			(options.usesAutoColumns || name === 'id' ? automatic.get(name) : undefined) ?? column(name);
		const type = name === 'id' ? 'STRING' : sample === undefined ? 'STRING' : inferType(sample);
		const keyFlags = name === options.key ? { unique: true, indexed: true } : {};
		return { ...base, type, ...keyFlags };
	});
	if (options.usesAutoColumns) return withAutomaticColumns(created);
	return header.includes('id') ? created : [automatic.get('id') as Column, ...created];
}

const NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;
const BOOLEAN = /^(true|false)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Sandbox choice (spec: not shown): type inference from the first non-empty cell. Leading zeros and
 * over-15-digit numbers stay STRING so phone numbers and ids survive intact.
 */
export function inferType(value: string): string {
	if (NUMBER.test(value)) return 'NUMBER';
	if (BOOLEAN.test(value)) return 'BOOLEAN';
	if (DATE.test(value)) return 'DATE';
	return 'STRING';
}

/**
 * CSV cells become numbers/booleans in NUMBER/BOOLEAN columns when they parse; otherwise stay text.
 */
export function convertCell(value: string, type: string): unknown {
	if (type === 'NUMBER' && NUMBER.test(value)) return Number(value);
	if (type === 'BOOLEAN' && BOOLEAN.test(value)) return value.toLowerCase() === 'true';
	return value;
}

/** Fake data for empty unique columns when the list uses generated data. */
export function generatedValue(col: Column): unknown {
	const token = randomBytes(6).toString('hex');
	if (col.name === 'email') return `generated-${token}@example.invalid`;
	if (col.name === 'mobile') return `+1555${String(randomInt(0, 1e9)).padStart(9, '0')}`;
	if (col.type === 'NUMBER') return randomInt(1, 2 ** 47);
	return `generated-${token}`;
}
