import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { Readable } from 'node:stream';

import { apiError, transportError } from './errors';

export const CREDENTIAL_TYPE = 'audienceMessagingApi';

/** The spec's three independent base URLs and the credential field holding each. */
export type ApiBase = 'lists' | 'wallet' | 'messaging';
export const BASE_URL_FIELD: Record<ApiBase, 'listsBaseUrl' | 'walletBaseUrl' | 'baseUrl'> = {
	lists: 'listsBaseUrl',
	wallet: 'walletBaseUrl',
	messaging: 'baseUrl',
};

/** Expression for declarative `baseURL`s: the credential's URL without a trailing slash. */
export function baseUrlExpression(base: ApiBase): string {
	return `={{$credentials.${BASE_URL_FIELD[base]}.replace(/\\/+$/, '')}}`;
}

export interface ApiRequest {
	base: ApiBase;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | Buffer | Readable;
	headers?: Record<string, string>;
	itemIndex?: number;
	/** What the request does, in words, for error descriptions ("import the CSV into list 42"). */
	action?: string;
	/**
	 * On 429, wait as the platform's Retry-After says and send again, for at most this long in
	 * all. Safe because a 429 means the request was refused; nothing else is ever resent.
	 */
	rateLimitWaitMs?: number;
}

export interface ApiResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

type RequestContext = IExecuteFunctions | IExecuteSingleFunctions | ILoadOptionsFunctions;

/**
 * The one request helper of custom operations: n8n's own httpRequestWithAuthentication (which
 * adds the Bearer header and honours proxy and timeout settings), HTTP errors turned into
 * NodeApiError carrying the status and the platform's message.
 */
export async function apiRequest(this: RequestContext, request: ApiRequest): Promise<ApiResponse> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const baseURL = String(credentials[BASE_URL_FIELD[request.base]] ?? '').replace(/\/+$/, '');
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL,
		url: request.path,
		qs: request.qs,
		body: request.body as IHttpRequestOptions['body'],
		headers: { Accept: 'application/json', ...request.headers },
		json: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		// The redirect follower keeps every byte of a request body to replay it; a streamed upload must not be held.
		...(isStream(request.body) ? { disableFollowRedirect: true } : {}),
	};
	let response: ApiResponse;
	let waited = 0;
	for (;;) {
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options)) as ApiResponse;
		} catch (error) {
			throw transportError(this.getNode(), error, `${baseURL}${request.path}`, { itemIndex: request.itemIndex });
		}
		const wait = response.statusCode === 429 ? retryAfterMs(response.headers['retry-after']) : undefined;
		if (wait === undefined || waited + wait > (request.rateLimitWaitMs ?? 0)) break;
		await sleep(wait);
		waited += wait;
	}
	if (response.statusCode >= 400) {
		throw apiError(this.getNode(), response, { itemIndex: request.itemIndex, action: request.action });
	}
	return response;
}

function isStream(body: unknown): body is Readable {
	return !!body && typeof (body as Readable).pipe === 'function';
}

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
	const value = String(Array.isArray(header) ? header[0] : (header ?? '')).trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `data` of a single-object response, tolerating a bare object. */
export function responseData(body: unknown): IDataObject {
	if (body && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
		return ((body as IDataObject).data ?? {}) as IDataObject;
	}
	return (body ?? {}) as IDataObject;
}

/** `items` of a collection response, tolerating `data` or a bare array. */
export function responseItems(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (body && typeof body === 'object') {
		const record = body as IDataObject;
		for (const key of ['items', 'data']) if (Array.isArray(record[key])) return record[key] as IDataObject[];
	}
	return [];
}
