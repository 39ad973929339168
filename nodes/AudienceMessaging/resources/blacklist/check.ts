/** Blacklist › Check: GET /subscribers; outputs the entry, blacklisted true or false. */
import type { IDataObject } from 'n8n-workflow';

import { blacklistLookupQuery, blacklistLookupQuerySchema } from '../../../../src/platform';
import { identifiedObjectResponse, isRecord } from '../../../../src/http';
import type { Operation } from '../../runner/operation';
import { requestOperation } from '../../runner/request';
import { checkFields, blacklistParameters, both } from './fields';

/** An unlisted recipient: a 404 with a JSON object body. Any other error stays an error. */
const isJsonNotFound = (statusCode: number, body: unknown) => statusCode === 404 && isRecord(body);

/** An entry must carry data.id (the spec); a JSON 404 is `blacklisted: false`, to branch on. */
const checkBlacklist = requestOperation({
	...both,
	values: (item) =>
		blacklistLookupQuerySchema.parse(blacklistLookupQuery(blacklistParameters(item, 'check'))),
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
