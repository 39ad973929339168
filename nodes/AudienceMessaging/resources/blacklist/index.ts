import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { blacklistAddBody, blacklistLookupQuery } from '../../../../src/mapping/blacklist';
import { blacklistAddRequestSchema, blacklistLookupQuerySchema } from '../../../../src/schemas/blacklist';
import { identifiedObjectResponse, isRecord } from '../../../../src/schemas/responses';
import { apiRequest } from '../../../../src/transport';
import { record } from '../../../../src/coerce';
import { parallelRequestsOf } from '../../shared/descriptions';
import { runPerItem, validated } from '../../shared/execute';
import { parameterReader } from '../../shared/parameters';
import { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, blacklistFields, blacklistLabels, blacklistParameters } from './fields';

/** How many recipients go at once, from the first item's options (a 429 backs off the whole run: transport's run gate). */
function readConcurrency(context: IExecuteFunctions): { concurrency: number } {
	const parallel = validated(context, 0, blacklistLabels, () => {
		const options = record(context.getNodeParameter('options', 0, {}), 'options');
		return parallelRequestsOf(options, DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS);
	});
	return { concurrency: parallel };
}

/** Blacklist > Add: POST /subscribers; outputs the entry. */
export async function addToBlacklist(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const { concurrency } = readConcurrency(this);
	const read = parameterReader(this);
	return await runPerItem(this, {
		labels: blacklistLabels,
		concurrency,
		rateLimitWaitOption: true,
		prepare: (itemIndex) => blacklistAddRequestSchema.parse(blacklistAddBody(blacklistParameters(read, itemIndex, 'add'))),
		send: async (body, itemIndex) =>
			(await apiRequest(this, { base: 'messaging', method: 'POST', path: '/subscribers', body, itemIndex, action: `blacklist ${body.to} for ${body.from}`, reconcile: `check ${body.to} with Blacklist › Check`, expect: identifiedObjectResponse })).data,
	});
}

/** "Not found" for a lookup: a 404 with a JSON object body, the platform's answer for an unlisted recipient. Any other error stays an error. */
const isJsonNotFound = (statusCode: number, body: unknown) => statusCode === 404 && isRecord(body);

/**
 * Blacklist > Check: GET /subscribers. Outputs the entry with `blacklisted: true` (the answer
 * must carry data.id, as the spec says), or `blacklisted: false` when the platform answers that
 * the recipient is not found (a JSON 404), so a workflow can branch on it.
 */
export async function checkBlacklist(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const { concurrency } = readConcurrency(this);
	const read = parameterReader(this);
	return await runPerItem(this, {
		labels: blacklistLabels,
		concurrency,
		rateLimitWaitOption: true,
		prepare: (itemIndex) => blacklistLookupQuerySchema.parse(blacklistLookupQuery(blacklistParameters(read, itemIndex, 'check'))),
		send: async (qs, itemIndex) => {
			const { to, from, type } = qs;
			const response = await apiRequest(this, {
				base: 'messaging',
				method: 'GET',
				path: '/subscribers',
				qs,
				itemIndex,
				action: `check ${to} in the blacklist of ${from}`,
				acceptStatus: isJsonNotFound,
				expect: identifiedObjectResponse,
			});
			if (response.statusCode === 404) return { blacklisted: false, to, from, type };
			return { blacklisted: true, to, from, type, ...response.data };
		},
	});
}

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
