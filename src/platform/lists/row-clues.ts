/** What a platform row error says of its row: positions, values, the row as sent. */
import { canonicalJson, isRecord } from '../../base';
import {
	nameKey,
	NESTED_POSITION_KEYS,
	POSITION_KEYS,
	positionValue,
	valueKey,
} from './batch-rows';
import type { BatchRows } from './batch-rows';

export interface Clues {
	/** Reported positions by the key they came under (`line`, `row.index`). */
	positions: Array<[key: string, value: number]>;
	/** [column, value]: the row holds value in that column (or a column it is an alias of). */
	values: Array<[column: string, value: string]>;
	/** Canonical JSON of the objects the error carries, one of which may be the row as sent. */
	contents: string[];
}

export function cluesOf(error: unknown, rows: BatchRows): Clues {
	const clues: Clues = { positions: [], values: [], contents: [] };
	if (!isRecord(error)) return clues;
	const addValue = (key: string, value: unknown) => {
		const text = valueKey(value);
		if (text !== undefined)
			for (const column of rows.columnsFor(key)) clues.values.push([column, text]);
	};
	const addPosition = (key: string, value: unknown) => {
		const position = positionValue(value);
		if (position !== undefined) clues.positions.push([key, position]);
	};
	for (const [name, value] of Object.entries(error)) {
		const key = nameKey(name);
		if (isRecord(value)) {
			clues.contents.push(canonicalJson(value));
			for (const [childName, child] of Object.entries(value)) {
				const childKey = nameKey(childName);
				if (NESTED_POSITION_KEYS.has(childKey) && !rows.isColumn(childKey))
					addPosition(`${key}.${childKey}`, child);
				else addValue(childKey, child);
			}
		} else if (POSITION_KEYS.has(key) && !rows.isColumn(key)) addPosition(key, value);
		else addValue(key, value);
	}
	const column = error.column ?? error.field ?? error.columnName;
	if (typeof column === 'string') addValue(nameKey(column), error.value);
	return clues;
}
