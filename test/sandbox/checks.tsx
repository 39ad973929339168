/** Small validation helpers of the chat-app modules: phone rules, required fields, lengths, URLs. */
import { badRequest, isPlainObject } from './http';

/**
 * The phone-number rule the node applies (src/base/addresses.ts: E164_MIN_DIGITS,
 * E164_MAX_DIGITS), written here again: the sandbox emulates the platform and imports nothing
 * from the node's code. test/unit/src/base/addresses.test.tsx checks that both say the same.
 */
export const PHONE_MIN_DIGITS = 7;
export const PHONE_MAX_DIGITS = 15;
/** The rule as the sandbox's errors state it. */
export const PHONE_DIGITS_RULE = `${PHONE_MIN_DIGITS} to ${PHONE_MAX_DIGITS} digits (the first not 0)`;
const digitsPattern = `[1-9]\\d{${PHONE_MIN_DIGITS - 1},${PHONE_MAX_DIGITS - 1}}`;
/** E.164: `+` then 7 to 15 digits, the first not 0, nothing else. */
export const E164 = new RegExp(`^\\+${digitsPattern}$`);
/** A phone number given with or without its `+`. */
export const PHONE = new RegExp(`^\\+?${digitsPattern}$`);

/** A value as it appears in an error message: JSON, cut after 60 characters. */
export function show(value: unknown): string {
	const text = value === undefined ? 'undefined' : JSON.stringify(value);
	return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export const isAbsent = (value: unknown) => value === undefined || value === null;

/**
 * Non-empty, non-blank string: `x is required<hint>`, `x must be a string (got 1)`, `x must not be
 * blank`.
 */
export function requiredString(value: unknown, path: string, hint = ''): string {
	if (isAbsent(value) || value === '') throw badRequest(`${path} is required${hint}`);
	if (typeof value !== 'string') throw badRequest(`${path} must be a string (got ${show(value)})`);
	if (value.trim() === '') throw badRequest(`${path} must not be blank`);
	return value;
}

/** Absent or null → undefined; otherwise it must be a string (empty allowed). */
export function optionalString(value: unknown, path: string): string | undefined {
	if (isAbsent(value)) return undefined;
	if (typeof value !== 'string') throw badRequest(`${path} must be a string (got ${show(value)})`);
	return value;
}

export function maxLength(value: string, path: string, max: number, context = ''): void {
	if (value.length > max)
		throw badRequest(`${path} must be at most ${max} characters${context} (got ${value.length})`);
}

export function integerAtLeast(value: unknown, path: string, min: number): number {
	if (isAbsent(value)) throw badRequest(`${path} is required (an integer >= ${min})`);
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
		throw badRequest(`${path} must be an integer >= ${min} (got ${show(value)})`);
	}
	return value;
}

export function requiredObject(
	value: unknown,
	path: string,
	shape: string,
): Record<string, unknown> {
	if (isAbsent(value)) throw badRequest(`${path} is required (${shape})`);
	if (!isPlainObject(value)) throw badRequest(`${path} must be ${shape} (got ${show(value)})`);
	return value;
}

/** Each listed key, when present and not null, must be a string. */
export function stringKeys(
	object: Record<string, unknown>,
	path: string,
	keys: readonly string[],
): void {
	for (const key of keys) optionalString(object[key], `${path}.${key}`);
}

/** Keys outside `allowed` are a 400 (seeding inputs are strict). */
export function noUnknownKeys(
	object: Record<string, unknown>,
	allowed: readonly string[],
	what: string,
): void {
	const unknown = Object.keys(object).filter((key) => !allowed.includes(key));
	if (unknown.length)
		throw badRequest(
			`${what}: unknown field(s) ${unknown.join(', ')} (allowed: ${allowed.join(', ')})`,
		);
}

export const digitsOnly = (phone: string) => phone.replace(/^\+/, '');

/** The URL when `value` is an absolute http(s) URL, else undefined. */
export function isHttpUrl(value: string): URL | undefined {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
	} catch {
		return undefined;
	}
}
