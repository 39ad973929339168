import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties, PostReceiveAction } from 'n8n-workflow';

import { apiError } from '../../../../src/errors';
import { blacklistAddBody, blacklistLookupQuery } from '../../../../src/mapping/blacklist';
import { blacklistAddRequestSchema, blacklistLookupQuerySchema } from '../../../../src/schemas/blacklist';
import { baseUrlExpression, responseData } from '../../../../src/transport';
import { jsonBodyFrom, throwOnPlatformError, validated } from '../../shared/hooks';
import { outputData } from '../../shared/output';
import { blacklistFields, blacklistLabels, blacklistParameters } from './fields';

const addBody = jsonBodyFrom(blacklistLabels, blacklistAddRequestSchema, (context) => blacklistAddBody(blacklistParameters(context)));

async function lookupQuery(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	requestOptions.qs = validated(this, this.getItemIndex(), blacklistLabels, () => blacklistLookupQuery(blacklistParameters(this)), blacklistLookupQuerySchema);
	return requestOptions;
}

/**
 * Check's output: the entry with `blacklisted: true`, or `blacklisted: false` when the platform
 * answers that the recipient is not found (a JSON 404), so a workflow can branch on it.
 */
const blacklistStatus: PostReceiveAction = async function (this: IExecuteSingleFunctions, _items, response) {
	const lookup = blacklistLookupQuery(blacklistParameters(this));
	const notFound = response.statusCode === 404 && !!response.body && typeof response.body === 'object';
	if (notFound) return [{ json: { blacklisted: false, to: lookup.to, from: lookup.from, type: lookup.type } }];
	if (response.statusCode >= 400) throw apiError(this.getNode(), response, { itemIndex: this.getItemIndex(), action: `check ${lookup.to}` });
	return [{ json: { blacklisted: true, to: lookup.to, from: lookup.from, type: lookup.type, ...(responseData(response.body) as IDataObject) } }];
};

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
			routing: {
				request: { method: 'POST', baseURL: baseUrlExpression('messaging'), url: '/subscribers' },
				send: { preSend: [addBody] },
				output: { postReceive: [throwOnPlatformError, outputData] },
			},
		},
		{
			name: 'Check',
			value: 'check',
			action: 'Check whether a recipient is blacklisted',
			description: "Look a recipient up in the sender's blacklist; outputs blacklisted true or false",
			routing: {
				request: { method: 'GET', baseURL: baseUrlExpression('messaging'), url: '/subscribers' },
				send: { preSend: [lookupQuery] },
				output: { postReceive: [blacklistStatus] },
			},
		},
	],
};

export { blacklistFields };
