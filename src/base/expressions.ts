/**
 * Plain references to the input item's own data, read without n8n's expression engine.
 *
 * n8n evaluates a parameter such as `={{ $json.email }}` once per item in its expression engine,
 * which is most of the cost of a bulk run that maps two fields. When the whole raw value is one
 * such reference, its result is the value at that path of the item's JSON, and for a string, a
 * finite number or a boolean n8n returns that very value (n8n-workflow 1.120–2.41:
 * `WorkflowDataProxy` hands `$json` out as the item's own `json`, Tournament returns a lone `{{ }}`
 * as it is, and nothing after it changes a primitive). This module only recognises such references
 * and reads them; anything it is not sure of is `MISS`, and the caller asks n8n
 * (nodes/AudienceMessaging/shared/parameters.ts). Pure: no n8n runtime call here.
 */

/** A path into an item's JSON: property names and array indexes. */
type JsonPath = ReadonlyArray<string | number>;

/** What a resolver gives when n8n must evaluate the parameter itself. */
export const MISS: unique symbol = Symbol('not a plain $json reference');

/** The resolved parameter of one item, or MISS. */
type Resolver = (json: unknown) => unknown;

/**
 * Names n8n's expression sandbox refuses (`isSafeObjectProperty` of n8n-workflow 1.120 to 2.41,
 * the same list in each): an expression naming one throws, so it is never read here.
 */
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
 * One step after `$json`: `.name` (ASCII identifier), `["key"]`, `['key']` or `[3]`. A quoted key
 * holds no backslash (no escapes to interpret), no quote of its kind, no brace (`{{`/`}}` split
 * n8n's template), no parenthesis (n8n's method-call rewriting looks for them), no control or
 * line-break character. An index is a plain decimal (no leading zero: `01` is octal in JavaScript).
 */
const STEP =
	/\.([A-Za-z_$][\w$]*)|\[[ \t]*(?:"([^"\\{}()\u2028\u2029]*)"|'([^'\\{}()\u2028\u2029]*)'|(0|[1-9]\d{0,8}))[ \t]*\]/y;
const hasControlCharacter = (key: string) => {
	for (let i = 0; i < key.length; i++) {
		const code = key.charCodeAt(i);
		if (code < 0x20 || code === 0x7f) return true;
	}
	return false;
};
const OPEN = /^=\{\{[ \t\r\n]*\$json/;
const CLOSE = /[ \t\r\n]*\}\}$/y;

/**
 * The path of a raw parameter value that is exactly one reference to the item's own data:
 * `={{ $json.email }}`, `={{$json["first name"]}}`, `={{ $json.list[0].name }}`; undefined for
 * anything else (text around the braces, two expressions, `$('Node')`, `$input`, methods,
 * operators, optional chaining, a name n8n refuses).
 */
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

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
};

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,8})$/;

/**
 * The value at `path` of an item's JSON when it is a string, a finite number or a boolean, each
 * step an own property of a plain object or an element of an array; MISS otherwise (a missing
 * field or intermediate object, null, an object or array, NaN, anything inherited).
 */
export function plainValueAt(json: unknown, path: JsonPath): unknown {
	let value = json;
	for (const key of path) {
		if (Array.isArray(value)) {
			const index = typeof key === 'number' ? key : ARRAY_INDEX.test(key) ? Number(key) : -1;
			if (index < 0 || index >= value.length || !Object.hasOwn(value, index)) return MISS;
			value = value[index];
		} else if (isPlainObject(value)) {
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
 * A resolver for a whole raw parameter value, built as n8n's `getParameterValue` walks it: a
 * string starting with `=` is an expression (here: a plain `$json` reference, or no resolver at
 * all), arrays and objects are rebuilt entry by entry in their order, anything else is kept as
 * it is. Undefined when some expression in it is not a plain reference. The resolver gives MISS
 * for an item whose data gives any reference a value that is not plain.
 */
export function compileParameter(raw: unknown): Resolver | undefined {
	if (typeof raw === 'string' && raw.charAt(0) === '=') {
		const path = parseJsonReference(raw);
		return path && ((json) => plainValueAt(json, path));
	}
	if (raw === null || typeof raw !== 'object') return () => raw;
	if (Array.isArray(raw)) {
		const parts: Resolver[] = [];
		for (const entry of raw as unknown[]) {
			const part = compileParameter(entry);
			if (!part) return undefined;
			parts.push(part);
		}
		return (json) => {
			const result: unknown[] = [];
			for (const part of parts) {
				const value = part(json);
				if (value === MISS) return MISS;
				result.push(value);
			}
			return result;
		};
	}
	const parts: Array<[string, Resolver]> = [];
	for (const [key, entry] of Object.entries(raw)) {
		const part = compileParameter(entry);
		if (!part) return undefined;
		parts.push([key, part]);
	}
	return (json) => {
		// As n8n builds it: a plain object, each key assigned in turn.
		const result: Record<string, unknown> = {};
		for (const [key, part] of parts) {
			const value = part(json);
			if (value === MISS) return MISS;
			result[key] = value;
		}
		return result;
	};
}

/**
 * Whether two parameter values are the same: equal primitives (NaN equal to itself, 0 and -0
 * not), or arrays/objects of the same prototype with the same keys in the same order and the
 * same values.
 */
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
