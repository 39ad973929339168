import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, baseUrlOf, optionalObjectResponse } from '../../../core/http';
import { boolean, oneOf, record, text } from '../../../core/values';
import { MESSAGE_TYPES, callbackToken, messageBody, messageSchema } from '../../../core/platform';
import type { MediaType, Message } from '../../../core/platform';
import type { RateGate } from '../../../core/pace';
import { previewOf } from '../../../shared/descriptions';
import { runOptions, runPerItem } from '../../../shared/execute';
import { fieldLabels } from '../../../shared/labels';
import { parameterReader } from '../../../shared/parameters';
import { messageAliases } from './aliases';
import type { StructuredInputs } from './aliases';
import { MEDIA_TYPES, sendMessageFields } from './fields';
import { checkMedia } from './media';
import {
	defaultExternalId,
	messageParameters,
	readCallbackSecret,
	triggerCallback,
} from './message';
import { openGate, overQuota, readPace } from './pace';
import { RunHistory, claimAhead, messageKeyOf, readSentBefore } from './sent-before';
/**
 * Message > Send: POST /chatapp/messages, one message per input item, all validated before the
 * first is sent.
 */
export async function sendMessages(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const { timeoutMs } = await baseUrlOf(this, 'messaging');
	// Contacts and buttons come from the editor's fields or as JSON, the same way for every item (the
	// choice takes no expression).
	const input = (name: string) =>
		this.getNodeParameter(name, 0, 'define') === 'json' ? 'json' : 'define';
	const inputs: StructuredInputs = {
		contacts: input('contactsInput'),
		buttons: input('buttonsInput'),
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
	let gate: Promise<{ gate: RateGate; dailyQuota?: number }> | undefined;
	let callbackSecret: Promise<string> | undefined;
	const secret = async () => await (callbackSecret ??= readCallbackSecret(this));
	// The messages the run will send, once every item is checked: Share Pace Across Workers asks for
	// no more turns.
	let toSend = Infinity;
	const read = parameterReader(this);
	const describe = (message: Message): IDataObject => ({
		from: message.from,
		to: message.to,
		type: message.type,
		externalId: message.externalId,
		...(history ? { messageKey: history.keyOf(message) } : {}),
	});
	const sendMessage = async (message: Message, itemIndex: number): Promise<IDataObject> => {
		await (gate ??= openGate(this, pace, secret, () => toSend));
		const { data } = await apiRequest(this, {
			base: 'messaging',
			method: 'POST',
			path: '/chatapp/messages',
			body: message as unknown as IDataObject,
			itemIndex,
			action: `send a ${message.type} message from ${message.from} to ${message.to}`,
			reconcile: `look for External ID ${message.externalId} in the platform's message reports or in the message's status callbacks`,
			expect: optionalObjectResponse,
			// The trigger's token stays out of a preview and of errors that echo the body.
			secrets: callbackSecret ? [callbackToken(await callbackSecret)] : [],
		});
		return { ...describe(message), ...data };
	};
	try {
		return await runPerItem<Message>(this, {
			labels,
			options,
			rateLimitWaitOption: true,
			prepare: async (itemIndex) => {
				const options = record(read('options', itemIndex, {}), 'options');
				const type = oneOf(read('messageType', itemIndex, 'text'), 'messageType', MESSAGE_TYPES);
				const triggerUrl = await triggerCallback(read, itemIndex, secret);
				const parameters = messageParameters(read, itemIndex, type, options, inputs, triggerUrl);
				if (!text(parameters.externalId, 'externalId'))
					parameters.externalId = defaultExternalId(this, itemIndex);
				const message = messageSchema.parse(messageBody(parameters));
				if (history) history.setKey(message, messageKeyOf(options, message));
				const checkMediaFirst =
					options.checkMedia === undefined ? false : boolean(options.checkMedia, 'checkMedia');
				if (checkMediaFirst && MEDIA_TYPES.includes(message.type as MediaType)) {
					await checkMedia(
						this,
						message.type as MediaType,
						(message as { body: string }).body,
						timeoutMs,
					);
				}
				return message;
			},
			concurrency: pace.parallelRequests,
			describe,
			// With a sender, its daily quota is known before the first message goes (the sender is read
			// once, for its rate too).
			beforeSend: async (prepared) => {
				// Messages sent before count towards nothing: not the quota, not the pace.
				const skipped = history && (await history.skip(prepared, describe));
				const messages = skipped ? skipped.messages : prepared;
				const held = new Map<number, Error | IDataObject>(skipped?.held);
				toSend = messages.length;
				if (pace.senderId && pace.overQuota !== 'sendAll' && messages.length > 0) {
					const { dailyQuota } = await (gate ??= openGate(this, pace, secret, () => toSend));
					const overs = dailyQuota ? overQuota(this, pace, dailyQuota, messages) : new Map();
					for (const [itemIndex, error] of overs) held.set(itemIndex, error);
					toSend = messages.length - overs.size;
				}
				history?.plan(messages.filter(({ itemIndex }) => !held.has(itemIndex)));
				return held;
			},
			send: async (message, itemIndex) => {
				const sendOne = async () => await sendMessage(message, itemIndex);
				return history ? await history.send(message, itemIndex, sendOne) : await sendOne();
			},
		});
	} finally {
		// What was sent is confirmed, what was not is released (even when the run stops on an error).
		await history?.close();
		// A pacer shared with other runs of the sender is given back (see sharedPacer).
		if (gate) (await gate.catch(() => undefined))?.gate.release();
	}
}
