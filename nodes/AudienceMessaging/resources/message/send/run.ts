import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, baseUrlOf, optionalObjectResponse } from '../../../core/http';
import { boolean, oneOf, record, text } from '../../../core/values';
import { MESSAGE_TYPES, callbackToken, messageBody, messageSchema } from '../../../core/platform';
import type { MediaType, Message } from '../../../core/platform';
import type { RateGate } from '../../../core/pace';
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
	});
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
			beforeSend: async (messages) => {
				toSend = messages.length;
				if (!pace.senderId || pace.overQuota === 'sendAll' || messages.length === 0)
					return new Map();
				const { dailyQuota } = await (gate ??= openGate(this, pace, secret, () => toSend));
				const held = dailyQuota
					? overQuota(this, pace, dailyQuota, messages)
					: new Map<number, Error>();
				toSend = messages.length - held.size;
				return held;
			},
			send: async (message, itemIndex) => {
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
			},
		});
	} finally {
		// A pacer shared with other runs of the sender is given back (see sharedPacer).
		if (gate) (await gate.catch(() => undefined))?.gate.release();
	}
}
