/** JSON parameters, which n8n may hand over as text or as an already parsed value. */
import { InputError } from './input-errors';

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
