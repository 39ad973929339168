/** JSON parameters, which n8n may hand over as text or as an already parsed value. */
import type { IDataObject } from 'n8n-workflow';

import { InputError } from './input-errors';

/** A JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

const PLAIN_PROTOTYPES = new Set([Object.prototype, null]);

/** A record as `{}` or JSON.parse makes one: its prototype Object's, or none. */
export const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
	isRecord(value) && PLAIN_PROTOTYPES.has(Object.getPrototypeOf(value) as object | null);

/** JSON with every object's keys sorted and undefined members left out: same content, same text. */
export function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (isRecord(value))
		return `{${Object.keys(value)
			.sort()
			.filter((key) => value[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
			.join(',')}}`;
	return JSON.stringify(value) ?? 'null';
}

/** Whether a value lies over `max` levels inside arrays and objects (walked without recursion). */
export function nestsDeeper(value: unknown, max: number): boolean {
	let level = [value];
	for (let depth = 0; level.length && depth <= max; depth++)
		level = level.flatMap((v) => (v && typeof v === 'object' ? Object.values(v) : []));
	return level.length > 0;
}

/** JSON.parse without throwing: the value, or the parser's message. */
export function tryParseJson(text: string): { value: unknown } | { problem: string } {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch (error) {
		return { problem: (error as Error).message };
	}
}

function parseJsonParameter(value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	if (!value.trim()) return undefined;
	const parsed = tryParseJson(value);
	if ('problem' in parsed) throw new InputError(field, `it is not valid JSON (${parsed.problem})`);
	return parsed.value;
}

/** A JSON parameter that must hold a list of objects; a single object counts as a list of one. */
export function parseObjectList(value: unknown, field: string): unknown[] {
	const parsed = parseJsonParameter(value, field);
	if (parsed === undefined || parsed === null) return [];
	return Array.isArray(parsed) ? parsed : [parsed];
}
