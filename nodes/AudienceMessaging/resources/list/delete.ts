/** List › Delete: DELETE /lists/{listId}; outputs a confirmation (the spec shows no body). */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { optionalObjectResponse } from '../../../../src/http';
import { listLocator, previewOptions, readListId } from '../../runner/descriptions';
import { requestOperation } from '../../runner/request';
import type { Operation } from '../../runner/operation';

const deleteListFields: INodeProperties[] = [listLocator(), previewOptions()];

export const deleteList = requestOperation({
	fields: deleteListFields,
	values: ({ context, itemIndex }) => ({ listId: readListId(context, itemIndex) }),
	request: {
		base: 'lists',
		method: 'DELETE',
		path: '/lists/{listId}',
		action: 'delete list {listId}',
		expect: optionalObjectResponse,
	},
	output: (data, { listId }) => ({ listId, deleted: true, ...(data as IDataObject) }),
});

export const operation: Operation = {
	option: {
		name: 'Delete',
		value: 'delete',
		action: 'Delete a list',
		description: 'Delete a list and its subscribers',
	},
	fields: deleteListFields,
	run: deleteList,
};
