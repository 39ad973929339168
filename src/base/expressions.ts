/**
 * Plain references to the input item's own data, read without n8n's expression engine.
 *
 * The engine's per-item evaluation of `={{ $json.email }}` dominates a bulk run. For one such
 * reference to a string, finite number or boolean, n8n returns that very value (n8n-workflow
 * 1.120–2.41: `$json` is the item's own `json`; Tournament returns a lone `{{ }}` as it is).
 * Anything less sure is `MISS`: the caller asks n8n (nodes/AudienceMessaging/runner/parameters.ts).
 */
import { isPlainRecord } from './json';

type JsonPath = ReadonlyArray<string | number>;

/** What a resolver gives when n8n must evaluate the parameter itself. */
export const MISS: unique symbol = Symbol('not a plain $json reference');

type Resolver = (json: unknown) => unknown;

/** Names n8n's sandbox refuses (isSafeObjectProperty, 1.120–2.41): such an expression throws. */
const UNSAFE_KEYS = new Set([
	'__proto__',
	'prototype',
	'constructor',
	'getPrototypeOf',
	'setPrototypeOf',
	'getOwnPropertyDescriptor',
	'getOwnPropertyDescriptors',
	'defineProperty',
	'defineProperties',
	'mainModule',
	'binding',
	'_linkedBinding',
	'_load',
	'prepareStackTrace',
	'__lookupGetter__',
	'__lookupSetter__',
	'__defineGetter__',
	'__defineSetter__',
	'caller',
	'callee',
	'arguments',
	'getBuiltinModule',
	'dlopen',
	'execve',
	'loadEnvFile',
]);

/**
 * One step after `$json`: `.name`, `["key"]`, `['key']` or `[3]`. A quoted key has no backslash
 * (escapes), no quote of its kind, no brace (`{{`/`}}` split n8n's template), no parenthesis (n8n
 * rewrites method calls), no control character; an index no leading zero (`01` is octal).
 */
const STEP =
	/\.([A-Za-z_$][\w$]*)|\[[ \t]*(?:"([^"\\{}()\u2028\u2029]*)"|'([^'\\{}()\u2028\u2029]*)'|(0|[1-9]\d{0,8}))[ \t]*\]/y;
const hasControlCharacter = (key: string) =>
	[...key].some((character) => character < ' ' || character === '\u007f');
const OPEN = /^=\{\{[ \t\r\n]*\$json/;
const CLOSE = /[ \t\r\n]*\}\}$/y;

/** The path of a value that is one reference only (`={{ $json.list[0].name }}`), else undefined. */
export function parseJsonReference(raw: unknown): JsonPath | undefined {
	if (typeof raw !== 'string') return undefined;
	const open = OPEN.exec(raw);
	if (!open) return undefined;
	// n8n refuses any expression matching this before evaluating it, even inside a quoted key.
	if (/\.\s*constructor/.test(raw)) return undefined;
	const path: Array<string | number> = [];
	let at = open[0].length;
	for (;;) {
		STEP.lastIndex = at;
		const step = STEP.exec(raw);
		if (!step) break;
		at = STEP.lastIndex;
		const [, name, doubleQuoted, singleQuoted, index] = step;
		if (index !== undefined) {
			path.push(Number(index));
			continue;
		}
		const key = name ?? doubleQuoted ?? singleQuoted;
		if (key === '$' || UNSAFE_KEYS.has(key) || hasControlCharacter(key)) return undefined;
		path.push(key);
	}
	if (path.length === 0) return undefined;
	CLOSE.lastIndex = at;
	if (!CLOSE.test(raw) || CLOSE.lastIndex !== raw.length) return undefined;
	return path;
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,8})$/;

/** The string, finite number or boolean at `path` (own properties, array items only), else MISS. */
export function plainValueAt(json: unknown, path: JsonPath): unknown {
	let value = json;
	for (const key of path) {
		if (Array.isArray(value)) {
			const index = typeof key === 'number' ? key : ARRAY_INDEX.test(key) ? Number(key) : -1;
			if (index < 0 || index >= value.length || !Object.hasOwn(value, index)) return MISS;
			value = value[index];
		} else if (isPlainRecord(value)) {
			const name = String(key);
			if (!Object.hasOwn(value, name)) return MISS;
			value = value[name];
		} else {
			return MISS;
		}
	}
	if (typeof value === 'string' || typeof value === 'boolean') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	return MISS;
}

/**
 * A resolver for a raw parameter, walked as n8n's `getParameterValue` does; undefined when an
 * expression in it is not a plain reference. It gives MISS where a reference's value is not plain.
 */
export function compileParameter(raw: unknown): Resolver | undefined {
	if (typeof raw === 'string' && raw.charAt(0) === '=') {
		const path = parseJsonReference(raw);
		return path && ((json) => plainValueAt(json, path));
	}
	if (raw === null || typeof raw !== 'object') return () => raw;
	const list = Array.isArray(raw);
	const parts: Array<[string | number, Resolver]> = [];
	for (const [key, entry] of list ? (raw as unknown[]).entries() : Object.entries(raw)) {
		const part = compileParameter(entry);
		if (!part) return undefined;
		parts.push([key, part]);
	}
	return (json) => {
		// As n8n builds it: a list or a plain object, each item or key assigned in turn.
		const result = (list ? [] : {}) as Record<string | number, unknown>;
		for (const [key, part] of parts) {
			const value = part(json);
			if (value === MISS) return MISS;
			result[key] = value;
		}
		return result;
	};
}

/** Whether two parameter values are equal: Object.is, or same prototype, keys in order, values. */
export function sameValue(a: unknown, b: unknown): boolean {
	if (Object.is(a, b)) return true;
	if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
	if (
		Array.isArray(a) !== Array.isArray(b) ||
		Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)
	)
		return false;
	const keysA = Object.keys(a);
	const keysB = Object.keys(b);
	if (keysA.length !== keysB.length) return false;
	return keysA.every(
		(key, index) =>
			key === keysB[index] &&
			sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
	);
}
