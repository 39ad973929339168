import { platformMessage } from '../errors';
import type { SubscriberRow } from '../schemas/lists';

type RowStatus = 'added' | 'updated' | 'failed' | 'addedOrUpdated' | 'unknown';

interface RowError {
	message: string;
	column?: string;
	code?: string;
	details: unknown;
}

interface RowOutcome {
	status: RowStatus;
	error?: RowError;
}

/** What a 2xx bulk answer says; counts missing from the answer are undefined, not 0. */
interface BulkCounts {
	subscriberAdded?: number;
	subscriberUpdated?: number;
	subscribersError: unknown[];
}

/** Key names (lower case, without `_`, `-` or spaces) under which an error may give its row's position. */
const POSITION_KEYS = new Set([
	'row', 'rownumber', 'rownum', 'rowno', 'rowindex', 'rowidx', 'rowposition',
	'line', 'linenumber', 'linenum', 'lineno', 'lineindex',
	'index', 'idx', 'position', 'recordnumber', 'recordindex', 'itemindex',
]);
/** Inside an object saying where (`{ row: { number: 3 } }`) these name the position too. */
const NESTED_POSITION_KEYS = new Set([...POSITION_KEYS, 'number', 'num', 'no']);
/** Names an error may give a row's e-mail, phone or key under, whatever the rows call that column. */
const ALIASES = [
	['email', 'emailaddress', 'mail'],
	['mobile', 'mobilenumber', 'mobilephone', 'phone', 'phonenumber', 'cellphone', 'msisdn', 'tel', 'telephone'],
];
const ID_NAMES = new Set(['id', 'subscriberid', 'subscriberkey', 'key', 'keyvalue']);
/** A position is the reported number minus the offset: 0-based, 1-based, 1-based counting a CSV header line. */
const OFFSETS = [0, 1, 2];

/**
 * The base a position key's name implies, used when the batch's numbers and values leave a tie:
 * an index, idx or position counts from 0 (as in nearly every API and language); a number, a
 * line or a record number from 1. A bare `row` implies nothing.
 */
function conventionalOffset(key: string): number | undefined {
	const last = key.split('.').pop() ?? key;
	if (/(index|idx|position)$/.test(last)) return 0;
	if (/(number|num|no|line)$/.test(last)) return 1;
	return undefined;
}
/** A value shared by more rows than this does not narrow down which row an error is about. */
const FEW_ROWS = 16;

const nameKey = (name: string) => name.toLowerCase().replace(/[\s_-]/g, '');
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Values compared the way platforms tend to echo them: trimmed, any case, phone numbers without separators, 3 = "3". */
function valueKey(value: unknown): string | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean') return String(value);
	if (typeof value !== 'string') return undefined;
	const text = value.trim().toLowerCase();
	if (!text) return undefined;
	return /^\+?[\d\s().\-/]{6,}$/.test(text) ? text.replace(/[\s().\-/]/g, '') : text;
}

/** A reported position: a whole number, or text holding one. */
function positionValue(value: unknown): number | undefined {
	const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
	return Number.isInteger(number) && number >= 0 ? number : undefined;
}

/** JSON with sorted keys: a row echoed with its columns in another order is the same row. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (isObject(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
	return JSON.stringify(value) ?? 'null';
}

/** Lookups built once per batch, and only when an error needs them: matching stays linear in rows + errors. */
class BatchRows {
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

	/** The rows' column names by nameKey (a column may be spelled differently in different rows). */
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

	/** The columns an error field named `key` may be about: the column of that name, its aliases, the Key Column for an id. */
	columnsFor(key: string): string[] {
		const columns = this.columns();
		const found = columns.has(key) ? [key] : [];
		for (const names of ALIASES) if (names.includes(key)) found.push(...names.filter((name) => name !== key && columns.has(name)));
		if (ID_NAMES.has(key)) for (const name of [this.keyColumn, 'id']) if (name !== key && columns.has(name) && !found.includes(name)) found.push(name);
		return found;
	}

	value(position: number, column: string): string | undefined {
		for (const name of this.columns().get(column) ?? []) {
			const value = valueKey(this.rows[position][name]);
			if (value !== undefined) return value;
		}
		return undefined;
	}

	/** The rows holding `value` in `column`. */
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
		return (this.contents[position] ??= canonical(this.rows[position]));
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

/** What one subscribersError element says about its row. */
interface Clues {
	/** Reported positions by the key they came under (`line`, `row.index`). */
	positions: Array<[key: string, value: number]>;
	/** [column, value]: the row holds value in that column (or a column it is an alias of). */
	values: Array<[column: string, value: string]>;
	/** Canonical JSON of the objects the error carries, one of which may be the row as sent. */
	contents: string[];
}

function cluesOf(error: unknown, rows: BatchRows): Clues {
	const clues: Clues = { positions: [], values: [], contents: [] };
	if (!isObject(error)) return clues;
	const addValue = (key: string, value: unknown) => {
		const text = valueKey(value);
		if (text !== undefined) for (const column of rows.columnsFor(key)) clues.values.push([column, text]);
	};
	const addPosition = (key: string, value: unknown) => {
		const position = positionValue(value);
		if (position !== undefined) clues.positions.push([key, position]);
	};
	for (const [name, value] of Object.entries(error)) {
		const key = nameKey(name);
		if (isObject(value)) {
			clues.contents.push(canonical(value));
			for (const [childName, child] of Object.entries(value)) {
				const childKey = nameKey(childName);
				if (NESTED_POSITION_KEYS.has(childKey) && !rows.isColumn(childKey)) addPosition(`${key}.${childKey}`, child);
				else addValue(childKey, child);
			}
		} else if (POSITION_KEYS.has(key) && !rows.isColumn(key)) addPosition(key, value);
		else addValue(key, value);
	}
	const column = error.column ?? error.field ?? error.columnName;
	if (typeof column === 'string') addValue(nameKey(column), error.value);
	return clues;
}

/** +1 when the error's values or content agree with the row, -1 when it has some and none agree, 0 when it has none. */
function agreement(clues: Clues, position: number, rows: BatchRows): number {
	if (!clues.values.length && !clues.contents.length) return 0;
	if (clues.contents.some((content) => content === rows.content(position))) return 1;
	if (clues.values.some(([column, value]) => rows.value(position, column) === value)) return 1;
	return -1;
}

/**
 * The numbering of each position key of the batch (key → offset), where the errors make it
 * unambiguous: the reported numbers fit the batch's rows under one offset only (a 0 is 0-based,
 * the row count 1-based, one more the CSV style counting a header line), or the errors' values
 * agree with the rows under one offset better than under the others. A key left out is ambiguous.
 */
function numbering(clues: Clues[], rowCount: number, rows: BatchRows): Map<string, number> {
	const reported = new Map<string, Array<[Clues, number]>>();
	for (const clue of clues) {
		for (const [key, value] of clue.positions) {
			if (value > rowCount + 1) continue; // out of range whatever the numbering
			const entries = reported.get(key);
			if (entries) entries.push([clue, value]);
			else reported.set(key, [[clue, value]]);
		}
	}
	const offsets = new Map<string, number>();
	for (const [key, entries] of reported) {
		let low = Infinity;
		let high = -Infinity;
		for (const [, value] of entries) {
			low = Math.min(low, value);
			high = Math.max(high, value);
		}
		const fitting = OFFSETS.filter((offset) => low >= offset && high < rowCount + offset);
		if (fitting.length === 1) {
			offsets.set(key, fitting[0]);
			continue;
		}
		// Where the evidence ties, the key's name decides among the tied bases (never without evidence).
		const conventional = conventionalOffset(key);
		const fallback = conventional !== undefined && fitting.includes(conventional) ? conventional : undefined;
		let best: number | undefined;
		let bestScore = -Infinity;
		let tie = false;
		let tied: number[] = [];
		for (const offset of fitting.length ? fitting : OFFSETS) {
			let score = 0;
			let agreeing = 0;
			for (const [clue, value] of entries) {
				const position = value - offset;
				if (position < 0 || position >= rowCount) continue;
				const says = agreement(clue, position, rows);
				score += says;
				if (says > 0) agreeing++;
			}
			if (agreeing === 0) continue;
			if (score > bestScore) [best, bestScore, tie, tied] = [offset, score, false, [offset]];
			else if (score === bestScore) {
				tie = true;
				tied.push(offset);
			}
		}
		if (best !== undefined && !tie) offsets.set(key, best);
		// Values that agree equally under several bases (a repeated row: the same e-mail at 0 and 2): the key's name decides among those.
		else if (tie && fallback !== undefined && tied.includes(fallback)) offsets.set(key, fallback);
	}
	return offsets;
}

/** The one row the error's content or values point to; undefined when none does or they disagree. */
function identifiedRow(clues: Clues, rows: BatchRows): number | undefined {
	let byContent: number | undefined;
	for (const content of clues.contents) {
		const position = rows.rowWithContent(content);
		if (position === undefined) continue;
		if (byContent !== undefined && byContent !== position) return undefined;
		byContent = position;
	}
	if (byContent !== undefined) return byContent;
	let candidates: number[] | undefined;
	let unique: number | undefined;
	let uniqueAgree = true;
	for (const [column, value] of clues.values) {
		const found = rows.rowsWith(column, value);
		if (found.length === 0 || found.length > FEW_ROWS) continue; // names no row of the batch, or too many to tell
		if (found.length === 1) {
			if (unique !== undefined && unique !== found[0]) uniqueAgree = false;
			unique = found[0];
		}
		candidates = candidates ? candidates.filter((position) => found.includes(position)) : found;
	}
	if (candidates?.length === 1) return candidates[0];
	return uniqueAgree ? unique : undefined;
}

/**
 * The row each subscribersError element is about (the spec does not show their shape), or
 * undefined. A position under any usual key (`rowNumber`, `row_index`, `line`, `idx`, `{ row: {
 * index } }`…) counts under the numbering the batch's errors make unambiguous; the error's content
 * (`subscriber`, `data`, `row`) or values (id, Key Column, e-mail, phone, any column of the rows)
 * find the row otherwise. A position and values pointing to different rows match neither.
 */
function errorRows(errors: unknown[], rows: BatchRows): Array<number | undefined> {
	const rowCount = rows.rows.length;
	const clues = errors.map((error) => cluesOf(error, rows));
	const offsets = clues.some((clue) => clue.positions.length) ? numbering(clues, rowCount, rows) : new Map<string, number>();
	return clues.map((clue) => {
		let byNumber: number | undefined;
		let conflict = false;
		for (const [key, value] of clue.positions) {
			const offset = offsets.get(key);
			if (offset === undefined || value - offset < 0 || value - offset >= rowCount) continue;
			if (byNumber !== undefined && byNumber !== value - offset) conflict = true;
			byNumber = value - offset;
		}
		const byValues = identifiedRow(clue, rows);
		if (byNumber === undefined || conflict) return byValues;
		return byValues === undefined || byValues === byNumber ? byNumber : undefined;
	});
}

function rowError(error: unknown): RowError {
	const record = (error && typeof error === 'object' ? error : {}) as Record<string, unknown>;
	const column = record.column ?? record.field ?? record.columnName;
	const code = record.code ?? record.errorCode;
	return {
		message: platformMessage(error) ?? 'the platform rejected this subscriber',
		...(typeof column === 'string' ? { column } : {}),
		...(typeof code === 'string' ? { code } : {}),
		details: error,
	};
}

/** Several errors about one row: their messages joined, column and code of the first giving them, all their details. */
function mergedError(errors: RowError[]): RowError {
	const column = errors.find((error) => error.column !== undefined)?.column;
	const code = errors.find((error) => error.code !== undefined)?.code;
	return {
		message: [...new Set(errors.map((error) => error.message))].join('; '),
		...(column !== undefined ? { column } : {}),
		...(code !== undefined ? { code } : {}),
		details: errors.map((error) => error.details),
	};
}

/**
 * Per-row outcome of one bulk request, linear in rows + errors. Failures come from
 * `subscribersError`, each matched to its row as errorRows tells (several errors about one row
 * make one failure); the platform gives only counts for the rest, so a row is called added or
 * updated only when the counts prove it:
 * - the counts account for every row not failed: added/updated as far as the counts tell
 *   (exact when one count is 0 or when the rows carrying the key column match the update
 *   count), `addedOrUpdated` otherwise;
 * - both counts are 0: the remaining rows failed too (nothing was stored);
 * - fewer rows counted than remain (an error the node could not match to its row), or a count
 *   missing from the answer: the remaining rows are `unknown`, never `added`.
 */
export function rowOutcomes(rows: SubscriberRow[], result: BulkCounts, keyColumn = 'id'): { outcomes: RowOutcome[]; unmatchedErrors: RowError[] } {
	const outcomes: Array<RowOutcome | undefined> = new Array(rows.length);
	const unmatchedErrors: RowError[] = [];
	const errors = result.subscribersError;
	const positions = errors.length ? errorRows(errors, new BatchRows(rows, keyColumn)) : [];
	const rowErrors: RowError[][] = [];
	errors.forEach((error, at) => {
		const position = positions[at];
		if (position === undefined) unmatchedErrors.push(rowError(error));
		else (rowErrors[position] ??= []).push(rowError(error));
	});
	rowErrors.forEach((found, position) => {
		outcomes[position] = { status: 'failed', error: found.length === 1 ? found[0] : mergedError(found) };
	});
	const remaining: number[] = [];
	for (let position = 0; position < rows.length; position++) if (!outcomes[position]) remaining.push(position);
	const { subscriberAdded: added, subscriberUpdated: updated } = result;
	let statusOf: (position: number) => RowOutcome;
	if (added === undefined || updated === undefined) statusOf = () => ({ status: 'unknown' });
	else if (added + updated === 0 && remaining.length > 0) {
		const error: RowError = unmatchedErrors[0] ?? { message: 'the platform added and updated no subscriber of this batch', details: null };
		statusOf = () => ({ status: 'failed', error });
	} else if (added + updated < remaining.length) statusOf = () => ({ status: 'unknown' });
	else if (updated === 0) statusOf = () => ({ status: 'added' });
	else if (added === 0) statusOf = () => ({ status: 'updated' });
	else {
		const keyed = new Set(remaining.filter((position) => rows[position][keyColumn] !== undefined && rows[position][keyColumn] !== ''));
		statusOf = keyed.size === updated ? (position) => ({ status: keyed.has(position) ? 'updated' : 'added' }) : () => ({ status: 'addedOrUpdated' });
	}
	for (const position of remaining) outcomes[position] = statusOf(position);
	return { outcomes: outcomes as RowOutcome[], unmatchedErrors };
}
