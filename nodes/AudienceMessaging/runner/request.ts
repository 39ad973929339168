/** Request descriptors: an operation of one request (or paged ones) per item, as data. */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { apiRequest, fetchPages } from '../../../src/http';
import type { ApiRequest } from '../../../src/http';
import type { FieldLabels } from '../../../src/base';
import { runOptions, runPerItem } from './execute';
import { fieldLabels } from './labels';
import type { FieldAliases } from './labels';
import { readParameter } from './parameters';

/** What `values` reads an item with: its parameters (readParameter) and the run's context. */
export interface ItemReader {
	readonly context: IExecuteFunctions;
	readonly itemIndex: number;
	parameter(name: string, fallback?: unknown): unknown;
}

/**
 * Like n8n's `routing`, but every item is read and checked before the first request (routing
 * sends item 0 before it reads item 1):
 * - `values` reads and checks one item, its InputError or ZodError naming the field as `fields`
 *   show it (through `aliases` where the path is not the field's own: fieldLabels);
 * - `request`: `{name}` in `path` (URL-encoded) and `action` is a value; `qs`, `body` from values;
 * - `pages` makes it a paged Get Many (the values carry Return All and Limit);
 * - `output` shapes the answer's data into the item's output (default: the data as it is).
 */
interface RequestDescriptor<V extends object> {
	/** The operation's fields, as the node's description holds them: errors name their labels. */
	fields: readonly INodeProperties[];
	aliases?: FieldAliases;
	values: (item: ItemReader) => V;
	request: {
		base: ApiRequest['base'];
		method: IHttpRequestMethods;
		path: string;
		qs?: (values: V) => IDataObject;
		body?: (values: V) => IDataObject;
		action: string;
		reconcile?: string;
		expect?: ZodType<unknown, ZodTypeDef, unknown>;
		/** Non-2xx statuses the output reads itself (Blacklist › Check's 404). */
		acceptStatus?: (statusCode: number, body: unknown) => boolean;
	};
	pages?: { pageSize: number; maxPageSize: number };
	output?: (data: unknown, values: V, statusCode: number) => IDataObject | IDataObject[];
	/** Items sent at the same time, from the run's Options (runOptions; default 1). */
	concurrency?: (
		context: IExecuteFunctions,
		labels: FieldLabels,
		options: Record<string, unknown>,
	) => number;
	/** Whether the operation's Options hold "Max Wait When Rate Limited". */
	rateLimitWaitOption?: boolean;
}

/** `{name}` replaced by its value (through `encode`); a name the values lack: a descriptor bug. */
export function fillTemplate(
	template: string,
	values: object,
	encode: (text: string) => string = (text) => text,
): string {
	return template.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = (values as Record<string, unknown>)[name];
		if (value === undefined || value === null || typeof value === 'object')
			throw new Error(
				`The request template "${template}" names "${name}", which the operation's values do not hold as text`,
			);
		return encode(String(value as string | number | boolean));
	});
}

/**
 * The executor of a described operation, as the node's resource maps hold executors: every item's
 * values first, then its request (or its pages).
 */
export function requestOperation<V extends object>(
	descriptor: RequestDescriptor<V>,
): (this: IExecuteFunctions) => Promise<INodeExecutionData[][]> {
	const { request } = descriptor;
	return async function (this: IExecuteFunctions) {
		const labels = fieldLabels(descriptor.fields, descriptor.aliases);
		const options = runOptions(this, labels);
		return await runPerItem<V>(this, {
			labels,
			options,
			concurrency: descriptor.concurrency?.(this, labels, options),
			rateLimitWaitOption: descriptor.rateLimitWaitOption,
			prepare: (itemIndex) =>
				descriptor.values({
					context: this,
					itemIndex,
					parameter: (name, fallback) => readParameter(this, name, itemIndex, fallback),
				}),
			send: async (values, itemIndex) => {
				const built: ApiRequest = {
					base: request.base,
					method: request.method,
					path: fillTemplate(request.path, values, encodeURIComponent),
					...(request.qs ? { qs: request.qs(values) } : {}),
					...(request.body ? { body: request.body(values) } : {}),
					itemIndex,
					action: fillTemplate(request.action, values),
					...(request.reconcile ? { reconcile: fillTemplate(request.reconcile, values) } : {}),
					...(request.acceptStatus ? { acceptStatus: request.acceptStatus } : {}),
					// A paged request's pages are a collection (fetchPages' own expect).
					...(request.expect ? { expect: request.expect } : {}),
				};
				if (descriptor.pages) {
					const { returnAll, limit } = values as { returnAll?: boolean; limit?: number };
					const items = await fetchPages(this, built, {
						returnAll: returnAll === true,
						limit: limit ?? Infinity,
						...descriptor.pages,
					});
					return descriptor.output ? descriptor.output(items, values, 200) : items;
				}
				const response = await apiRequest(this, built);
				return descriptor.output
					? descriptor.output(response.data, values, response.statusCode)
					: (response.data as IDataObject);
			},
		});
	};
}
