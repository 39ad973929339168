import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { identifiedObjectResponse } from '../../../../src/schemas/responses';
import { apiRequest } from '../../../../src/transport';
import { simplifyList } from '../../../../src/mapping/lists';
import { listLocator, readListId, readSimplify, simplifyField } from '../../shared/descriptions';
import { runPerItem } from '../../shared/execute';

const show = { resource: ['list'], operation: ['get'] };

export const getListFields: INodeProperties[] = [listLocator({ show }), simplifyField(show)];

/** List > Get: GET /lists/{listId}; outputs the list (simplified unless Simplify is off). */
export async function getList(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, {
		labels: { listId: 'List', simplify: 'Simplify' },
		prepare: (itemIndex) => ({ listId: readListId(this, itemIndex), simplify: readSimplify(this, itemIndex) }),
		send: async ({ listId, simplify }, itemIndex) => {
			const { data } = await apiRequest(this, { base: 'lists', method: 'GET', path: `/lists/${encodeURIComponent(listId)}`, itemIndex, action: `get list ${listId}`, expect: identifiedObjectResponse });
			return simplify ? simplifyList(data) : data;
		},
	});
}
