import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { fetchPages } from '../../../../src/pagination';
import { listLocator, pageLabels, readListId, readReturnAllAndLimit, returnAllAndLimit } from '../../shared/descriptions';
import { runPerItem } from '../../shared/execute';

const show = { resource: ['subscriber'], operation: ['getMany'] };

/** GET /lists/{listId}/subscribers takes page/limit (a choice: the spec shows no paging for it). */
const PAGE_SIZE = 1000;
const MAX_PAGE_SIZE = 1000;

export const getManySubscribersFields: INodeProperties[] = [listLocator({ show }), ...returnAllAndLimit(show)];

/** Subscriber > Get Many: one output item per subscriber, paged. */
export async function getManySubscribers(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPerItem(this, {
		labels: { listId: 'List', ...pageLabels },
		prepare: (itemIndex) => ({ listId: readListId(this, itemIndex), ...readReturnAllAndLimit(this, itemIndex) }),
		send: async ({ listId, returnAll, limit }, itemIndex) =>
			await fetchPages(
				this,
				{ base: 'lists', method: 'GET', path: `/lists/${encodeURIComponent(listId)}/subscribers`, itemIndex, action: `get the subscribers of list ${listId}` },
				{ returnAll, limit, pageSize: PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE },
			),
	});
}
