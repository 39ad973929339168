import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { notSent, readAnswer, resendsAfter, transportFailure, waitOutRateLimit } from './attempt';
import type { ApiResponse, Attempt, RawResponse } from './attempt';
import { redacted } from '../base/secrets';
import { IDEMPOTENT, IDEMPOTENT_RETRIES, isWrite } from './failures';
import { isStreamedBody } from './multipart';
import type { StreamedBody } from './multipart';
import { RequestPreview, previewBody, previewUrl, sentInPreview } from './preview';
import { backoffMs } from './retry';
import { outsideRequest } from './outside';
import type { OutsideRequest, OutsideResponse } from './outside';
import { runState } from './run';
import { platformSecond } from '../pace/platform-seconds';
import { BASE_URL_LABEL, CREDENTIAL_TYPE, baseUrlOf } from './endpoints';
import type { ApiBase, RequestContext } from './endpoints';

export interface ApiRequest<T = unknown> {
	base: ApiBase;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | Buffer | StreamedBody;
	headers?: Record<string, string>;
	itemIndex?: number;
	/** What the request does, in words, for error messages ("import the CSV into list 42"). */
	action: string;
	/** The shape a 2xx body must have; a body that does not fit is an error, never an item. */
	expect?: ZodType<T, ZodTypeDef, unknown>;
	/**
	 * Non-2xx statuses the caller reads itself instead of getting an error (Blacklist Check's 404).
	 */
	acceptStatus?: (statusCode: number, body: unknown) => boolean;
	/**
	 * How a user finds out whether a write whose answer was lost was applied ("look for External
	 * ID n8n12 in the platform's message reports"): said in the "may have been applied" error.
	 */
	reconcile?: string;
	/** What a preview shows instead of a file body (its name, size, rows and check report). */
	preview?: IDataObject;
	/** Values besides the key kept out of previews and errors (a callback URL's token). */
	secrets?: string[];
}

/**
 * The one request helper: n8n's httpRequestWithAuthentication (which adds the Bearer header and
 * honours n8n's proxy settings) with the rules every request of the package follows:
 * - a timeout (the credential's Request Timeout);
 * - redirects are not followed: a 3xx is an error naming its target, so the key never goes to
 *   another address;
 * - every request of a run goes through the run's RateGate (configureRun): a 429 pauses and
 *   slows the whole run, and is resent after Retry-After (at least 1 s, with jitter) while the
 *   run's wait budget lasts; once it is spent, nothing more of the run is sent (notSentError);
 * - a 5xx or dropped connection is resent only for GET, HEAD and DELETE, twice at most;
 * - a write (POST) whose answer was lost after it may have reached the platform (a reset, a
 *   timeout, an HTTP 500, a gateway's 502/503/504) is never resent and fails as "may have been applied"
 *   (maybeApplied, outcome `unknown`);
 * - an HTTP error becomes a NodeApiError with the status and the platform's message;
 * - a 2xx body is checked against `expect` and refused when it does not fit; for a write, the
 * platform accepted the request, so it fails as "accepted, answer unreadable" (outcome `accepted`);
 * - in a preview run (configureRun), anything but a read is not sent: it throws a RequestPreview
 *   saying what would have gone (method, URL, body), before the run's pace or a file is touched.
 */
export async function apiRequest<T = unknown>(
	context: RequestContext,
	request: ApiRequest<T>,
): Promise<ApiResponse<T>>;
/** To an address outside the platform (`url`): without the credential or the run's pace (outside.ts). */
export async function apiRequest(
	context: RequestContext,
	request: OutsideRequest,
): Promise<OutsideResponse>;
export async function apiRequest<T = unknown>(
	context: RequestContext,
	request: ApiRequest<T> | OutsideRequest,
): Promise<ApiResponse<T> | OutsideResponse> {
	if ('url' in request) {
		const timeoutMs = request.timeoutMs ?? (await baseUrlOf(context, 'messaging')).timeoutMs;
		return await outsideRequest(context, { ...request, timeoutMs });
	}
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
		urlField: BASE_URL_LABEL[request.base],
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
		const sentAt = gate.pacer.clock.now();
		let response: RawResponse;
		try {
			// The run's credential goes along, so n8n does not load and decrypt it again for every
			// request.
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				options,
				{ credentialsDecrypted: credentials },
			)) as RawResponse;
		} catch (error) {
			if (!resendsAfter(attempt, error, retries)) throw transportFailure(attempt, error);
			await sleep(backoffMs(++retries));
			continue;
		}
		const { statusCode } = response;
		// When the request started and the platform second its answer is dated in: what the pace learns
		// from (src/pace/platform-seconds.ts).
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

/**
 * n8n's request options for one platform request: JSON, the credential's timeout, no redirect
 * followed (so the key never goes to another address), every status answered (read here).
 */
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
