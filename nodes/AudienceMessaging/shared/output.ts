import type { IExecuteSingleFunctions, PostReceiveAction } from 'n8n-workflow';

import { responseData } from '../../../src/transport';

/** postReceive: the response's `data` object as the item. */
export const outputData: PostReceiveAction = async function (this: IExecuteSingleFunctions, _items, response) {
	return [{ json: responseData(response.body) }];
};
