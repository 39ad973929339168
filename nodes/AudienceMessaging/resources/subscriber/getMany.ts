/** Subscriber › Get Many: a list's subscribers, one output item each, paged. */
import type { INodeProperties } from 'n8n-workflow';

import {
	listLocator,
	readListId,
	readReturnAllAndLimit,
	returnAllAndLimit,
} from '../../runner/descriptions';
import { requestOperation } from '../../runner/request';
import type { Operation } from '../../runner/operation';

/** GET /lists/{listId}/subscribers takes page/limit (a choice: the spec shows no paging for it). */
const PAGE_SIZE = 1000;
const MAX_PAGE_SIZE = 1000;

const getManySubscribersFields: INodeProperties[] = [listLocator(), ...returnAllAndLimit()];

const getManySubscribers = requestOperation({
	fields: getManySubscribersFields,
	values: ({ context, itemIndex }) => ({
		listId: readListId(context, itemIndex),
		...readReturnAllAndLimit(context, itemIndex),
	}),
	request: {
		base: 'lists',
		method: 'GET',
		path: '/lists/{listId}/subscribers',
		action: 'get the subscribers of list {listId}',
	},
	pages: { pageSize: PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE },
});

export const operation: Operation = {
	option: {
		name: 'Get Many',
		value: 'getMany',
		action: 'Get many subscribers',
		description: 'Get the subscribers of a list',
	},
	fields: getManySubscribersFields,
	run: getManySubscribers,
};
