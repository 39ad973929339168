/** The NodeApiErrors of platform requests: HTTP errors, no answer, redirects, odd 2xx. */
import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { platformMessage } from '../platform/error-message';
import { noAnswer } from './failures';
import { redacted } from '../base/secrets';

const STATUS_HINTS: Record<number, string> = {
	401: 'The platform refused the API key. Check the key in the credential (Preferences > API tab) and that it has not expired or been revoked.',
	403: 'The platform refused this request: its message says why (for example a key without this right, or a chat-app message outside the 24-hour window).',
	413: 'The upload is larger than the platform accepts.',
	429: 'The platform is rate limiting requests. Try again later.',
};

/** An HTTP error status as a NodeApiError carrying the status and the platform's message. */
export function apiError(
	node: INode,
	response: { statusCode: number; body: unknown },
	options: { itemIndex?: number; action?: string; secrets?: string[]; urlField?: string } = {},
): NodeApiError {
	const { statusCode } = response;
	const body = redacted(response.body, options.secrets ?? []);
	const message = platformMessage(body) ?? `The platform answered HTTP ${statusCode}`;
	// The credential's Test reaches one base URL only: a 404 names the one this request used.
	const notFound =
		statusCode === 404
			? `The platform could not find what was asked for. Check the ID, and the ${options.urlField ?? 'base URL'} in the credential.`
			: '';
	const description = [
		options.action ? `While trying to ${options.action}.` : '',
		STATUS_HINTS[statusCode] ?? notFound,
	]
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
 * No HTTP answer (DNS, refused, timeout), built from the bare code and message so the request's
 * Authorization header never reaches it. `sent`: it reached the platform (a read or a delete).
 */
export function transportError(
	node: INode,
	error: unknown,
	target: string,
	options: {
		itemIndex?: number;
		timeoutMs?: number;
		secrets?: string[];
		urlField?: string;
		sent?: boolean;
	} = {},
): NodeApiError {
	const { code, message, timedOut } = noAnswer(error);
	const raw =
		timedOut && options.timeoutMs
			? `no answer within ${options.timeoutMs / 1000} s (the credential's Request Timeout)`
			: String(message ?? code);
	const reason = redacted(raw, options.secrets ?? []);
	// No code such as ECONNREFUSED in the message: NodeApiError would make it generic.
	return new NodeApiError(
		node,
		{ message: reason },
		{
			message: !options.sent
				? `Could not reach the platform at ${target}`
				: timedOut
					? `No answer from the platform at ${target}`
					: `The connection to the platform at ${target} broke before its answer arrived`,
			description:
				options.sent && timedOut
					? `${reason} (${code}). The platform was reached but did not answer in time: raise Request Timeout (Seconds) in the credential, or try again later.`
					: `${reason} (${code}). Check the ${options.urlField ?? 'base URLs'} in the credential and that the platform is reachable from n8n.`,
			itemIndex: options.itemIndex,
		},
	);
}

/** A 3xx answer: never followed, so the key stays with the configured address. */
export function redirectError(
	node: INode,
	response: { statusCode: number; headers: Record<string, unknown> },
	target: string,
	itemIndex?: number,
): NodeApiError {
	const location = String(response.headers.location ?? '(no Location header)');
	// A Location that does not resolve is kept as the header gives it.
	const resolved = URL.canParse(location, target) ? new URL(location, target).toString() : location;
	return new NodeApiError(
		node,
		{ message: `redirect to ${resolved}` },
		{
			httpCode: String(response.statusCode),
			message: `The platform answered with a redirect (HTTP ${response.statusCode}) to ${resolved}`,
			description:
				"Redirects are not followed, so the API key is never sent to another address. If the platform moved, put the new address in the credential's base URL.",
			itemIndex,
		},
	);
}

/** A 2xx answer that is not what the API specifies (for a read: an error, not an item). */
export function unexpectedAnswer(
	node: INode,
	statusCode: number,
	action: string,
	problem: string | undefined,
	itemIndex?: number,
): NodeApiError {
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
