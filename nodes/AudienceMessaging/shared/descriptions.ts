import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { boolean, integer, parsed } from '../../../src/base';
import { listIdSchema } from '../../../src/platform';
import { readParameter } from './parameters';

/** The list picker used by every list-scoped operation: from the account's lists, or by ID. */
export function listLocator(extra: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'List',
		name: 'listId',
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		required: true,
		description: 'The subscriber list to work on',
		// By ID first and by default: the spec has no call listing lists, so From List (GET /lists) is
		// empty on an account that offers only the spec. The Template picker, whose listing the spec
		// has, opens on From List.
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 42',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*\\d+\\s*$',
							errorMessage: 'A list ID is a whole number, for example 42',
						},
					},
				],
			},
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a list...',
				typeOptions: { searchListMethod: 'searchLists', searchable: true },
			},
		],
		...extra,
	};
}

/**
 * n8n's Return All / Limit pair of a Get Many operation (paging is done by src/http/pagination).
 */
export function returnAllAndLimit(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

/** The list of an item's resource locator, as a list ID (an expression may yield anything). */
export function readListId(context: IExecuteFunctions, itemIndex: number): string {
	return parsed(
		listIdSchema,
		readParameter(context, 'listId', itemIndex, undefined, { extractValue: true }),
		'listId',
	);
}

interface PageRequest {
	returnAll: boolean;
	limit: number;
}

/** Return All and Limit of an item: Limit a whole number of at least 1. */
export function readReturnAllAndLimit(context: IExecuteFunctions, itemIndex: number): PageRequest {
	const returnAll = boolean(readParameter(context, 'returnAll', itemIndex, false), 'returnAll');
	const limit = returnAll
		? Infinity
		: integer(readParameter(context, 'limit', itemIndex, 50), 'limit', { min: 1 });
	return { returnAll, limit };
}

/** The Options › Parallel Requests field: requests in flight at once, output order kept. */
export function parallelRequestsOption(
	defaultValue: number,
	max: number,
	what: string,
): INodeProperties {
	return {
		displayName: 'Parallel Requests',
		name: 'parallelRequests',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: max },
		default: defaultValue,
		description: `Max number of ${what} in flight at once; output order is kept, and a 429 slows the whole run down`,
	};
}

/**
 * Options › Parallel Requests of a run (from the first item's options): a whole number from 1 to
 * `max`.
 */
export function parallelRequestsOf(
	options: Record<string, unknown>,
	defaultValue: number,
	max: number,
): number {
	return options.parallelRequests === undefined
		? defaultValue
		: integer(options.parallelRequests, 'parallelRequests', { min: 1, max });
}

/** n8n's Simplify switch, for outputs of more than 10 fields. */
export function simplifyField(): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
	};
}

/** The item's Simplify switch (an expression may yield anything). */
export function readSimplify(context: IExecuteFunctions, itemIndex: number): boolean {
	return boolean(readParameter(context, 'simplify', itemIndex, true), 'simplify');
}

/** The run's wait budget option as the editor shows it (an error of the run says to raise it). */
export const RATE_LIMIT_WAIT_NAME = 'Max Wait When Rate Limited (Seconds)';
const MAX_RATE_LIMIT_WAIT_SECONDS = 86_400;

/**
 * The run's wait budget for rate limits, for the Options of an operation that sends many
 * requests. Read once, from the first item, by the shared runners (configureWaitBudget in
 * execute.ts); without it a run waits DEFAULT_WAIT_BUDGET_MS.
 */
export function rateLimitWaitOption(): INodeProperties {
	return {
		displayName: RATE_LIMIT_WAIT_NAME,
		name: 'rateLimitWait',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_WAIT_SECONDS },
		default: 60, // DEFAULT_WAIT_BUDGET_MS in seconds (n8n's lint wants a literal here)
		description:
			'Most time the run may wait in all when the platform asks it to slow down (0: do not wait); then the rest is not sent (each such item is marked notSent with On Error at Continue, else the node fails)',
	};
}

/**
 * The budget in ms from the first item's Options (undefined: the option is not set). Throws
 * InputError for a bad value.
 */
export function rateLimitWaitOf(options: Record<string, unknown>): number | undefined {
	if (options.rateLimitWait === undefined) return undefined;
	return (
		integer(options.rateLimitWait, 'rateLimitWait', { min: 0, max: MAX_RATE_LIMIT_WAIT_SECONDS }) *
		1000
	);
}

/** Options › Preview Without Sending as the editor labels it. */
const PREVIEW_NAME = 'Preview Without Sending';

/**
 * Options › Preview Without Sending, on every operation that writes: the run sends no write and
 * each item's output is the request it would send (see RequestPreview). Read once, from the first
 * item, by the shared runners (configureRunOptions in execute.ts).
 */
export function previewOption(): INodeProperties {
	return {
		displayName: PREVIEW_NAME,
		name: 'preview',
		type: 'boolean',
		default: false,
		description:
			'Whether to send nothing and output the request each item would send, checked as in a real run',
	};
}

/**
 * Whether the first item's Options ask for a preview. Throws InputError for a value that is not a
 * boolean.
 */
export function previewOf(options: Record<string, unknown>): boolean {
	return options.preview === undefined ? false : boolean(options.preview, 'preview');
}

/**
 * An operation's Options collection (n8n's "Add Option" list) holding `options`: the one way the
 * node's operations declare it. `show`: conditions of its own, beyond its resource and operation
 * (resourceOf adds those).
 */
export function optionsCollection(
	options: INodeProperties[],
	show?: Record<string, string[]>,
): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...(show ? { displayOptions: { show } } : {}),
		options,
	};
}

/**
 * The Options collection of a write operation that has no other option: Preview Without Sending.
 */
export function previewOptions(): INodeProperties {
	return optionsCollection([previewOption()]);
}
