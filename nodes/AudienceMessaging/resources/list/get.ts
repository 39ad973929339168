import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { identifiedObjectResponse } from '../../../../src/schemas/responses';
import { apiRequest } from '../../../../src/transport';
import { listLocator, readListId } from '../../shared/descriptions';
import { runPerItem } from '../../shared/execute';

export const getListFields: INodeProperties[] = [listLocator({ show: { resource: ['list'], operation: ['get'] } })];

/** List > Get: GET /lists/{listId}; outputs the list. */
export async function getList(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, {
		labels: { listId: 'List' },
		prepare: (itemIndex) => readListId(this, itemIndex),
		send: async (listId, itemIndex) =>
			(await apiRequest(this, { base: 'lists', method: 'GET', path: `/lists/${encodeURIComponent(listId)}`, itemIndex, action: `get list ${listId}`, expect: identifiedObjectResponse }))
				.data,
	});
}
