/** The editor's pickers: the account's lists and its wallet templates (n8n's listSearch). */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, collectionResponse } from '../../../src/http';
import type { Page } from '../../../src/http';

const nextPageToken = (page: number, answer: Page) =>
	answer.pagination && answer.pagination.page < answer.pagination.pages
		? String(page + 1)
		: undefined;

/**
 * The spec has no call listing lists: GET /lists (page, limit, name) is the sandbox's choice; an
 * account without it (404, 405, 501) gets an empty result, so "By ID" still works.
 */
export async function searchLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	try {
		const { data } = await apiRequest(this, {
			base: 'lists',
			method: 'GET',
			path: '/lists',
			qs: { page, limit: 100, ...(filter ? { name: filter } : {}) },
			action: 'list the lists of the account',
			expect: collectionResponse,
		});
		const needle = filter?.toLowerCase();
		const results = data.items
			.filter(
				(list) =>
					!needle ||
					String(list.name ?? '')
						.toLowerCase()
						.includes(needle) ||
					String(list.id) === filter,
			)
			.map((list) => ({
				name: `${String(list.name ?? 'Unnamed list')} (#${String(list.id)})`,
				value: String(list.id),
			}));
		return { results, paginationToken: nextPageToken(page, data) };
	} catch (error) {
		if (error instanceof NodeApiError && ['404', '405', '501'].includes(String(error.httpCode)))
			return { results: [] };
		throw error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(this.getNode(), error as Error);
	}
}

export async function searchWalletTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = paginationToken ? Number(paginationToken) : 1;
	const { data } = await apiRequest(this, {
		base: 'wallet',
		method: 'GET',
		path: '/v2/wallet/templates',
		qs: { page, limit: 100, sort: '+name', select: 'serial,name' },
		action: 'list the wallet templates of the account',
		expect: collectionResponse,
	});
	const needle = filter?.toLowerCase();
	const results = data.items
		.filter(
			(template) =>
				!needle ||
				`${String(template.name)} ${String(template.serial)}`.toLowerCase().includes(needle),
		)
		.map((template) => ({
			name: `${String(template.name ?? template.serial)} (${String(template.serial)})`,
			value: String(template.serial),
		}));
	return { results, paginationToken: nextPageToken(page, data) };
}
