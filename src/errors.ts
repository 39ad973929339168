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
export function fieldError(node: INode, itemIndex: number, field: string, problem: string, details?: string): NodeOperationError {
	return new NodeOperationError(node, `Invalid "${field}" in ${itemLabel(itemIndex)}: ${problem}`, {
		itemIndex,
		description: `${details ? `${details}\n` : ''}Fix the "${field}" value of ${itemLabel(itemIndex)} and run the node again. This item was not sent to the platform.`,
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

/** A 3xx answer: never followed, so the key stays with the configured address. */
export function redirectError(node: INode, response: { statusCode: number; headers: Record<string, unknown> }, target: string, itemIndex?: number): NodeApiError {
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

/** A 2xx answer that is not what the API specifies (for a read: an error, not an item). */
export function unexpectedAnswer(node: INode, statusCode: number, action: string, problem: string | undefined, itemIndex?: number): NodeApiError {
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

/** Raised by the pure mapping functions of src/ when a parameter cannot be turned into a request. */
export class InputError extends Error {
	constructor(
		readonly field: string,
		message: string,
		/** More than the message holds (every problem of a CSV file, one per line): the start of the error's description. */
		readonly details?: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}
