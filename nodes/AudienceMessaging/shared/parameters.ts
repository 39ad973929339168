import type { IExecuteFunctions, IGetNodeParameterOptions } from 'n8n-workflow';

const hasExpression = (value: unknown): boolean => {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	return !!value && typeof value === 'object' && Object.values(value).some(hasExpression);
};

/**
 * A parameter read for each item, or read (and derived) once for the whole run when it holds no
 * expression: n8n would give every item the same value, and reading a parameter costs a deep
 * copy and a schema check each time. `derive` turns the raw value into what the operation uses
 * (and may throw an InputError); a derived value is shared by the items, so it must not be mutated.
 */
export function perItem<T>(
	context: IExecuteFunctions,
	name: string,
	derive: (value: unknown) => T,
	fallback?: unknown,
	options?: IGetNodeParameterOptions,
): (itemIndex: number) => T {
	const read = (itemIndex: number) => derive(context.getNodeParameter(name, itemIndex, fallback, options));
	if (hasExpression(context.getNode().parameters[name])) return read;
	let constant: { value: T } | undefined;
	return (itemIndex) => (constant ??= { value: read(itemIndex) }).value;
}

/** perItem without a derivation: the raw value. */
export const rawPerItem = (context: IExecuteFunctions, name: string, fallback?: unknown, options?: IGetNodeParameterOptions) =>
	perItem(context, name, (value) => value, fallback, options);

/** getNodeParameter with a perItem reader kept for each parameter name: constant parameters are read once per run. */
export function parameterReader(context: IExecuteFunctions): (name: string, itemIndex: number, fallback?: unknown) => unknown {
	const readers = new Map<string, (itemIndex: number) => unknown>();
	return (name, itemIndex, fallback) => {
		let reader = readers.get(name);
		if (!reader) readers.set(name, (reader = rawPerItem(context, name, fallback)));
		return reader(itemIndex);
	};
}
