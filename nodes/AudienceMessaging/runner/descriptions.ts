/** Fields and readers the operations share: list picker, paging, Options, Simplify. */
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
		// By ID first and default: the spec has no call listing lists, so From List (GET /lists)
		// may be empty. The Template picker, whose listing the spec has, opens on From List.
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

/** n8n's Return All / Limit pair of a Get Many operation (paging: src/http/pagination.ts). */
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

/** An option of a run (the first item's), such as Parallel Requests: a whole number, 1 to `max`. */
export function wholeOptionOf(
	options: Record<string, unknown>,
	name: string,
	defaultValue: number,
	max: number,
): number {
	return options[name] === undefined ? defaultValue : integer(options[name], name, { min: 1, max });
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

/** The wait budget for rate limits, read by prepareRun; unset: DEFAULT_WAIT_BUDGET_MS. */
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

/** The budget in ms from the first item's Options (undefined: not set); InputError if bad. */
export function rateLimitWaitOf(options: Record<string, unknown>): number | undefined {
	if (options.rateLimitWait === undefined) return undefined;
	return (
		integer(options.rateLimitWait, 'rateLimitWait', { min: 0, max: MAX_RATE_LIMIT_WAIT_SECONDS }) *
		1000
	);
}

const PREVIEW_NAME = 'Preview Without Sending';

/** On every write operation: no write sent, each item outputs the request it would send. */
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

/** Whether the first item's Options ask for a preview; InputError for a non-boolean. */
export function previewOf(options: Record<string, unknown>): boolean {
	return options.preview === undefined ? false : boolean(options.preview, 'preview');
}

/** An operation's Options collection; `show`: its own conditions (resourceOf adds the rest). */
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

/** The Options of a write operation whose only option is Preview Without Sending. */
export function previewOptions(): INodeProperties {
	return optionsCollection([previewOption()]);
}
