/** Adds subscriber rows to a list, with the per-row errors the platform reports. */
import { convertCell, generatedValue } from './columns';
import { isPlainObject } from './http';
import type { SubscriberList, Values } from './list-store';

/** One row of a create/bulk request; `problem` is a failure found before import (CSV shape). */
export interface RowInput {
	index: number;
	line?: number;
	row: unknown;
	problem?: { code: SubscriberErrorCode; message: string };
}

/**
 * Sandbox choice (spec: not shown): the row failures and the subscribersError element (its shape is
 * not shown).
 */
export type SubscriberErrorCode =
	| 'INVALID_ROW'
	| 'TOO_MANY_VALUES'
	| 'UNKNOWN_COLUMN'
	| 'REQUIRED_VALUE_MISSING'
	| 'UNIQUE_VALUE_DUPLICATED'
	| 'ID_CONFLICT';

export interface SubscriberError {
	/** 0-based position of the row in the request (CSV: among data records). */
	index: number;
	/** CSV only: 1-based line of the file where the record starts (the header is line 1). */
	line?: number;
	/** The subscriber id when the row names or matched one. */
	id?: string;
	column?: string;
	code: SubscriberErrorCode;
	message: string;
	/** The row as received. */
	row: unknown;
}

export interface ImportResult {
	subscriberUpdated: number;
	subscriberAdded: number;
	subscribersError: SubscriberError[];
}

type Source = 'json' | 'csv';
type Failure = { code: SubscriberErrorCode; message: string; column?: string; id?: string };

/** null, undefined and '' all mean "no value". */
const isMissing = (value: unknown) => value === undefined || value === null || value === '';

/**
 * Imports rows one after the other: later rows see subscribers added or changed by earlier ones.
 */
export function importRows(list: SubscriberList, rows: RowInput[], source: Source): ImportResult {
	const result: ImportResult = { subscriberUpdated: 0, subscriberAdded: 0, subscribersError: [] };
	for (const input of rows) {
		const outcome = importRow(list, input, source);
		if (outcome === 'added') result.subscriberAdded++;
		else if (outcome === 'updated') result.subscriberUpdated++;
		else {
			const where = input.line !== undefined ? `Line ${input.line}` : `Row ${input.index + 1}`;
			result.subscribersError.push({
				index: input.index,
				...(input.line !== undefined && { line: input.line }),
				...(outcome.id !== undefined && { id: outcome.id }),
				...(outcome.column !== undefined && { column: outcome.column }),
				code: outcome.code,
				message: `${where}: ${outcome.message}`,
				row: input.row,
			});
		}
	}
	list.touch();
	return result;
}

function importRow(
	list: SubscriberList,
	input: RowInput,
	source: Source,
): 'added' | 'updated' | Failure {
	if (input.problem) return input.problem;
	if (!isPlainObject(input.row))
		return { code: 'INVALID_ROW', message: 'expected an object keyed by column name' };
	const values: Values = new Map();
	for (const [rawName, raw] of Object.entries(input.row)) {
		if (isMissing(raw)) continue;
		const name = list.normalizeName(rawName);
		const col = list.column(name);
		// Sandbox choice (spec: not shown): a value for a column the list does not have fails the row.
		if (!col)
			return {
				code: 'UNKNOWN_COLUMN',
				column: name,
				message: `column "${name}" does not exist in list ${list.id}`,
			};
		values.set(
			name,
			name === 'id'
				? String(raw)
				: source === 'csv' && typeof raw === 'string'
					? convertCell(raw, col.type)
					: raw,
		);
	}
	const keyValue = values.get(list.settings.key);
	const existing = keyValue === undefined ? undefined : list.findBy(list.settings.key, keyValue);
	return existing === undefined ? add(list, values) : update(list, existing, values);
}

function add(list: SubscriberList, values: Values): 'added' | Failure {
	const given = values.get('id') as string | undefined;
	for (const col of list.settings.columns) {
		if (values.has(col.name)) continue;
		if (!isMissing(col.defaultValue)) values.set(col.name, col.defaultValue);
		else if (col.name === 'id' && (list.settings.autoId || !col.required))
			values.set('id', list.newId());
		else if (list.settings.usesGeneratedData && col.unique)
			values.set(col.name, generatedValue(col));
	}
	const missing = list.settings.columns.find((col) => col.required && !values.has(col.name));
	if (missing)
		return {
			code: 'REQUIRED_VALUE_MISSING',
			column: missing.name,
			id: given,
			message: `column "${missing.name}" is required`,
		};
	const duplicate = firstDuplicate(list, values, undefined);
	if (duplicate) return { ...duplicate, id: given };
	list.insert(values);
	return 'added';
}

function update(list: SubscriberList, id: string, values: Values): 'updated' | Failure {
	const given = values.get('id');
	// Sandbox choice (spec: not shown): ids do not change; an id other than the subscriber's found by
	// the key fails the row.
	if (given !== undefined && given !== id) {
		return {
			code: 'ID_CONFLICT',
			column: 'id',
			id,
			message: `id "${given}" does not match subscriber "${id}" found by key column "${list.settings.key}"`,
		};
	}
	const duplicate = firstDuplicate(list, values, id);
	if (duplicate) return { ...duplicate, id };
	list.update(id, values);
	return 'updated';
}

/**
 * A unique value already held by another subscriber (existing, or added earlier in this request).
 */
function firstDuplicate(
	list: SubscriberList,
	values: Values,
	self: string | undefined,
): Failure | undefined {
	for (const col of list.uniqueColumns()) {
		const value = values.get(col.name);
		if (value === undefined) continue;
		const holder = list.findBy(col.name, value);
		if (holder !== undefined && holder !== self) {
			return {
				code: 'UNIQUE_VALUE_DUPLICATED',
				column: col.name,
				message: `column "${col.name}" value "${String(value)}" already exists`,
			};
		}
	}
	return undefined;
}
