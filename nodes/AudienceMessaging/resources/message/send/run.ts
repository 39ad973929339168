/** Message › Send's run: every item read and checked, then sent at the run's pace. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { baseUrlOf } from '../../../../../src/http';
import { boolean, oneOf, record, text } from '../../../../../src/base';
import { MESSAGE_TYPES, messageBody, messageSchema } from '../../../../../src/platform';
import type { MediaType } from '../../../../../src/platform';
import { previewOf } from '../../../runner/descriptions';
import { runOptions, runPerItem } from '../../../runner/execute';
import { fieldLabels } from '../../../runner/labels';
import { parameterReader } from '../../../runner/parameters';
import { messageAliases } from './aliases';
import type { StructuredInputs } from './aliases';
import { MEDIA_TYPES, sendMessageFields } from './fields';
import { checkMedia } from './media';
import { FILE_LINK_UNSIGNED, itemMedia, RunFiles } from './binary-media';
import type { Reader } from './message';
import type { Outgoing } from './outgoing';
import { defaultExternalId, messageKeyOf, messageParameters, triggerCallback } from './message';
import { readPace } from './rate-and-quota';
import { readSentBefore } from './sent-before';
import { RunHistory, claimAhead } from './run-history';
import { SendRun } from './hold-and-send';
/** Reads and checks one item's message (with Check Media, asks its URL); sends nothing. */
function messagePreparer(
	context: IExecuteFunctions,
	run: SendRun,
	inputs: StructuredInputs,
	timeoutMs: number,
	given: SendInput['given'],
): (itemIndex: number) => Promise<Outgoing> {
	const node = parameterReader(context);
	const read: Reader = (name, itemIndex, fallback) =>
		Object.hasOwn(given, name)
			? given[name as keyof typeof given]
			: node(name, itemIndex, fallback);
	const files = new RunFiles(context);
	return async (itemIndex) => {
		const options = record(read('options', itemIndex, {}), 'options');
		const type = oneOf(read('messageType', itemIndex, 'text'), 'messageType', MESSAGE_TYPES);
		const triggerUrl = await triggerCallback(read, itemIndex, run.secret);
		const parameters = messageParameters(read, itemIndex, type, options, inputs, triggerUrl);
		if (!text(parameters.externalId, 'externalId'))
			parameters.externalId = defaultExternalId(context, itemIndex);
		const file = await itemMedia(context, read, itemIndex, type, options, files);
		// A file's link is signed when its message is sent (send), so that it lasts from then on.
		if (file) parameters.mediaUrl = FILE_LINK_UNSIGNED;
		const message = messageSchema.parse(messageBody(parameters));
		const quiet = run.quiet.read(options, message);
		const key = run.history && (await messageKeyOf(options, message, file?.content));
		const checkMediaFirst =
			!file &&
			(options.checkMedia === undefined ? false : boolean(options.checkMedia, 'checkMedia'));
		if (checkMediaFirst && MEDIA_TYPES.includes(message.type as MediaType)) {
			const body = (message as { body: string }).body;
			await checkMedia(context, message.type as MediaType, body, timeoutMs);
		}
		return { message, quiet, key, file };
	};
}

/**
 * Besides the node's parameters: how many (first) items to send, and parameters replacing the
 * node's for every item (how Send and Wait for Response sends its text with links).
 */
interface SendInput {
	itemCount?: number;
	given: { messageType?: 'text'; text?: string };
}

/** POST /chatapp/messages, one message per item, all validated before the first is sent. */
export async function sendMessages(
	this: IExecuteFunctions,
	input: SendInput = { given: {} },
): Promise<INodeExecutionData[][]> {
	const { timeoutMs } = await baseUrlOf(this, 'messaging');
	const inputOf = (name: string) =>
		this.getNodeParameter(name, 0, 'define') === 'json' ? 'json' : 'define';
	const inputs: StructuredInputs = {
		contacts: inputOf('contactsInput'),
		buttons: inputOf('buttonsInput'),
	};
	const labels = fieldLabels(sendMessageFields, messageAliases(inputs));
	const options = runOptions(this, labels);
	const pace = readPace(this, labels, options);
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
