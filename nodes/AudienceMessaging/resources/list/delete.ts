import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionalObjectResponse } from '../../../../src/schemas/responses';
import { apiRequest } from '../../../../src/transport';
import { listLocator, readListId } from '../../shared/descriptions';
import { runPerItem } from '../../shared/execute';

export const deleteListFields: INodeProperties[] = [listLocator({ show: { resource: ['list'], operation: ['delete'] } })];

/** List > Delete: DELETE /lists/{listId}; the response body is not shown by the spec, so a confirmation is output. */
export async function deleteList(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, {
		labels: { listId: 'List' },
		prepare: (itemIndex) => readListId(this, itemIndex),
		send: async (listId, itemIndex) => {
			const { data } = await apiRequest(this, { base: 'lists', method: 'DELETE', path: `/lists/${encodeURIComponent(listId)}`, itemIndex, action: `delete list ${listId}`, expect: optionalObjectResponse });
			return { listId, deleted: true, ...data };
		},
	});
}
