import { randomBytes } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

/**
 * One wait per link. n8n signs a link with the execution and the node, not the wait: a node that
 * runs again in the same execution (a loop over people) would take the first person's link as the
 * answer to the second wait. So each wait gets a value of its own, kept in the node's context
 * (n8n saves it with the waiting execution, on whichever process resumes it) and written, signed,
 * into its links (`wait=`); the webhook takes a link only when the two agree.
 */

/** The key in the node's context; the value is a JSON text of `CurrentWait`. */
const WAIT_KEY = 'audienceMessagingWait';

/** The links' query parameter that names their wait. */
export const WAIT_PARAMETER = 'wait';

/** What a wait remembers: its value, and what the confirm page shows. */
interface CurrentWait {
	id: string;
	message: string;
	/** The approval links' labels: `true` approve, `false` decline. */
	labels: Record<'true' | 'false', string>;
}

/** A new wait of the node: remembered in its context, for the links to carry. */
export function startWait(
	context: IExecuteFunctions,
	message: string,
	labels: CurrentWait['labels'],
): string {
	const id = randomBytes(12).toString('base64url');
	const wait: CurrentWait = { id, message, labels };
	context.getContext('node')[WAIT_KEY] = JSON.stringify(wait);
	return id;
}

/** Braces written as escapes, so a node's name cannot end the expression it is quoted in. */
const quoted = (value: string) =>
	JSON.stringify(value).replace(/[{}]/g, (brace) => `\\u00${brace.charCodeAt(0).toString(16)}`);

/**
 * The wait the node is in, read from its context in the waiting execution (n8n's `$node[…].context`,
 * the only part of the saved execution a webhook reads); a text saying why when it cannot be read.
 */
export function currentWait(context: IWebhookFunctions): CurrentWait | string {
	let wait: Partial<CurrentWait> | undefined;
	try {
		const raw: unknown = context.evaluateExpression(
			`{{ $node[${quoted(context.getNode().name)}].context[${quoted(WAIT_KEY)}] }}`,
			0,
		);
		wait = typeof raw === 'string' && raw ? (JSON.parse(raw) as Partial<CurrentWait>) : undefined;
	} catch (error) {
		return `the node's context could not be read (${(error as Error).message})`;
	}
	const { id, message, labels } = wait ?? {};
	const text = (value: unknown): value is string => typeof value === 'string';
	if (!text(id) || !text(message) || !text(labels?.true) || !text(labels.false))
		return "the node's context holds no wait";
	return { id, message, labels };
}

/** Whether the link that came is one of the current wait's. */
export function isLinkOf(wait: CurrentWait, query: IDataObject): boolean {
	return query[WAIT_PARAMETER] === wait.id;
}
