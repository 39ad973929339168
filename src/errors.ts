import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';
import type { ZodError } from 'zod';

/** Labels shown to users for request fields, keyed by the dotted path zod reports. */
export type FieldLabels = Record<string, string>;

/** How a validation message names an item: n8n's itemIndex, counted from 0 as in the editor's item list. */
export function itemLabel(itemIndex: number): string {
	return `item ${itemIndex}`;
}

/** A problem with one field of one input item, raised before any request is sent. */
export function fieldError(node: INode, itemIndex: number, field: string, problem: string): NodeOperationError {
	return new NodeOperationError(node, `Invalid "${field}" in ${itemLabel(itemIndex)}: ${problem}`, {
		itemIndex,
		description: `Fix the "${field}" value of ${itemLabel(itemIndex)} and run the node again. This item was not sent to the platform.`,
	});
}

/** Turns the first zod issue into a fieldError, naming the field with its UI label where one is known. */
export function schemaError(node: INode, itemIndex: number, error: ZodError, labels: FieldLabels = {}): NodeOperationError {
	const issue = error.issues[0];
	const path = issue.path.map(String);
	return fieldError(node, itemIndex, fieldName(path, labels), issue.message);
}

/** The UI name of a field from its dotted path ("columns.1.type" -> "Columns › Type #2"). */
export function fieldName(path: string[], labels: FieldLabels): string {
	// Try the full path, then the path without array indexes, then the longest labelled prefix.
	const dotted = path.join('.');
	if (labels[dotted]) return labels[dotted];
	const generic = path.filter((p) => !/^\d+$/.test(p)).join('.');
	const indexes = path.filter((p) => /^\d+$/.test(p));
	const suffix = indexes.length ? ` #${Number(indexes[0]) + 1}` : '';
	if (labels[generic]) return `${labels[generic]}${suffix}`;
	for (let i = path.length - 1; i > 0; i--) {
		const prefix = path.slice(0, i).filter((p) => !/^\d+$/.test(p)).join('.');
		if (labels[prefix]) return `${labels[prefix]}${suffix} › ${path.slice(i).map((part) => part || '(empty name)').join('.')}`;
	}
	return dotted || 'input';
}

const MESSAGE_KEYS = ['message', 'errorMessage', 'detail', 'error_description', 'title', 'description', 'reason'];

/**
 * The platform's error body shape is not specified: take the first human message found in
 * `error`, `errors[0]`, or the top level, in that order.
 */
export function platformMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() ? body.trim().slice(0, 500) : undefined;
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const candidates: unknown[] = [record.error, Array.isArray(record.errors) ? record.errors[0] : undefined, record];
	for (const candidate of candidates) {
		if (typeof candidate === 'string' && candidate.trim()) return candidate;
		if (candidate && typeof candidate === 'object') {
			for (const key of MESSAGE_KEYS) {
				const value = (candidate as Record<string, unknown>)[key];
				if (typeof value === 'string' && value.trim()) return value;
			}
		}
	}
	return undefined;
}

const STATUS_HINTS: Record<number, string> = {
	401: 'The platform refused the API key. Check the key in the credential (Preferences > API tab) and that it has not expired or been revoked.',
	403: 'The API key is not allowed to perform this operation.',
	413: 'The upload is larger than the platform accepts.',
	429: 'The platform is rate limiting requests. Try again later.',
};

/**
 * What happened to a request that did not plainly succeed or fail, carried by its error:
 * - `unknown`: its answer was lost after it may have reached the platform; it may have been applied;
 * - `accepted`: the platform accepted it (2xx) but its answer could not be read;
 * - `notSent`: it was never sent, or the platform refused it (429), because the run's wait budget for rate limits is spent.
 */
export const OUTCOMES = ['unknown', 'accepted', 'notSent'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** The outcome an error carries, if any (see Outcome); plain failures carry none. */
export function outcomeOf(error: unknown): Outcome | undefined {
	const outcome = (error as { outcome?: unknown } | null | undefined)?.outcome;
	return (OUTCOMES as readonly unknown[]).includes(outcome) ? (outcome as Outcome) : undefined;
}

function withOutcome<E extends Error>(error: E, outcome: Outcome): E {
	Object.defineProperty(error, 'outcome', { value: outcome, enumerable: false });
	return error;
}

const seconds = (ms: number) => Math.round(ms / 1000);

/**
 * A write whose answer was lost after it may have reached the platform (a reset or a timeout
 * once connected, a gateway's 502/503/504): it may have been applied, and it was not sent again.
 */
export function maybeApplied(
	node: INode,
	options: { itemIndex?: number; action: string; reconcile?: string; target: string; response?: { statusCode: number; body: unknown }; error?: unknown; timeoutMs?: number; secrets?: string[] },
): NodeApiError {
	const secrets = options.secrets ?? [];
	let cause: string;
	// Error codes stay out of the message (NodeApiError swaps a message naming ECONNRESET for a generic one): they go to the description.
	let detail = '';
	if (options.response) {
		const said = platformMessage(redacted(options.response.body, secrets));
		cause = `a gateway in front of the platform answered HTTP ${options.response.statusCode}${said ? ` (${said.slice(0, 200)})` : ''} instead of the platform`;
	} else {
		const err = (options.error ?? {}) as { code?: string; message?: string; cause?: { code?: string } };
		const code = err.code ?? err.cause?.code ?? 'REQUEST_FAILED';
		const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(String(err.message));
		cause = timedOut && options.timeoutMs
			? `no answer came within ${options.timeoutMs / 1000} s (the credential's Request Timeout)`
			: 'the connection was closed before the answer arrived';
		detail = ` (${redacted(String(err.message ?? code), secrets)}; ${code})`;
	}
	const check = options.reconcile ?? 'check on the platform whether it was applied';
	return withOutcome(
		new NodeApiError(
			node,
			// No error code in this message: NodeApiError would swap a message holding ECONNRESET for a generic one.
			{ message: 'the answer was lost; the request may have been applied' },
			{
				message: `May have been applied: the request to ${options.action} reached ${options.target} but ${cause}`,
				description: `The outcome is unknown${detail}: the platform may have acted on the request before its answer was lost. The node did not send it again. Before you send it again, ${check}; sending it again without checking may apply it twice.`,
				httpCode: options.response ? String(options.response.statusCode) : undefined,
				itemIndex: options.itemIndex,
			},
		),
		'unknown',
	);
}

/** A write the platform accepted (2xx) whose answer cannot be read: applied, details unknown. */
export function acceptedUnreadable(
	node: INode,
	options: { statusCode: number; action: string; problem?: string; reconcile?: string; itemIndex?: number },
): NodeApiError {
	const check = options.reconcile ?? 'check on the platform';
	return withOutcome(
		new NodeApiError(
			node,
			{ message: options.problem ?? 'unreadable answer' },
			{
				httpCode: String(options.statusCode),
				message: `Accepted, answer unreadable: the platform accepted the request to ${options.action} (HTTP ${options.statusCode}) but its answer is not what the API specifies`,
				description: `${options.problem ?? 'The answer could not be read'}. The platform said it accepted the request, so it was not sent again; what its answer would have said (IDs, details) is unknown: ${check} before sending it again.`,
				itemIndex: options.itemIndex,
			},
		),
		'accepted',
	);
}

/**
 * A request not sent because the run's wait budget for rate limits is spent: the platform
 * refused it (429) and waiting again would go past the budget, or the budget was spent before
 * its turn came.
 */
export function notSentError(
	node: INode,
	options: { itemIndex?: number; action: string; waitedMs: () => number; budgetMs: number; option?: string; response?: { statusCode: number; body: unknown }; secrets?: string[] },
): NodeApiError {
	const said = options.response ? platformMessage(redacted(options.response.body, options.secrets ?? [])) : undefined;
	const setting = options.option ? `the "${options.option}" option` : 'the most a run of this operation waits';
	const advice = options.option ? `Raise "${options.option}", send fewer items at once, or try again later.` : 'Send fewer items at once, or try again later.';
	return withOutcome(
		new NodeApiError(
			node,
			{ message: said ?? 'rate limited' },
			{
				httpCode: '429',
				message: `Not sent: the platform kept rate limiting this run (HTTP 429${said ? `: ${said.slice(0, 200)}` : ''})`,
				description: `While trying to ${options.action}. The run lost ${seconds(options.waitedMs())} s to rate limits (pauses and slower pacing), and its wait budget is ${seconds(options.budgetMs)} s (${setting}), so this request and the rest of the run's requests were not sent. What was sent before is reported as sent. ${advice}`,
				itemIndex: options.itemIndex,
			},
		),
		'notSent',
	);
}

/** A platform answer with an HTTP error status, as a NodeApiError carrying the status and the platform's message. */
export function apiError(
	node: INode,
	response: { statusCode: number; body: unknown },
	options: { itemIndex?: number; action?: string; secrets?: string[]; urlField?: string } = {},
): NodeApiError {
	const { statusCode } = response;
	const body = redacted(response.body, options.secrets ?? []);
	const message = platformMessage(body) ?? `The platform answered HTTP ${statusCode}`;
	// The credential's Test checks one base URL (n8n allows one request there): a 404 names the one this request used.
	const notFound = statusCode === 404 ? `The platform could not find what was asked for. Check the ID, and the ${options.urlField ?? 'base URL'} in the credential.` : '';
	const description = [options.action ? `While trying to ${options.action}.` : '', STATUS_HINTS[statusCode] ?? notFound]
		.filter(Boolean)
		.join(' ');
	const errorBody: JsonObject =
		body && typeof body === 'object' ? (body as JsonObject) : { message: String(body ?? '') };
	return new NodeApiError(node, errorBody, {
		httpCode: String(statusCode),
		message: `${message} [HTTP ${statusCode}]`,
		description: description || undefined,
		itemIndex: options.itemIndex,
	});
}

/**
 * The platform's answer with credentials taken out: a platform that echoes the request (its
 * Authorization header, the key in a message) must not put the key into an error n8n shows and logs.
 */
export function redacted<T>(value: T, secrets: string[]): T {
	if (value === undefined || value === null) return value;
	let text = JSON.stringify(value).replace(/Bearer\s+[^\s"'\\]+/gi, 'Bearer ***');
	for (const secret of secrets) if (secret && secret.length >= 4) text = text.split(JSON.stringify(secret).slice(1, -1)).join('***');
	return JSON.parse(text) as T;
}

/**
 * A request that got no HTTP answer (DNS, refused connection, timeout). Built from the bare
 * code and message only, so the request configuration and its Authorization header never
 * reach the error. `sent`: the connection was made, so the request reached the platform (a read,
 * or a delete, which is safe to send again); a write in that case is maybeApplied instead.
 */
export function transportError(
	node: INode,
	error: unknown,
	target: string,
	options: { itemIndex?: number; timeoutMs?: number; secrets?: string[]; urlField?: string; sent?: boolean } = {},
): NodeApiError {
	const err = (error ?? {}) as { code?: string; message?: string; cause?: { code?: string } };
	const code = err.code ?? err.cause?.code ?? 'REQUEST_FAILED';
	const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(String(err.message));
	const raw = timedOut && options.timeoutMs ? `no answer within ${options.timeoutMs / 1000} s (the credential's Request Timeout)` : String(err.message ?? code);
	const reason = redacted(raw, options.secrets ?? []);
	// Codes such as ECONNREFUSED stay out of the message: NodeApiError would swap it for a generic one.
	return new NodeApiError(
		node,
		{ message: reason },
		{
			message: !options.sent ? `Could not reach the platform at ${target}` : timedOut ? `No answer from the platform at ${target}` : `The connection to the platform at ${target} broke before its answer arrived`,
			description: `${reason} (${code}). Check the ${options.urlField ?? 'base URLs'} in the credential and that the platform is reachable from n8n.`,
			itemIndex: options.itemIndex,
		},
	);
}

/** Raised by the pure mapping functions of src/ when a parameter cannot be turned into a request. */
export class InputError extends Error {
	constructor(
		readonly field: string,
		message: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}
