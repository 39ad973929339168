/** Errors carrying an outcome (docs/operations.md, "Outcomes: unknown, accepted, not sent"). */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { platformMessage } from '../platform/error-message';
import { redacted } from '../base/secrets';
import { noAnswer } from './failures';

/** `unknown`: it may have been applied; `accepted`: 2xx, answer unreadable; `notSent`: not sent. */
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

/** What the errors below name of a request: ApiRequest's fields (attempt.ts) of these names. */
export interface RequestFacts {
	itemIndex?: number;
	/** What the request does, in words, for error messages ("import the CSV into list 42"). */
	action: string;
	/** How to check whether a write whose answer was lost was applied (said in maybeApplied). */
	reconcile?: string;
}

/** A write whose answer was lost after it may have arrived (reset, timeout, 500, 502-504). */
export function maybeApplied(
	node: INode,
	options: RequestFacts & {
		target: string;
		response?: { statusCode: number; body: unknown };
		error?: unknown;
		timeoutMs?: number;
		secrets?: string[];
	},
): NodeApiError {
	const secrets = options.secrets ?? [];
	let cause: string;
	// Codes go to the description: NodeApiError makes a message naming ECONNRESET generic.
	let detail = '';
	if (options.response) {
		const said = platformMessage(redacted(options.response.body, secrets));
		const { statusCode } = options.response;
		const quoted = said ? ` (${said.slice(0, 200)})` : '';
		cause =
			statusCode === 500
				? `the platform answered HTTP 500, an error while handling it${quoted}`
				: `a gateway in front of the platform answered HTTP ${statusCode}${quoted} instead of the platform`;
	} else {
		const { code, message, timedOut } = noAnswer(options.error);
		cause =
			timedOut && options.timeoutMs
				? `no answer came within ${options.timeoutMs / 1000} s (the credential's Request Timeout)`
				: 'the connection was closed before the answer arrived';
		detail = ` (${redacted(String(message ?? code), secrets)}; ${code})`;
	}
	const check = options.reconcile ?? 'check on the platform whether it was applied';
	const lost = { message: 'the answer was lost; the request may have been applied' };
	const error = new NodeApiError(node, lost, {
		message: `May have been applied: the request to ${options.action} reached ${options.target} but ${cause}`,
		description: `The outcome is unknown${detail}: the platform may have acted on the request before its answer was lost. The node did not send it again. Before you send it again, ${check}; sending it again without checking may apply it twice.`,
		httpCode: options.response ? String(options.response.statusCode) : undefined,
		itemIndex: options.itemIndex,
	});
	return withOutcome(error, 'unknown');
}

/** A write the platform accepted (2xx) whose answer cannot be read: applied, details unknown. */
export function acceptedUnreadable(
	node: INode,
	options: RequestFacts & { statusCode: number; problem?: string },
): NodeApiError {
	const check = options.reconcile ?? 'check on the platform';
	const unreadable = { message: options.problem ?? 'unreadable answer' };
	const error = new NodeApiError(node, unreadable, {
		httpCode: String(options.statusCode),
		message: `Accepted, answer unreadable: the platform accepted the request to ${options.action} (HTTP ${options.statusCode}) but its answer is not what the API specifies`,
		description: `${options.problem ?? 'The answer could not be read'}. The platform said it accepted the request, so it was not sent again; what its answer would have said (IDs, details) is unknown: ${check} before sending it again.`,
		itemIndex: options.itemIndex,
	});
	return withOutcome(error, 'accepted');
}

/** Not sent: the run's wait budget for rate limits is spent (at a 429, or before its turn). */
export function notSentError(
	node: INode,
	options: RequestFacts & {
		waitedMs: () => number;
		budgetMs: number;
		option?: string;
		response?: { statusCode: number; body: unknown };
		secrets?: string[];
	},
): NodeApiError {
	const said = options.response
		? platformMessage(redacted(options.response.body, options.secrets ?? []))
		: undefined;
	const setting = options.option
		? `the "${options.option}" option`
		: 'the most a run of this operation waits';
	const advice = options.option
		? `Raise "${options.option}", send fewer items at once, or try again later.`
		: 'Send fewer items at once, or try again later.';
	const limited = { message: said ?? 'rate limited' };
	const error = new NodeApiError(node, limited, {
		httpCode: '429',
		message: `Not sent: the platform kept rate limiting this run (HTTP 429${said ? `: ${said.slice(0, 200)}` : ''})`,
		description: `While trying to ${options.action}. The run lost ${seconds(options.waitedMs())} s to rate limits (pauses and slower pacing), and its wait budget is ${seconds(options.budgetMs)} s (${setting}), so this request and the rest of the run's requests were not sent. What was sent before stays sent: with On Error at Continue each item says whether it was sent; with Stop Workflow the node outputs nothing, so look the sent ones up by their External ID before running again. ${advice}`,
		itemIndex: options.itemIndex,
	});
	return withOutcome(error, 'notSent');
}

/** Not sent, beyond the sender's daily quota (Message › Send, Over the Daily Quota): no failure. */
export function overQuotaNotSent(
	node: INode,
	options: { itemIndex: number; to: string; senderId: string; dailyQuota: number },
): NodeOperationError {
	const error = new NodeOperationError(
		node,
		`Not sent: ${options.to} is beyond sender ${options.senderId}'s daily quota of ${options.dailyQuota} unique recipients`,
		{
			itemIndex: options.itemIndex,
			description: `The run sent to its first ${options.dailyQuota} recipients, as Options › Over the Daily Quota asks. Send this message on another day, or from another sender.`,
		},
	);
	return withOutcome(error, 'notSent');
}

/** Not sent (Skip Messages Sent Before): an earlier or concurrent run may have sent it. */
export function unconfirmedBefore(
	node: INode,
	options: { itemIndex: number; key: string; now?: boolean },
): NodeOperationError {
	const why = options.now
		? 'another execution of this node claimed it while this one was running'
		: 'an earlier execution of this node was sending it, but never learned whether the platform accepted it (its answer was lost, or n8n stopped)';
	const error = new NodeOperationError(
		node,
		`Not sent: an earlier run may have sent this message (Message Key "${options.key.slice(0, 200)}")`,
		{
			itemIndex: options.itemIndex,
			description: `It was not sent again: ${why}. Look for it on the platform (its recipient's messages, or the status callbacks). To send it anyway, turn on Options › Resend Unconfirmed.`,
		},
	);
	return withOutcome(error, 'unknown');
}
