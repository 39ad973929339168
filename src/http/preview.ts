/**
 * Preview Without Sending: the RequestPreview apiRequest throws instead of sending a write.
 *
 * Reads (GET, HEAD) still go, since a preview builds the same requests (a sender's rate and
 * quota); runPerItem and runInBatches turn the throw into the item's output.
 */
import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

import { isStreamedBody } from './multipart';

interface PreviewedRequest {
	method: IHttpRequestMethods;
	/** The full address with its query string, as sent; never a user name, password or the key. */
	url: string;
	/** The JSON body as sent, or for a file upload what describes the file (ApiRequest.preview). */
	body?: unknown;
}

export class RequestPreview extends Error {
	readonly preview = true;

	constructor(readonly request: PreviewedRequest) {
		super(`Preview: ${request.method} ${request.url} was not sent`);
	}
}

export function isRequestPreview(error: unknown): error is RequestPreview {
	return (
		error instanceof Error &&
		(error as { preview?: unknown }).preview === true &&
		typeof (error as { request?: unknown }).request === 'object'
	);
}

export function sentInPreview(method: IHttpRequestMethods): boolean {
	return method === 'GET' || method === 'HEAD';
}

/** A query value encoded as axios (n8n's request helper) does: `:$,[]` kept, a space as `+`. */
function encodeQueryValue(value: string): string {
	return encodeURIComponent(value)
		.replace(/%3A/gi, ':')
		.replace(/%24/g, '$')
		.replace(/%2C/gi, ',')
		.replace(/%20/g, '+')
		.replace(/%5B/gi, '[')
		.replace(/%5D/gi, ']');
}

/** The address as axios sends it (flat query values), without user info, every secret hidden. */
export function previewUrl(
	baseURL: string,
	path: string,
	qs: IDataObject | undefined,
	secrets: string[],
): string {
	let url = `${baseURL}${path}`;
	// Not an absolute URL: the live request would fail too; shown as it is.
	const parsed = URL.canParse(url) ? new URL(url) : undefined;
	if (parsed && (parsed.username || parsed.password)) {
		parsed.username = '';
		parsed.password = '';
		url = parsed.toString();
	}
	const pairs: string[] = [];
	for (const [name, value] of Object.entries(qs ?? {})) {
		if (value === undefined || value === null) continue;
		const key = Array.isArray(value) ? `${name}[]` : name;
		for (const one of Array.isArray(value) ? value : [value]) {
			pairs.push(
				`${encodeQueryValue(key)}=${encodeQueryValue(typeof one === 'object' ? JSON.stringify(one) : String(one as string | number | boolean))}`,
			);
		}
	}
	if (pairs.length) url += `${url.includes('?') ? '&' : '?'}${pairs.join('&')}`;
	return secrets
		.filter(Boolean)
		.reduce((shown, secret) => shown.split(secret).join('[hidden]'), url);
}

/** The body a preview shows: JSON as it is, a file upload by its description (never its bytes). */
export function previewBody(body: unknown, describeFile: IDataObject | undefined): unknown {
	if (describeFile) return describeFile;
	if (Buffer.isBuffer(body) || isStreamedBody(body))
		return { bytes: Buffer.isBuffer(body) ? body.length : body.size };
	return body;
}
