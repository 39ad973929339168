import type { IDataObject } from 'n8n-workflow';

import { blacklistLookupQuery, blacklistLookupQuerySchema } from '../../../../src/platform';
import { identifiedObjectResponse, isRecord } from '../../../../src/http';
import type { Operation } from '../../shared/operation';
import { requestOperation } from '../../shared/request';
import { checkFields, blacklistParameters, both, read } from './fields';

/**
 * "Not found" for a lookup: a 404 with a JSON object body, the platform's answer for an unlisted
 * recipient. Any other error stays an error.
 */
const isJsonNotFound = (statusCode: number, body: unknown) => statusCode === 404 && isRecord(body);

/**
 * Blacklist > Check: GET /subscribers. Outputs the entry with `blacklisted: true` (the answer
 * must carry data.id, as the spec says), or `blacklisted: false` when the platform answers that
 * the recipient is not found (a JSON 404), so a workflow can branch on it.
 */
const checkBlacklist = requestOperation({
	...both,
	values: (item) =>
		blacklistLookupQuerySchema.parse(
			blacklistLookupQuery(blacklistParameters(read(item), item.itemIndex, 'check')),
		),
	request: {
		base: 'messaging',
		method: 'GET',
		path: '/subscribers',
		qs: (qs) => qs,
		action: 'check {to} in the blacklist of {from}',
		acceptStatus: isJsonNotFound,
		expect: identifiedObjectResponse,
	},
	output: (data, { to, from, type }, statusCode) =>
		statusCode === 404
			? { blacklisted: false, to, from, type }
			: { blacklisted: true, to, from, type, ...(data as IDataObject) },
});

/** Blacklist › Check. */
export const operation: Operation = {
	option: {
		name: 'Check',
		value: 'check',
		action: 'Check whether a recipient is blacklisted',
		description: "Look a recipient up in the sender's blacklist; outputs blacklisted true or false",
	},
	fields: checkFields,
	run: checkBlacklist,
};
