/** apiRequest: the one request helper every request of the package goes through. */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { notSent, readAnswer, transportFailure, waitOutRateLimit } from './attempt';
import type { ApiRequest, ApiResponse, Attempt, RawResponse } from './attempt';
import { redacted } from '../base/secrets';
import { IDEMPOTENT, IDEMPOTENT_RETRIES, isWrite, resendsAfter } from './failures';
import { isStreamedBody } from './multipart';
import { RequestPreview, previewBody, previewUrl, sentInPreview } from './preview';
import { backoffMs } from './retry';
import { runState } from './run';
import { platformSecond } from '../pace/platform-seconds';
import { BASE_URL, CREDENTIAL_TYPE, baseUrlOf } from './endpoints';
import type { RequestContext } from './endpoints';

/**
 * n8n's httpRequestWithAuthentication (Bearer header, n8n's proxy settings) with the package's
 * rules (docs/operations.md, "How requests are sent"): the credential's timeout; no redirect
 * followed, so the key never goes elsewhere; the run's RateGate and wait budget for 429s
 * (configureRun); resends only for GET, HEAD and DELETE; a write whose answer was lost is never
 * resent (maybeApplied); a 2xx body must fit `expect`; in a preview run no write is sent
 * (RequestPreview), before the run's pace or a file is touched.
 */
export async function apiRequest<T = unknown>(
	context: RequestContext,
	request: ApiRequest<T>,
): Promise<ApiResponse<T>> {
	const { baseURL, timeoutMs, apiKey, credentials } = await baseUrlOf(context, request.base);
	const secrets = [apiKey, ...(request.secrets ?? [])];
	const run = runState(context);
	if (run.preview && !sentInPreview(request.method)) {
		throw new RequestPreview({
			method: request.method,
			url: previewUrl(baseURL, request.path, request.qs, secrets),
			body: redacted(previewBody(request.body, request.preview), secrets),
		});
	}
	const attempt: Attempt<T> = {
		node: context.getNode(),
		request,
		target: `${baseURL}${request.path}`,
		timeoutMs,
		secrets,
		urlField: BASE_URL[request.base].label,
		idempotent: IDEMPOTENT.includes(request.method) && !isStreamedBody(request.body),
		write: isWrite(request.method),
		run,
	};
	const options = requestOptions(request, baseURL, timeoutMs);
	const { gate } = run;
	let retries = 0;
	let lastRefusal: RawResponse | undefined;
	for (;;) {
		const ticket = await gate.acquire();
		if (ticket === undefined) throw notSent(attempt, lastRefusal);
		request.beforeEachTry?.();
		const sentAt = gate.pacer.clock.now();
		let response: RawResponse;
		try {
			// The run's credential goes along, so n8n does not load and decrypt it per request.
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				options,
				{ credentialsDecrypted: credentials },
			)) as RawResponse;
		} catch (error) {
			if (!resendsAfter(attempt.idempotent, retries, error)) throw transportFailure(attempt, error);
			await sleep(backoffMs(++retries));
			continue;
		}
		const { statusCode } = response;
		// What the pace learns from: the send time, and the platform second of the answer's Date.
		const answer = { sentAt, second: platformSecond(response.headers.date) };
		if (statusCode === 429) {
			lastRefusal = response;
			if (await waitOutRateLimit(attempt, response, ticket, answer)) continue;
			throw notSent(attempt, response);
		}
		if (statusCode >= 500 && attempt.idempotent && retries < IDEMPOTENT_RETRIES) {
			await sleep(backoffMs(++retries));
			continue;
		}
		return readAnswer(attempt, response, answer);
	}
}

/** n8n's request options for one platform request: every status comes back to be read here. */
function requestOptions(
	request: ApiRequest<unknown>,
	baseURL: string,
	timeoutMs: number,
): IHttpRequestOptions {
	return {
		method: request.method,
		baseURL,
		url: request.path,
		qs: request.qs,
		body: request.body as IHttpRequestOptions['body'],
		headers: { Accept: 'application/json', ...request.headers },
		json: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		timeout: timeoutMs,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
}
