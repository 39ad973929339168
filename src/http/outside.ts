/** Requests outside the platform (a media URL, the trigger's pace webhook). */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { redacted } from '../base/secrets';
import { IDEMPOTENT, IDEMPOTENT_RETRIES, errorCode, resendsAfter } from './failures';
import { RequestPreview, previewBody, previewUrl, sentInPreview } from './preview';
import { backoffMs } from './retry';
import { runState } from './run';
import type { RequestContext } from './endpoints';
import type { RawResponse } from './attempt';

/**
 * A request to an address outside the platform: no credential goes with it, it waits for no pace,
 * and the caller reads every status. Not through apiRequest: the trigger's pace webhook is asked
 * from inside the run's RateGate (SharedTurns), which apiRequest itself waits on.
 */
export interface OutsideRequest {
	url: string;
	method: IHttpRequestMethods;
	qs?: IDataObject;
	body?: IDataObject;
	headers?: Record<string, string>;
	/** The request's own timeout (the callers pass the API credential's Request Timeout). */
	timeoutMs: number;
	/** Follow redirects (a media URL's CDN); never for a request that carries a secret. */
	followRedirects?: boolean;
	/** Values to take out of a failure's message and a preview (a token in the URL). */
	secrets?: string[];
}

/** A request to an outside address that got no HTTP answer; its message holds no secret. */
class OutsideRequestFailed extends Error {
	constructor(
		message: string,
		readonly code: string,
	) {
		super(message);
		this.name = 'OutsideRequestFailed';
	}
}

/** Rules that apply outside: a timeout, redirects if asked, no preview write, resends; no pace. */
export async function outsideRequest(
	context: RequestContext,
	request: OutsideRequest,
): Promise<RawResponse> {
	const secrets = request.secrets ?? [];
	if (runState(context).preview && !sentInPreview(request.method)) {
		throw new RequestPreview({
			method: request.method,
			url: previewUrl(request.url, '', request.qs, secrets),
			body: previewBody(request.body, undefined),
		});
	}
	const options: IHttpRequestOptions = {
		method: request.method,
		url: request.url,
		qs: request.qs,
		...(request.body ? { body: request.body, json: true } : {}),
		...(request.headers ? { headers: request.headers } : {}),
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		timeout: request.timeoutMs,
		...(request.followRedirects ? {} : { disableFollowRedirect: true }),
	};
	const idempotent = IDEMPOTENT.includes(request.method);
	for (let retries = 0; ; ) {
		const response = await (context.helpers.httpRequest(options) as Promise<RawResponse>).catch(
			(error: unknown) => ({ error, code: errorCode(error) }),
		);
		if ('error' in response) {
			if (resendsAfter(idempotent, retries, response.error)) {
				await sleep(backoffMs(++retries));
				continue;
			}
			const message = (response.error as { message?: unknown } | undefined)?.message;
			throw new OutsideRequestFailed(
				redacted(String(message ?? response.code), secrets),
				response.code,
			);
		}
		if (response.statusCode >= 500 && idempotent && retries < IDEMPOTENT_RETRIES) {
			await sleep(backoffMs(++retries));
			continue;
		}
		return response;
	}
}
