/** The one input-coercion layer: a wrong type is an InputError on its field, never a TypeError. */
import { z } from 'zod';
import type { ZodTypeAny, output } from 'zod';

import { InputError, quoted } from './input-errors';

/** How a wrong value is named in an error: its type and, for a scalar, the value (`quoted`). */
export const kind = (value: unknown): string => {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	return `the ${typeof value} ${quoted(value, JSON.stringify)}`;
};

/** Text, trimmed; a number counts as its digits. Undefined, null and '' give ''. */
export function text(value: unknown, field: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	throw new InputError(field, `text was expected, got ${kind(value)}`);
}

export function requiredText(value: unknown, field: string, what = 'a value'): string {
	const result = text(value, field);
	if (!result) throw new InputError(field, `${what} is required`);
	return result;
}

/** Text, not trimmed (values sent exactly as written, such as a pass field holding HTML). */
export function rawText(value: unknown, field: string): string {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string') return value;
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean')
		return String(value);
	throw new InputError(field, `text was expected, got ${kind(value)}`);
}

/** A whole number in [min, max]; numeric text from an expression is accepted. */
export function integer(
	value: unknown,
	field: string,
	range: { min?: number; max?: number } = {},
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
	if (typeof number !== 'number' || !Number.isFinite(number))
		throw new InputError(field, `a whole number was expected, got ${kind(value)}`);
	if (!Number.isInteger(number))
		throw new InputError(field, `a whole number was expected, got ${number}`);
	if (range.min !== undefined && number < range.min)
		throw new InputError(field, `it must be at least ${range.min} (got ${number})`);
	if (range.max !== undefined && number > range.max)
		throw new InputError(field, `it must be at most ${range.max} (got ${number})`);
	return number;
}

/** A finite number; numeric text from an expression is accepted. */
export function number(value: unknown, field: string): number {
	const result = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : value;
	if (typeof result !== 'number' || !Number.isFinite(result))
		throw new InputError(field, `a number was expected, got ${kind(value)}`);
	return result;
}

/** true/false; the text "true"/"false" from an expression is accepted. */
export function boolean(value: unknown, field: string): boolean {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
		return value.trim().toLowerCase() === 'true';
	throw new InputError(field, `true or false was expected, got ${kind(value)}`);
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
	return value === undefined || value === null || value === '' ? undefined : boolean(value, field);
}

/** One of the allowed values (an options field set by an expression). */
export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
	const result = text(value, field);
	if (!(allowed as readonly string[]).includes(result))
		throw new InputError(field, `it must be one of ${allowed.join(', ')} (got ${kind(value)})`);
	return result as T;
}

/** An object such as a collection parameter; undefined gives {}. */
export function record(value: unknown, field: string): Record<string, unknown> {
	if (value === undefined || value === null) return {};
	if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
	throw new InputError(field, `an object was expected, got ${kind(value)}`);
}

/** The entries of a fixedCollection (`{ key: [...] }`); each entry must be an object. */
export function entries(
	value: unknown,
	field: string,
	key: string,
): Array<Record<string, unknown>> {
	const list = record(value, field)[key];
	if (list === undefined || list === null) return [];
	const array = Array.isArray(list) ? list : [list];
	return array.map((entry, index) => record(entry, `${field}.${index}`));
}

/** A list of texts: an array (multiOptions) or comma-separated text. */
export function textList(value: unknown, field: string): string[] {
	if (value === undefined || value === null || value === '') return [];
	const parts = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(',')
			: undefined;
	if (!parts)
		throw new InputError(field, `a list or comma-separated text was expected, got ${kind(value)}`);
	return parts
		.map((part, index) => text(part, parts.length > 1 ? `${field}.${index}` : field))
		.filter(Boolean);
}

/** An ID sent as a URL path segment (URL-encoded), so not empty, "." or "..". */
export function pathSegment(value: unknown, field: string, what: string): string {
	const result = requiredText(value, field, what);
	if (result === '.' || result === '..') throw new InputError(field, `"${result}" is not ${what}`);
	return result;
}

/** pathSegment's rule as a zod schema (text or a number); `what` names the ID a refusal quotes. */
export const pathSegmentSchema = (typeError: string, required: string, what: string) =>
	z
		.union([z.string(), z.number()], { errorMap: () => ({ message: typeError }) })
		.transform((value) => String(value).trim())
		.pipe(
			z
				.string()
				.min(1, required)
				.refine(
					(value) => value !== '.' && value !== '..',
					(value) => ({ message: `${quoted(value)} is not ${what}` }),
				),
		);

/** Whether text written YYYY-MM-DD (a browser's date field, a birthday) is a day of the calendar. */
export function isCalendarDay(value: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A URL of http or https only (media to download, webhooks to call). */
export function httpUrl(value: unknown, field: string): string {
	const result = requiredText(value, field, 'a URL');
	if (!URL.canParse(result)) throw new InputError(field, `${quoted(result)} is not a URL`);
	const parsed = new URL(result);
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
		throw new InputError(field, `${quoted(result)} must start with http:// or https://`);
	if (!parsed.hostname) throw new InputError(field, `${quoted(result)} has no host`);
	return result;
}

/** A value checked by a zod schema, its first problem reported as an InputError on `field`. */
export function parsed<S extends ZodTypeAny>(schema: S, value: unknown, field: string): output<S> {
	const result = schema.safeParse(value);
	if (result.success) return result.data as output<S>;
	const issue = result.error.issues[0];
	const path = issue.path.length ? `${field}.${issue.path.join('.')}` : field;
	throw new InputError(path, issue.message);
}
