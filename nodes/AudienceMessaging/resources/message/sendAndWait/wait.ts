/**
 * Send and Wait's waits, one per message, kept in the node's context.
 *
 * n8n signs a link with the execution and node, not the wait: a node run again (a loop over people)
 * would take the first person's link as the second's answer. So the wait's ID, kept in the node's
 * context (saved with the waiting execution), is signed into its links; the webhook compares them.
 */
import { randomBytes } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

/** The key in the node's context; the value is a JSON text of `CurrentWait`. */
const WAIT_KEY = 'audienceMessagingWait';

export const WAIT_PARAMETER = 'wait';

/** What a wait remembers: its value, and what the confirm page shows. */
interface CurrentWait {
	id: string;
	message: string;
	/** The approval links' labels: `true` approve, `false` decline. */
	labels: Record<'true' | 'false', string>;
}

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
 * The node's wait, from its context in the waiting execution (`$node[…].context`, the only part of
 * the saved execution a webhook reads); else a text saying why it cannot be read.
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

export function isLinkOf(wait: CurrentWait, query: IDataObject): boolean {
	return query[WAIT_PARAMETER] === wait.id;
}
