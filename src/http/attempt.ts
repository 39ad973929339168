/** A platform request (ApiRequest), and one try of it: what every try shares, how it is read. */
import type { IDataObject, IHttpRequestMethods, INode } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import type { RateGate } from '../pace/gate';
import { redacted } from '../base/secrets';
import type { ApiBase } from './endpoints';
import { apiError, redirectError, transportError, unexpectedAnswer } from './errors';
import { MAYBE_APPLIED_STATUSES, NEVER_SENT_CODES, errorCode } from './failures';
import type { StreamedBody } from './multipart';
import { acceptedUnreadable, maybeApplied, notSentError } from './outcomes';
import type { RequestFacts } from './outcomes';
import { rateLimitPauseMs } from './retry';
import type { RunState } from './run';

/**
 * What apiRequest sends (api-request.ts), and how it reads the answers; what its errors name of it
 * (item, action, how to reconcile) is RequestFacts (outcomes.ts).
 */
export interface ApiRequest<T = unknown> extends RequestFacts {
	base: ApiBase;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[] | Buffer | StreamedBody;
	headers?: Record<string, string>;
	/** The shape a 2xx body must have; a body that does not fit is an error, never an item. */
	expect?: ZodType<T, ZodTypeDef, unknown>;
	/** Non-2xx statuses the caller reads itself instead of an error (Blacklist Check's 404). */
	acceptStatus?: (statusCode: number, body: unknown) => boolean;
	/** What a preview shows instead of a file body (its name, size, rows and check report). */
	preview?: IDataObject;
	/** Values besides the key kept out of previews and errors (a callback URL's token). */
	secrets?: string[];
	/** Called before each try goes out, after its wait (a 429's too): throwing, it is not sent. */
	beforeEachTry?: () => void;
}

/** The facts every try of one request shares: what it is, where it goes, what stays secret. */
export interface Attempt<T> {
	node: INode;
	request: ApiRequest<T>;
	target: string;
	timeoutMs: number;
	/** The key and the request's other secrets: kept out of every message. */
	secrets: string[];
	/** The credential field that names the base URL ("Lists Base URL"). */
	urlField: string;
	/** Sent again after a dropped connection or a 5xx (GET, HEAD, DELETE; no streamed body). */
	idempotent: boolean;
	/** A request that changes something: never sent again once it may have arrived. */
	write: boolean;
	run: RunState;
}

/** An answer as n8n's helper gives it (returnFullResponse). */
export interface RawResponse {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
}

export interface ApiResponse<T = unknown> extends RawResponse {
	/** The body as `expect` read it (2xx only); the raw body otherwise. */
	data: T;
}

/** When a request started and the platform second its answer is dated in (the pace learns). */
interface AnswerTiming {
	sentAt: number;
	second: number | undefined;
}

/** The run ran out of its wait budget for rate limits: this request is not sent (`notSent`). */
export function notSent<T>(attempt: Attempt<T>, response: RawResponse | undefined): Error {
	const { gate, waitOption } = attempt.run;
	return notSentError(attempt.node, {
		...attempt.request,
		waitedMs: () => gate.lostMs(),
		budgetMs: gate.waitBudgetMs,
		option: waitOption,
		response,
		secrets: attempt.secrets,
	});
}

/** No answer: maybeApplied for a write that may have arrived, else transportError. */
export function transportFailure<T>(attempt: Attempt<T>, error: unknown): Error {
	const { node, request, target, timeoutMs, secrets, urlField } = attempt;
	const sent = !NEVER_SENT_CODES.has(errorCode(error));
	// The request's own secrets give way to the attempt's, which hold the key too.
	const where = { ...request, timeoutMs, secrets, urlField };
	if (attempt.write && sent) return maybeApplied(node, { ...where, error, target });
	return transportError(node, error, target, { ...where, sent });
}

/**
 * A 429: the run pauses within its budget (RateGate.backOff; with shared turns only this request
 * waits) and this request waits its whole pause: true to resend, false if the budget cannot.
 */
export async function waitOutRateLimit<T>(
	attempt: Attempt<T>,
	response: RawResponse,
	ticket: Parameters<RateGate['backOff']>[1],
	answer: AnswerTiming,
): Promise<boolean> {
	const { gate } = attempt.run;
	const { date } = response.headers;
	const pauseMs = rateLimitPauseMs(response.headers['retry-after'], Date.now(), Math.random, date);
	const resendAt = gate.pacer.clock.now() + pauseMs;
	if (!gate.backOff(pauseMs, ticket, answer)) return false;
	// The run may start others sooner; acquire() alone would let this one go before resendAt.
	const { clock } = gate.pacer;
	if (gate.ownWaitMs(resendAt) > 0) await clock.sleep(resendAt - clock.now());
	return true;
}

/** Not a 429, not resent: a 3xx, a write's 5xx or an HTTP error throws; a 2xx must fit `expect`. */
export function readAnswer<T>(
	attempt: Attempt<T>,
	response: RawResponse,
	answer: AnswerTiming,
): ApiResponse<T> {
	const { node, request, secrets } = attempt;
	const { statusCode } = response;
	if (statusCode >= 300 && statusCode < 400)
		throw redirectError(node, response, attempt.target, request.itemIndex);
	if (attempt.write && MAYBE_APPLIED_STATUSES.includes(statusCode))
		throw maybeApplied(node, { ...request, response, secrets, target: attempt.target });
	if (statusCode >= 400 && !request.acceptStatus?.(statusCode, response.body))
		throw apiError(node, response, { ...request, secrets, urlField: attempt.urlField });
	if (statusCode < 300) attempt.run.gate.succeeded(answer);
	// An answer echoing the key or a token never becomes an item; its own words stay ("Bearer of").
	const body = redacted(response.body, secrets, false);
	if (statusCode >= 300 || !request.expect) return { ...response, body, data: body as T };
	const parsed = request.expect.safeParse(body);
	if (parsed.success) return { ...response, body, data: parsed.data };
	const problem = parsed.error.issues[0]?.message;
	if (attempt.write) throw acceptedUnreadable(node, { ...request, statusCode, problem });
	throw unexpectedAnswer(node, statusCode, request.action, problem, request.itemIndex);
}
