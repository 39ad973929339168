/** Message › Send's run: every item read and checked, then sent at the run's pace. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { baseUrlOf } from '../../../../../src/http';
import { previewOf } from '../../../runner/descriptions';
import { runOptions, runPerItem } from '../../../runner/execute';
import { fieldLabels } from '../../../runner/labels';
import { messageAliases } from './aliases';
import type { StructuredInputs } from './aliases';
import { sendMessageFields } from './fields';
import { SendRun } from './hold-and-send';
import { messagePreparer } from './outgoing';
import type { GivenParameters, Outgoing } from './outgoing';
import { readPace } from './rate-and-quota';
import { RunHistory, claimAhead } from './run-history';
import { readSentBefore } from './sent-before';

/**
 * Besides the node's parameters: how many (first) items to send, and parameters replacing the
 * node's for every item (how Send and Wait for Response sends its text with links).
 */
interface SendInput {
	itemCount?: number;
	given: GivenParameters;
}

/** POST /chatapp/messages, one message per item, all validated before the first is sent. */
export async function sendMessages(
	this: IExecuteFunctions,
	input: SendInput = { given: {} },
): Promise<INodeExecutionData[][]> {
	const { timeoutMs } = await baseUrlOf(this, 'messaging');
	// Contacts and buttons come from the editor's fields or as JSON, the same way for every item
	// (the choice takes no expression).
	const inputOf = (name: string) =>
		this.getNodeParameter(name, 0, 'define') === 'json' ? 'json' : 'define';
	const inputs: StructuredInputs = {
		contacts: inputOf('contactsInput'),
		buttons: inputOf('buttonsInput'),
	};
	const labels = fieldLabels(sendMessageFields, messageAliases(inputs));
	const options = runOptions(this, labels);
	const pace = readPace(this, labels, options);
	// Skip Messages Sent Before: the node's history in n8n's store, checked before any request.
	const sentBefore = readSentBefore(this, labels, options);
	const history =
		sentBefore &&
		new RunHistory(this, sentBefore, {
			preview: previewOf(options),
			claimAhead: claimAhead(pace.messagesPerSecond, pace.parallelRequests),
		});
	const run = new SendRun(this, pace, history || undefined);
	try {
		return await runPerItem<Outgoing>(this, {
			labels,
			options,
			rateLimitWaitOption: true,
			itemCount: input.itemCount,
			prepare: messagePreparer(this, run, inputs, timeoutMs, input.given),
			concurrency: pace.parallelRequests,
			describe: run.describe,
			beforeSend: async (prepared) => await run.beforeSend(prepared),
			send: async (outgoing, itemIndex) => await run.send(outgoing, itemIndex),
		});
	} finally {
		await run.close();
	}
}
