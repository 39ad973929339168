import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { apiError, redacted, redirectError, transportError, unexpectedAnswer } from './errors';
import {
	GATEWAY_STATUSES,
	IDEMPOTENT,
	IDEMPOTENT_RETRIES,
	NEVER_SENT_CODES,
	RETRIABLE_CODES,
	errorCode,
	isWrite,
} from './failures';
import { acceptedUnreadable, maybeApplied, notSentError } from './outcomes';
import { isStreamedBody } from './multipart';
import type { StreamedBody } from './multipart';
import { RequestPreview, previewBody, previewUrl, sentInPreview } from './preview';
import { backoffMs, rateLimitPauseMs } from './retry';
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

interface ApiResponse<T = unknown> {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
	/** The body as `expect` read it (2xx only); the raw body otherwise. */
	data: T;
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
 *   timeout, a gateway's 502/503/504) is never resent and fails as "may have been applied"
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
	const urlField = BASE_URL_LABEL[request.base];
	const node = context.getNode();
	const target = `${baseURL}${request.path}`;
	const run = runState(context);
	if (run.preview && !sentInPreview(request.method)) {
		throw new RequestPreview({
			method: request.method,
			url: previewUrl(baseURL, request.path, request.qs, secrets),
			body: redacted(previewBody(request.body, request.preview), secrets),
		});
	}
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
		timeout: timeoutMs,
		disableFollowRedirect: true,
		sendCredentialsOnCrossOriginRedirect: false,
	};
	const { gate } = run;
	const idempotent = IDEMPOTENT.includes(request.method) && !isStreamedBody(request.body);
	const write = isWrite(request.method);
	const budget = {
		waitedMs: () => gate.lostMs(),
		budgetMs: gate.waitBudgetMs,
		option: run.waitOption,
	};
	let retries = 0;
	let lastRefusal: { statusCode: number; body: unknown } | undefined;
	for (;;) {
		const ticket = await gate.acquire();
		if (ticket === undefined)
			throw notSentError(node, {
				itemIndex: request.itemIndex,
				action: request.action,
				...budget,
				response: lastRefusal,
				secrets,
			});
		const sentAt = gate.pacer.clock.now();
		let response: Omit<ApiResponse, 'data'>;
		try {
			// The run's credential goes along, so n8n does not load and decrypt it again for every
			// request.
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				options,
				{ credentialsDecrypted: credentials },
			)) as Omit<ApiResponse, 'data'>;
		} catch (error) {
			const code = errorCode(error);
			if (idempotent && retries < IDEMPOTENT_RETRIES && RETRIABLE_CODES.includes(code)) {
				await sleep(backoffMs(++retries));
				continue;
			}
			const where = { itemIndex: request.itemIndex, timeoutMs, secrets, urlField };
			if (write && !NEVER_SENT_CODES.has(code))
				throw maybeApplied(node, {
					...where,
					action: request.action,
					reconcile: request.reconcile,
					error,
					target,
				});
			throw transportError(node, error, target, { ...where, sent: !NEVER_SENT_CODES.has(code) });
		}
		const { statusCode } = response;
		// When the request started and the platform second its answer is dated in: what the pace learns
		// from (src/pace/platform-seconds.ts).
		const answer = { sentAt, second: platformSecond(response.headers.date) };
		if (statusCode === 429) {
			lastRefusal = response;
			// The pause is the run's: every request of the run waits it out in acquire(), and it counts
			// against the run's budget (taking shared turns, only the refused request waits:
			// RateGate.pausesRequestOnly; once the platform's full second is known to end sooner, the
			// others start then, Pacer.backOff). The refused request waits its whole pause.
			const { date } = response.headers;
			const pauseMs = rateLimitPauseMs(
				response.headers['retry-after'],
				Date.now(),
				Math.random,
				date,
			);
			const resendAt = gate.pacer.clock.now() + pauseMs;
			if (gate.backOff(pauseMs, ticket, answer)) {
				// The refused request sleeps until resendAt when the run may start others sooner (only
				// ownWaitMs before acquire() let it go when the run's shorter pause ended, too early).
				const { clock } = gate.pacer;
				if (gate.ownWaitMs(resendAt) > 0) await clock.sleep(resendAt - clock.now());
				continue;
			}
			throw notSentError(node, {
				itemIndex: request.itemIndex,
				action: request.action,
				...budget,
				response,
				secrets,
			});
		}
		if (statusCode >= 500 && idempotent && retries < IDEMPOTENT_RETRIES) {
			await sleep(backoffMs(++retries));
			continue;
		}
		if (statusCode >= 300 && statusCode < 400)
			throw redirectError(node, response, target, request.itemIndex);
		if (write && GATEWAY_STATUSES.includes(statusCode)) {
			throw maybeApplied(node, {
				itemIndex: request.itemIndex,
				action: request.action,
				reconcile: request.reconcile,
				response,
				secrets,
				target,
			});
		}
		if (statusCode >= 400 && !request.acceptStatus?.(statusCode, response.body)) {
			throw apiError(node, response, {
				itemIndex: request.itemIndex,
				action: request.action,
				secrets,
				urlField,
			});
		}
		if (statusCode < 300) gate.succeeded(answer);
		if (statusCode >= 300 || !request.expect) return { ...response, data: response.body as T };
		const parsed = request.expect.safeParse(response.body);
		if (!parsed.success) {
			const problem = parsed.error.issues[0]?.message;
			if (write)
				throw acceptedUnreadable(node, {
					statusCode,
					action: request.action,
					problem,
					reconcile: request.reconcile,
					itemIndex: request.itemIndex,
				});
			throw unexpectedAnswer(node, statusCode, request.action, problem, request.itemIndex);
		}
		return { ...response, data: parsed.data };
	}
}
