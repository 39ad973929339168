/** fetchPages: Return All and Limit over the platform's paged collections. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { collectionResponse } from './responses';
import type { JsonRecord } from './responses';
import { apiRequest } from './api-request';
import type { ApiRequest } from './attempt';

/** Return All fails after this many pages, so pages that never end cannot make a run endless. */
export const MAX_PAGES = 1000;

interface PageOptions {
	returnAll: boolean;
	/** Results wanted when not returnAll. */
	limit: number;
	/** Page size asked for with Return All; with a limit, min(limit, maxPageSize). */
	pageSize: number;
	maxPageSize: number;
	maxPages?: number;
}

/**
 * Reads a `page`/`limit` collection to its last page (by `pagination`, else a page not exactly
 * full), an empty page or the limit. A repeated or malformed page, or more than `maxPages`, is an
 * error: never a silent cut.
 */
export async function fetchPages(
	context: IExecuteFunctions,
	request: Omit<ApiRequest, 'expect'>,
	options: PageOptions,
): Promise<JsonRecord[]> {
	const limit = options.returnAll ? Infinity : options.limit;
	const pageSize = options.returnAll ? options.pageSize : Math.min(limit, options.maxPageSize);
	const maxPages = options.maxPages ?? MAX_PAGES;
	const collected: JsonRecord[] = [];
	let previous: string | undefined;
	const stopped = (page: number, problem: string) =>
		new NodeApiError(
			context.getNode(),
			{ message: problem },
			{
				message: `Paging stopped while trying to ${request.action}: ${problem}`,
				description: `Nothing was output for this item, so no partial result is taken for a complete one (stopped at page ${page}). Use a Limit, or check the platform's paging.`,
				itemIndex: request.itemIndex,
			},
		);
	for (let page = 1; collected.length < limit; page++) {
		if (page > maxPages) {
			throw stopped(
				page,
				`the platform still had more after ${maxPages} pages (${collected.length} results); Return All stops there`,
			);
		}
		const { data } = await apiRequest(context, {
			...request,
			qs: { ...request.qs, page, limit: pageSize } as IDataObject,
			expect: collectionResponse,
			action: `${request.action}, page ${page}`,
		});
		const { items, pagination } = data;
		if (items.length === 0) break;
		const signature = JSON.stringify(items);
		if (signature === previous) {
			throw stopped(
				page,
				`page ${page} repeats page ${page - 1}: the platform seems to ignore the "page" parameter`,
			);
		}
		previous = signature;
		for (const item of items) {
			if (collected.length >= limit) break;
			collected.push(item);
		}
		const more = pagination ? pagination.page < pagination.pages : items.length === pageSize;
		if (!more) break;
	}
	return collected;
}
