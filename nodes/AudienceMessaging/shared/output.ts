import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData, PostReceiveAction } from 'n8n-workflow';

import { responseData, responseItems } from '../../../src/transport';

/** postReceive: the response's `data` object as the item. */
export const outputData: PostReceiveAction = async function (this: IExecuteSingleFunctions, _items, response) {
	return [{ json: responseData(response.body) }];
};

/** postReceive: one item per element of `items` (or `data`, or a bare array), since collection shapes vary. */
export const outputItems: PostReceiveAction = async function (this: IExecuteSingleFunctions, _items, response) {
	return responseItems(response.body).map((json): INodeExecutionData => ({ json: json as IDataObject }));
};
