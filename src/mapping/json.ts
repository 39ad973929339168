import { InputError } from '../errors';

/** Reads a JSON parameter that n8n may hand over as text or as an already parsed value. */
export function parseJsonParameter(value: unknown, field: string): unknown {
	if (typeof value !== 'string') return value;
	if (!value.trim()) return undefined;
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new InputError(field, `it is not valid JSON (${(error as Error).message})`);
	}
}

/** A JSON parameter that must hold a list of objects; a single object counts as a list of one. */
export function parseObjectList(value: unknown, field: string): unknown[] {
	const parsed = parseJsonParameter(value, field);
	if (parsed === undefined || parsed === null) return [];
	return Array.isArray(parsed) ? parsed : [parsed];
}
