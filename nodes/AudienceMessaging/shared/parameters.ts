import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

import { MISS, compileParameter, sameValue } from '../../../src/base';

/**
 * Whether a parameter that is a plain reference to the item's own data (`={{ $json.email }}`) is
 * read from the item instead of through n8n's expression engine (src/base/expressions.ts). Only
 * for measuring the difference: the results are the same either way.
 */
const FAST_PATH = true;

const hasExpression = (value: unknown): boolean => {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	return !!value && typeof value === 'object' && Object.values(value).some(hasExpression);
};

/**
 * What n8n's getNodeParameter does after evaluating, for the options the fast path takes:
 * `extractValue` of a resource locator `{ mode, value }` whose mode has no `extractValue` regex
 * (none of this node's modes has one) is its `value`, and anything else is kept as it is; the
 * schema check changes nothing (no property of the node has `validateType`), so `skipValidation`
 * does not matter. Other options (`ensureType`, `rawExpressions`, `contextNode`) are left to n8n.
 */
function postProcessing(
	options: IGetNodeParameterOptions | undefined,
): ((value: unknown) => unknown) | undefined {
	const handled = new Set(['extractValue', 'skipValidation']);
	if (
		Object.entries(options ?? {}).some(
			([option, value]) => !handled.has(option) && value !== undefined,
		)
	)
		return undefined;
	if (!options?.extractValue) return (value) => value;
	return (value) =>
		value !== null && typeof value === 'object' && 'mode' in value && 'value' in value
			? value.value
			: value;
}

/**
 * The reader of a parameter holding expressions: per item, each plain `$json` reference is read
 * from the item (`getInputData()[itemIndex].json`, the items n8n's `$json` reads) when its value
 * there is a string, a finite number or a boolean; any other item, and any parameter holding some
 * other expression, goes through n8n's getNodeParameter. The first item read from its data is
 * also evaluated by n8n: when the two differ (or n8n throws), the parameter goes through n8n for
 * the rest of the run, so nothing in this node's setup can make the fast path give another value.
 */
function expressionReader(
	context: IExecuteFunctions,
	raw: unknown,
	evaluate: (itemIndex: number) => unknown,
	options?: IGetNodeParameterOptions,
): (itemIndex: number) => unknown {
	const resolve = FAST_PATH ? compileParameter(raw) : undefined;
	const after = postProcessing(options);
	if (!resolve || !after) return evaluate;
	const items = context.getInputData();
	let state: 'unchecked' | 'checked' | 'off' = 'unchecked';
	return (itemIndex) => {
		if (state === 'off') return evaluate(itemIndex);
		const resolved = resolve(items[itemIndex]?.json);
		if (resolved === MISS) return evaluate(itemIndex);
		const value = after(resolved);
		if (state === 'checked') return value;
		state = 'off';
		const expected = evaluate(itemIndex);
		if (sameValue(value, expected)) state = 'checked';
		return expected;
	};
}

/**
 * A parameter read for each item, or read (and derived) once for the whole run when it holds no
 * expression: n8n would give every item the same value, and reading a parameter costs a deep
 * copy and a schema check each time. A parameter made of plain references to the item's data is
 * read from the item (see expressionReader). `derive` turns the raw value into what the operation
 * uses (and may throw an InputError); a derived value is shared by the items, so it must not be
 * mutated.
 */
export function perItem<T>(
	context: IExecuteFunctions,
	name: string,
	derive: (value: unknown) => T,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): (itemIndex: number) => T {
	const evaluate = (itemIndex: number) =>
		context.getNodeParameter(name, itemIndex, fallback, options);
	const raw = context.getNode().parameters[name];
	if (hasExpression(raw)) {
		const read = expressionReader(context, raw, evaluate, options);
		return (itemIndex) => derive(read(itemIndex));
	}
	let constant: { value: T } | undefined;
	return (itemIndex) => (constant ??= { value: derive(evaluate(itemIndex)) }).value;
}

/** perItem without a derivation: the raw value. */
export const rawPerItem = (
	context: IExecuteFunctions,
	name: string,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
) => perItem(context, name, (value) => value, fallback, options);

/** The readers of a run (one execution context), by parameter, fallback and options. */
const runReaders = new WeakMap<object, Map<string, (itemIndex: number) => unknown>>();

/**
 * getNodeParameter for per-item reads, through one rawPerItem reader per parameter for the run:
 * constant parameters are read once, plain `$json` references from the items. The value may be
 * shared by the items, so it must not be mutated.
 */
export function readParameter(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): unknown {
	let readers = runReaders.get(context);
	if (!readers) runReaders.set(context, (readers = new Map()));
	const key =
		options || fallback !== undefined
			? `${name}\u0000${JSON.stringify({ fallback, options })}`
			: name;
	let reader = readers.get(key);
	if (!reader) readers.set(key, (reader = rawPerItem(context, name, fallback, options)));
	return reader(itemIndex);
}

/** readParameter bound to a run's context. */
export function parameterReader(
	context: IExecuteFunctions,
): (name: string, itemIndex: number, fallback?: unknown) => unknown {
	return (name, itemIndex, fallback) => readParameter(context, name, itemIndex, fallback);
}
