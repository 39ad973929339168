/** Parameters read per item: constants once per run, plain `$json` references from the item. */
import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

import { MISS, compileParameter, sameValue } from '../../../src/base';

const hasExpression = (value: unknown): boolean => {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	return !!value && typeof value === 'object' && Object.values(value).some(hasExpression);
};

/**
 * n8n's getNodeParameter after evaluating, for the options the fast path takes: `extractValue` of a
 * locator `{ mode, value }` is its `value` (no mode of this node has an extractValue regex); no
 * property has `validateType`, so `skipValidation` does not matter. Other options are n8n's.
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
 * Per item, plain `$json` references are read from the item's JSON (what n8n's `$json` reads) when
 * a string, finite number or boolean; anything else goes through getNodeParameter. The first item
 * so read is also evaluated by n8n: if they differ (or n8n throws), the parameter goes through n8n
 * for the rest of the run, so the fast path can never give another value.
 */
function expressionReader(
	context: IExecuteFunctions,
	raw: unknown,
	evaluate: (itemIndex: number) => unknown,
	options?: IGetNodeParameterOptions,
): (itemIndex: number) => unknown {
	const resolve = compileParameter(raw);
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
 * A parameter read per item, or read and derived once when it holds no expression: n8n would give
 * every item the same value, at a deep copy and a schema check per read. Plain item references are
 * read from the item (expressionReader). `derive` may throw an InputError; its value may be shared
 * by the items, so it must not be mutated.
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

/** getNodeParameter through one rawPerItem reader per parameter and run: never mutate the value. */
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

/** An item's parameter by name, or `fallback` when it is not set. */
export type Reader = (name: string, itemIndex: number, fallback?: unknown) => unknown;

export function parameterReader(context: IExecuteFunctions): Reader {
	return (name, itemIndex, fallback) => readParameter(context, name, itemIndex, fallback);
}
