import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ICredentialsDecrypted,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import type { ZodType, ZodTypeDef } from 'zod';

import { apiError, transportError } from './errors';
import { isStreamedBody } from './multipart';
import type { StreamedBody } from './multipart';
import type { RateGate } from './pacing';

export const CREDENTIAL_TYPE = 'audienceMessagingApi';

/** The spec's three independent base URLs and the credential field holding each. */
export type ApiBase = 'lists' | 'wallet' | 'messaging';
export const BASE_URL_FIELD: Record<ApiBase, 'listsBaseUrl' | 'walletBaseUrl' | 'baseUrl'> = {
	lists: 'listsBaseUrl',
	wallet: 'walletBaseUrl',
	messaging: 'baseUrl',
};

/** The credential field of each base, as the credential panel labels it. */
export const BASE_URL_LABEL: Record<ApiBase, string> = { lists: 'Lists Base URL', wallet: 'Wallet Base URL', messaging: 'Messaging Base URL' };

/** Seconds a request may go without an answer, when the credential does not say. */
export const DEFAULT_TIMEOUT_SECONDS = 60;
/** Total time spent waiting on 429 answers for one request, when the operation does not say. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;
/** A 429 is never resent sooner than this, whatever Retry-After says (0, a past date, nothing). */
export const MIN_RETRY_PAUSE_MS = 1_000;
/** Resends of an idempotent request (GET, HEAD, DELETE) after a 5xx or a dropped connection. */
export const IDEMPOTENT_RETRIES = 2;

const IDEMPOTENT: IHttpRequestMethods[] = ['GET', 'HEAD', 'DELETE'];
/** Connection failures worth one more try; a timeout is not one (it already took the whole timeout). */
const RETRIABLE_CODES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN'];

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
	 * On 429, wait as Retry-After says (at least MIN_RETRY_PAUSE_MS, plus jitter) and send
	 * again, for at most this long in all. Safe for every request: a 429 means it was refused.
	 */
	rateLimitWaitMs?: number;
	/** Non-2xx statuses the caller reads itself instead of getting an error (Blacklist Check's 404). */
	acceptStatus?: (statusCode: number, body: unknown) => boolean;
	/** The run's shared pace: every attempt waits for its slot, and a 429 backs off the whole run. */
	gate?: RateGate;
}

export interface ApiResponse<T = unknown> {
	statusCode: number;
	body: unknown;
	headers: Record<string, unknown>;
	/** The body as `expect` read it (2xx only); the raw body otherwise. */
	data: T;
}

type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

/**
 * The credential of one node run, read once: n8n loads a credential from its database and
 * decrypts it on every getCredentials call (about 1 ms each, measured in n8n 2.40), and a run
 * cannot change its credential. Keyed by the run's context object, so it goes with the run.
 */
const credentialsOfRun = new WeakMap<object, Promise<ICredentialsDecrypted>>();

async function runCredentials(context: RequestContext): Promise<ICredentialsDecrypted> {
	let credentials = credentialsOfRun.get(context);
	if (!credentials) {
		credentials = context.getCredentials(CREDENTIAL_TYPE).then((data) => {
			const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
			return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data };
		});
		credentialsOfRun.set(context, credentials);
		// A failed read is not kept: the next request reads again (and fails with n8n's own message).
		credentials.catch(() => credentialsOfRun.delete(context));
	}
	return await credentials;
}

/** The credential's base URL for `base`, without trailing slashes. */
export async function baseUrlOf(context: RequestContext, base: ApiBase): Promise<{ baseURL: string; timeoutMs: number; apiKey: string; credentials: ICredentialsDecrypted }> {
	const credentials = await runCredentials(context);
	const data = credentials.data ?? {};
	const seconds = Number(data.timeout);
	return {
		apiKey: String(data.apiKey ?? ''),
		baseURL: String(data[BASE_URL_FIELD[base]] ?? '').replace(/\/+$/, ''),
		timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS) * 1000,
		credentials,
	};
}

/**
 * The one request helper: n8n's httpRequestWithAuthentication (which adds the Bearer header and
 * honours n8n's proxy settings) with the rules every request of the package follows:
 * - a timeout (the credential's Request Timeout);
 * - redirects are not followed: a 3xx is an error naming its target, so the key never goes to
 *   another address;
 * - a 429 is resent after Retry-After (at least 1 s, with jitter) within a total wait budget;
 * - a 5xx or dropped connection is resent only for GET, HEAD and DELETE, twice at most;
 * - an HTTP error becomes a NodeApiError with the status and the platform's message;
 * - a 2xx body is checked against `expect` and refused when it does not fit.
 */
export async function apiRequest<T = unknown>(context: RequestContext, request: ApiRequest<T>): Promise<ApiResponse<T>> {
	const { baseURL, timeoutMs, apiKey, credentials } = await baseUrlOf(context, request.base);
	const secrets = [apiKey];
	const urlField = BASE_URL_LABEL[request.base];
	const node = context.getNode();
	const target = `${baseURL}${request.path}`;
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
	const budgetMs = request.rateLimitWaitMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
	const idempotent = IDEMPOTENT.includes(request.method) && !isStreamedBody(request.body);
	let waitedMs = 0;
	let retries = 0;
	for (;;) {
		const ticket = await request.gate?.acquire();
		let response: Omit<ApiResponse, 'data'>;
		try {
			// The run's credential goes along, so n8n does not load and decrypt it again for every request.
			response = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options, { credentialsDecrypted: credentials })) as Omit<ApiResponse, 'data'>;
		} catch (error) {
			if (idempotent && retries < IDEMPOTENT_RETRIES && RETRIABLE_CODES.includes(errorCode(error))) {
				await sleep(backoffMs(++retries));
				continue;
			}
			throw transportError(node, error, target, { itemIndex: request.itemIndex, timeoutMs, secrets, urlField });
		}
		const { statusCode } = response;
		if (statusCode === 429) {
			const pause = rateLimitPauseMs(response.headers['retry-after']);
			if (waitedMs + pause <= budgetMs) {
				// With a gate the pause is shared: the next acquire() waits it out, with every other request of the run.
				if (request.gate) request.gate.backOff(pause, ticket);
				else await sleep(pause);
				waitedMs += pause;
				continue;
			}
			throw apiError(node, response, { itemIndex: request.itemIndex, action: request.action, waitedMs, secrets });
		}
		if (statusCode >= 500 && idempotent && retries < IDEMPOTENT_RETRIES) {
			await sleep(backoffMs(++retries));
			continue;
		}
		if (statusCode >= 300 && statusCode < 400) throw redirectError(node, response, target, request.itemIndex);
		if (statusCode >= 400 && !request.acceptStatus?.(statusCode, response.body)) {
			throw apiError(node, response, { itemIndex: request.itemIndex, action: request.action, secrets, urlField });
		}
		if (statusCode < 300) request.gate?.succeeded();
		if (statusCode >= 300 || !request.expect) return { ...response, data: response.body as T };
		const parsed = request.expect.safeParse(response.body);
		if (!parsed.success) throw unexpectedAnswer(node, statusCode, request.action, parsed.error.issues[0]?.message, request.itemIndex);
		return { ...response, data: parsed.data };
	}
}


function errorCode(error: unknown): string {
	const err = (error ?? {}) as { code?: string; cause?: { code?: string } };
	return String(err.code ?? err.cause?.code ?? '');
}

const jitter = (ms: number) => Math.round(ms * 0.2 * Math.random());

/** Pause before resend n of an idempotent request: 1 s, then 2 s, plus jitter. */
function backoffMs(attempt: number): number {
	const base = MIN_RETRY_PAUSE_MS * 2 ** (attempt - 1);
	return base + jitter(base);
}

/** The pause a 429 asks for: Retry-After, never under MIN_RETRY_PAUSE_MS, plus up to 20 % jitter so parallel runs do not resend together. */
function rateLimitPauseMs(header: unknown, now = Date.now()): number {
	const asked = Math.max(MIN_RETRY_PAUSE_MS, retryAfterMs(header, now) ?? MIN_RETRY_PAUSE_MS);
	return asked + jitter(asked);
}

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
	const value = String(Array.isArray(header) ? header[0] : (header ?? '')).trim();
	if (!value) return undefined;
	if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function redirectError(node: INode, response: { statusCode: number; headers: Record<string, unknown> }, target: string, itemIndex?: number): NodeApiError {
	const location = String(response.headers.location ?? '(no Location header)');
	let resolved = location;
	try {
		resolved = new URL(location, target).toString();
	} catch {
		// keep the header as given
	}
	return new NodeApiError(
		node,
		{ message: `redirect to ${resolved}` },
		{
			httpCode: String(response.statusCode),
			message: `The platform answered with a redirect (HTTP ${response.statusCode}) to ${resolved}`,
			description:
				'Redirects are not followed, so the API key is never sent to another address. If the platform moved, put the new address in the credential\'s base URL.',
			itemIndex,
		},
	);
}

function unexpectedAnswer(node: INode, statusCode: number, action: string, problem: string | undefined, itemIndex?: number): NodeApiError {
	return new NodeApiError(
		node,
		{ message: problem ?? 'unexpected answer' },
		{
			httpCode: String(statusCode),
			message: `The platform's answer to "${action}" is not what the API specifies (HTTP ${statusCode})`,
			description: `${problem ?? 'The answer could not be read'}. Check that the credential's base URL points at the platform's API.`,
			itemIndex,
		},
	);
}
