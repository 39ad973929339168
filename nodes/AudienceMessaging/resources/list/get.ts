/** List › Get: GET /lists/{listId}; outputs the list (simplified unless Simplify is off). */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { identifiedObjectResponse } from '../../../../src/http';
import { simplifyList } from '../../../../src/platform';
import { listLocator, readListId, readSimplify, simplifyField } from '../../runner/descriptions';
import { requestOperation } from '../../runner/request';
import type { Operation } from '../../runner/operation';

const getListFields: INodeProperties[] = [listLocator(), simplifyField()];

export const getList = requestOperation({
	fields: getListFields,
	values: ({ context, itemIndex }) => ({
		listId: readListId(context, itemIndex),
		simplify: readSimplify(context, itemIndex),
	}),
	request: {
		base: 'lists',
		method: 'GET',
		path: '/lists/{listId}',
		action: 'get list {listId}',
		expect: identifiedObjectResponse,
	},
	output: (data, { simplify }) =>
		simplify ? simplifyList(data as IDataObject) : (data as IDataObject),
});

export const operation: Operation = {
	option: {
		name: 'Get',
		value: 'get',
		action: 'Get a list',
		description: 'Get a list with its columns, size and status',
	},
	fields: getListFields,
	run: getList,
};
