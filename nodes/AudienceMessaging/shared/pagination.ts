import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
} from 'n8n-workflow';

import { apiError, transportError } from '../../../src/errors';
import { CREDENTIAL_TYPE, responseItems } from '../../../src/transport';
import type { ApiResponse } from '../../../src/transport';

/**
 * Paging for collections with `page`/`limit` and a `pagination` block (page, pages). The page
 * size stays constant so page N is always the same slice; paging stops at the last page, at
 * Limit, on an empty page, or when a page repeats the previous one (a platform ignoring `page`
 * cannot make it loop). Without `pagination`, a short page is the last one.
 */
export function pageByPage(defaultPageSize: number, maxPageSize: number) {
	return async function (this: IExecutePaginationFunctions, requestData: DeclarativeRestApiSettings.ResultOptions): Promise<INodeExecutionData[]> {
		const returnAll = this.getNodeParameter('returnAll', false) as boolean;
		const limit = returnAll ? Infinity : (this.getNodeParameter('limit', 50) as number);
		const pageSize = returnAll ? defaultPageSize : Math.min(limit, maxPageSize);
		const collected: INodeExecutionData[] = [];
		let previousFirst: string | undefined;
		for (let page = 1; collected.length < limit; page++) {
			const options = {
				...requestData.options,
				qs: { ...requestData.options.qs, page, limit: pageSize },
				ignoreHttpStatusErrors: true,
				returnFullResponse: true,
			} as IHttpRequestOptions;
			let response: ApiResponse;
			try {
				response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options)) as ApiResponse;
			} catch (error) {
				throw transportError(this.getNode(), error, `${options.baseURL ?? ''}${options.url}`, { itemIndex: this.getItemIndex() });
			}
			if (response.statusCode >= 400) throw apiError(this.getNode(), response, { itemIndex: this.getItemIndex() });
			const items = responseItems(response.body);
			const first = JSON.stringify(items[0]);
			if (items.length === 0 || (page > 1 && first === previousFirst)) break;
			previousFirst = first;
			collected.push(...items.map((json) => ({ json: json as IDataObject })));
			const pagination = (response.body as IDataObject | undefined)?.pagination as IDataObject | undefined;
			const more = pagination ? Number(pagination.page) < Number(pagination.pages) : items.length >= pageSize;
			if (!more) break;
		}
		return collected.slice(0, limit);
	};
}
