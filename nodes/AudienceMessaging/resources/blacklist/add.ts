/** Blacklist › Add: POST /subscribers; outputs the entry. */
import { blacklistAddBody, blacklistAddRequestSchema } from '../../../../src/platform';
import { identifiedObjectResponse } from '../../../../src/http';
import type { Operation } from '../../runner/operation';
import { requestOperation } from '../../runner/request';
import { addFields, blacklistParameters, both } from './fields';

const addToBlacklist = requestOperation({
	...both,
	values: (item) =>
		blacklistAddRequestSchema.parse(blacklistAddBody(blacklistParameters(item, 'add'))),
	request: {
		base: 'messaging',
		method: 'POST',
		path: '/subscribers',
		body: (body) => body,
		action: 'blacklist {to} for {from}',
		reconcile: 'check {to} with Blacklist › Check',
		expect: identifiedObjectResponse,
	},
});

export const operation: Operation = {
	option: {
		name: 'Add',
		value: 'add',
		action: 'Add a recipient to a blacklist',
		description:
			"Add a recipient to the sender's blacklist of a channel; adding twice keeps one entry",
	},
	fields: addFields,
	run: addToBlacklist,
};
