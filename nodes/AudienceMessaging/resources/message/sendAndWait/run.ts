/** Message › Send and Wait for Response's run: one message with links, then the wait. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { boolean, InputError, record, text } from '../../../../../src/base';
import { fieldLabels } from '../../../runner/labels';
import { validated } from '../../../runner/item-errors';
import { errorItem } from '../../../runner/items';
import { runsAsTool } from '../../../runner/tool';
import { sendMessages } from '../send/run';
import { sendAndWaitFields } from './fields';
import { formFields } from './form';
import { answerLinks, approvalOf, messageWithLinks, waitTill } from './links';
import { startWait } from './wait';

/** The message, a human review step's `{{ $tool.parameters }}` as JSON, not "[object Object]". */
function messageOf(context: IExecuteFunctions): unknown {
	const raw = context.getNode().parameters.message;
	const toolArguments = /\{\{\s*\$tool\.parameters\s*\}\}/g;
	if (typeof raw === 'string' && raw.startsWith('=') && toolArguments.test(raw))
		return context.evaluateExpression(
			raw.replace(toolArguments, '{{ JSON.stringify($tool.parameters, null, 1) }}'),
			0,
		);
	return context.getNodeParameter('message', 0, '');
}

/**
 * As n8n's chat nodes: one message with signed links from the first item, then a wait for the
 * answer (./webhook.ts) or Limit Wait Time. A preview or a message not sent ends without waiting.
 */
export async function sendAndWaitForResponse(
	this: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	const node = this.getNode();
	// An agent's plain tool call cannot wait for a person; its human review step (n8n's HitlTool of
	// this node) is the way: the model is told, and nothing is sent.
	if (runsAsTool(node) && !node.type.endsWith('HitlTool')) {
		const error = new NodeOperationError(
			node,
			"Send and Wait for Response waits for a person's answer, which a tool call cannot.",
			{
				description:
					"Nothing was sent. To have a person approve the agent's tool calls, connect them to the agent through Audience Messaging's human review step; to send a message, use Message › Send.",
			},
		);
		return [this.getInputData().map((_, itemIndex) => errorItem(error, itemIndex))];
	}
	const labels = fieldLabels(sendAndWaitFields);
	const { body, until } = validated(this, 0, labels, () => {
		const options = record(this.getNodeParameter('options', 0, {}), 'options');
		const attribution =
			options.appendAttribution === undefined
				? true
				: boolean(options.appendAttribution, 'options.appendAttribution');
		const message = text(messageOf(this), 'message');
		if (!message) throw new InputError('message', 'a message is needed: the links come below it');
		// A custom form's fields are checked now: a broken form must not go out.
		if (this.getNodeParameter('responseType', 0, 'approval') === 'customForm') {
			const json = this.getNodeParameter('defineForm', 0, 'fields') === 'json';
			formFields(this.getNodeParameter(json ? 'jsonOutput' : 'formFields', 0, undefined), json);
		}
		// A wait of its own: the links answer this wait only (./wait.ts).
		const approval = approvalOf(this);
		const wait = startWait(this, message, approval.labels);
		return {
			body: messageWithLinks(message, answerLinks(this, wait, approval), attribution),
			until: waitTill(options),
		};
	});
	// Send's own run sends the text with links: its checks, External ID, waits, preview, outcomes.
	const [[sent]] = await sendMessages.call(this, {
		itemCount: 1,
		given: { messageType: 'text', text: body },
	});
	const status = sent.json.status;
	if (sent.json.error !== undefined || status === 'preview' || status === 'notSent')
		return [[sent]];
	const items = this.getInputData();
	if (items.length > 1)
		this.addExecutionHints?.({
			type: 'info',
			location: 'outputPane',
			message: `Send and Wait for Response sent one message, to the first item's recipient; the other ${items.length - 1} items were not messaged.`,
		});
	await this.putExecutionToWait(until);
	return [items];
}
