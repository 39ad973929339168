import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { blacklistAddBody, blacklistAddRequestSchema, blacklistLookupQuery, blacklistLookupQuerySchema } from '../../core/platform';
import { identifiedObjectResponse, isRecord } from '../../core/http';
import { record } from '../../core/values';
import type { FieldLabels } from '../../core/values';
import { parallelRequestsOf } from '../../shared/descriptions';
import { validated } from '../../shared/execute';
import { requestOperation } from '../../shared/request';
import type { ItemReader } from '../../shared/request';
import { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, blacklistFields, blacklistParameters } from './fields';

/** How many recipients go at once, from the first item's options (a 429 backs off the whole run: transport's run gate). */
function readConcurrency(context: IExecuteFunctions, labels: FieldLabels): number {
	return validated(context, 0, labels, () => {
		const options = record(context.getNodeParameter('options', 0, {}), 'options');
		return parallelRequestsOf(options, DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS);
	});
}

const read = ({ parameter }: ItemReader) => (name: string, _itemIndex: number, fallback?: unknown) => parameter(name, fallback);

/** What Add and Check share: their labels, recipients at once from Options, and the wait budget option. */
const both = { fields: blacklistFields, aliases: { type: 'channel' }, concurrency: readConcurrency, rateLimitWaitOption: true };

/** Blacklist > Add: POST /subscribers; outputs the entry. */
const addToBlacklist = requestOperation({
	...both,
	values: (item) => blacklistAddRequestSchema.parse(blacklistAddBody(blacklistParameters(read(item), item.itemIndex, 'add'))),
	request: { base: 'messaging', method: 'POST', path: '/subscribers', body: (body) => body, action: 'blacklist {to} for {from}', reconcile: 'check {to} with Blacklist › Check', expect: identifiedObjectResponse },
});

/** "Not found" for a lookup: a 404 with a JSON object body, the platform's answer for an unlisted recipient. Any other error stays an error. */
const isJsonNotFound = (statusCode: number, body: unknown) => statusCode === 404 && isRecord(body);

/**
 * Blacklist > Check: GET /subscribers. Outputs the entry with `blacklisted: true` (the answer
 * must carry data.id, as the spec says), or `blacklisted: false` when the platform answers that
 * the recipient is not found (a JSON 404), so a workflow can branch on it.
 */
const checkBlacklist = requestOperation({
	...both,
	values: (item) => blacklistLookupQuerySchema.parse(blacklistLookupQuery(blacklistParameters(read(item), item.itemIndex, 'check'))),
	request: { base: 'messaging', method: 'GET', path: '/subscribers', qs: (qs) => qs, action: 'check {to} in the blacklist of {from}', acceptStatus: isJsonNotFound, expect: identifiedObjectResponse },
	output: (data, { to, from, type }, statusCode) => (statusCode === 404 ? { blacklisted: false, to, from, type } : { blacklisted: true, to, from, type, ...(data as IDataObject) }),
});

export const blacklistExecutors = { add: addToBlacklist, check: checkBlacklist };

export const blacklistOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['blacklist'] } },
	default: 'add',
	options: [
		{
			name: 'Add',
			value: 'add',
			action: 'Add a recipient to a blacklist',
			description: "Add a recipient to the sender's blacklist of a channel; adding twice keeps one entry",
		},
		{
			name: 'Check',
			value: 'check',
			action: 'Check whether a recipient is blacklisted',
			description: "Look a recipient up in the sender's blacklist; outputs blacklisted true or false",
		},
	],
};

export { blacklistFields };
