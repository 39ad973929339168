import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiRequest, responseItems } from '../../../src/transport';

/**
 * Lists of the account for the list picker. The spec has no list-listing endpoint; this uses
 * GET /lists with page/limit/name (the sandbox's choice) and falls back to an empty result,
 * so "By ID" still works where an account does not offer it.
 */
export async function searchLists(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const qs: IDataObject = { page, limit: 100 };
	if (filter) qs.name = filter;
	try {
		const response = await apiRequest.call(this, { base: 'lists', method: 'GET', path: '/lists', qs, action: 'list the lists of the account' });
		const body = response.body as IDataObject;
		const needle = filter?.toLowerCase();
		const results = responseItems(body)
			.filter((list) => !needle || String(list.name ?? '').toLowerCase().includes(needle) || String(list.id) === filter)
			.map((list) => ({ name: `${String(list.name ?? 'Unnamed list')} (#${String(list.id)})`, value: String(list.id) }));
		const pagination = body.pagination as IDataObject | undefined;
		const hasMore = pagination && Number(pagination.page ?? page) < Number(pagination.pages ?? 0);
		return { results, paginationToken: hasMore ? String(page + 1) : undefined };
	} catch (error) {
		if (error instanceof NodeApiError && ['404', '405'].includes(String(error.httpCode))) return { results: [] };
		throw error;
	}
}

/** Wallet templates of the account for the template picker (GET /v2/wallet/templates, by name). */
export async function searchWalletTemplates(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const response = await apiRequest.call(this, {
		base: 'wallet',
		method: 'GET',
		path: '/v2/wallet/templates',
		qs: { page, limit: 100, sort: '+name', select: 'serial,name' },
		action: 'list the wallet templates of the account',
	});
	const body = response.body as IDataObject;
	const needle = filter?.toLowerCase();
	const results = responseItems(body)
		.filter((template) => !needle || `${String(template.name)} ${String(template.serial)}`.toLowerCase().includes(needle))
		.map((template) => ({ name: `${String(template.name ?? template.serial)} (${String(template.serial)})`, value: String(template.serial) }));
	const pagination = body.pagination as IDataObject | undefined;
	const hasMore = pagination && Number(pagination.page ?? page) < Number(pagination.pages ?? 0);
	return { results, paginationToken: hasMore ? String(page + 1) : undefined };
}
