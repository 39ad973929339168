import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, baseUrlOf, optionalObjectResponse } from '../../../../../src/http';
import { boolean, oneOf, record, text } from '../../../../../src/base';
import {
	MESSAGE_TYPES,
	callbackToken,
	messageBody,
	messageSchema,
} from '../../../../../src/platform';
import type { MediaType, Message } from '../../../../../src/platform';
import type { RateGate } from '../../../../../src/pace';
import { previewOf } from '../../../shared/descriptions';
import { runOptions, runPerItem } from '../../../shared/execute';
import { fieldLabels } from '../../../shared/labels';
import { parameterReader } from '../../../shared/parameters';
import { messageAliases } from './aliases';
import type { StructuredInputs } from './aliases';
import { MEDIA_TYPES, sendMessageFields } from './fields';
import { checkMedia } from './media';
import { FILE_LINK_UNSIGNED, itemMedia, RunFiles } from './binary-media';
import type { PublishedMedia } from './binary-media';
import type { Reader } from './message';
import {
	defaultExternalId,
	messageKeyOf,
	messageParameters,
	readCallbackSecret,
	triggerCallback,
} from './message';
import { openGate, overQuota, readPace } from './pace';
import { RunHistory, claimAhead, readSentBefore } from './sent-before';
type Pace = ReturnType<typeof readPace>;

/**
 * One run of Message › Send while it sends: its pace (the gate, opened at the first message or
 * to read the sender's quota), its history of messages sent before, the trigger's secret (read
 * once, when a message calls the trigger back), and how many messages it will send.
 */
class SendRun {
	private gate: Promise<{ gate: RateGate; dailyQuota?: number }> | undefined;
	private callbackSecret: Promise<string> | undefined;
	/** The messages the run will send, once every item is checked: Share Pace asks no more turns. */
	private toSend = Infinity;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly pace: Pace,
		readonly history: RunHistory | undefined,
	) {}

	readonly secret = async () => await (this.callbackSecret ??= readCallbackSecret(this.context));

	private openGate() {
		return (this.gate ??= openGate(this.context, this.pace, this.secret, () => this.toSend));
	}

	/** What identifies a message in an item that did not plainly succeed, or in a preview. */
	readonly describe = (message: Message): IDataObject => ({
		from: message.from,
		to: message.to,
		type: message.type,
		externalId: message.externalId,
		...(this.history ? { messageKey: this.history.keyOf(message) } : {}),
	});

	/**
	 * Before the first message: the messages sent before are held back (they count towards neither
	 * the quota nor the pace), then, with a sender, those beyond its daily quota (the sender is read
	 * once, for its rate too). Returns what each held item comes out as.
	 */
	async beforeSend(
		prepared: Array<{ itemIndex: number; value: Message }>,
	): Promise<Map<number, Error | IDataObject>> {
		const skipped = this.history && (await this.history.skip(prepared, this.describe));
		const messages = skipped ? skipped.messages : prepared;
		const held = new Map<number, Error | IDataObject>(skipped?.held);
		this.toSend = messages.length;
		if (this.pace.senderId && this.pace.overQuota !== 'sendAll' && messages.length > 0) {
			const { dailyQuota } = await this.openGate();
			const overs = dailyQuota
				? overQuota(this.context, this.pace, dailyQuota, messages)
				: new Map<number, Error>();
			for (const [itemIndex, error] of overs) held.set(itemIndex, error);
			this.toSend = messages.length - overs.size;
		}
		this.history?.plan(messages.filter(({ itemIndex }) => !held.has(itemIndex)));
		return held;
	}

	/**
	 * The messages whose file n8n publishes (Source: Binary File): each is given a new link when
	 * sent, so that a long run's last messages have the whole Link Valid For.
	 */
	readonly files = new WeakMap<Message, PublishedMedia>();

	/** One message, when the pace allows (and, with a history, claimed and confirmed). */
	async send(message: Message, itemIndex: number): Promise<IDataObject> {
		const sendOne = async (): Promise<IDataObject> => {
			await this.openGate();
			const link = this.files.get(message)?.sign();
			const body = link ? { ...message, body: link.url } : message;
			const { data } = await apiRequest(this.context, {
				base: 'messaging',
				method: 'POST',
				path: '/chatapp/messages',
				body: body as unknown as IDataObject,
				itemIndex,
				action: `send a ${message.type} message from ${message.from} to ${message.to}`,
				reconcile: `look for External ID ${message.externalId} in the platform's message reports or in the message's status callbacks`,
				expect: optionalObjectResponse,
				// The trigger's token and a file link's token stay out of a preview and of errors that
				// echo the body.
				secrets: [
					...(this.callbackSecret ? [callbackToken(await this.callbackSecret)] : []),
					...(link ? [link.token] : []),
				],
			});
			return { ...this.describe(message), ...data };
		};
		return this.history ? await this.history.send(message, itemIndex, sendOne) : await sendOne();
	}

	/**
	 * What was sent is confirmed, what was not is released (even when the run stops on an error);
	 * a pacer shared with other runs of the sender is given back (see sharedPacer).
	 */
	async close(): Promise<void> {
		await this.history?.close();
		if (this.gate) (await this.gate.catch(() => undefined))?.gate.release();
	}
}

/**
 * Reads and checks one item's message (its type's fields, the External ID, the trigger's callback,
 * the message key), and with Check Media Before Sending asks its media URL. No message is sent.
 */
function messagePreparer(
	context: IExecuteFunctions,
	run: SendRun,
	inputs: StructuredInputs,
	timeoutMs: number,
	given: SendInput['given'],
): (itemIndex: number) => Promise<Message> {
	const node = parameterReader(context);
	const read: Reader = (name, itemIndex, fallback) =>
		Object.hasOwn(given, name)
			? given[name as keyof typeof given]
			: node(name, itemIndex, fallback);
	// Files stored where their links last, and hashed, once each (binary-media.ts).
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
		if (run.history)
			run.history.setKey(message, await messageKeyOf(options, message, file?.content));
		if (file) run.files.set(message, file);
		const checkMediaFirst =
			!file &&
			(options.checkMedia === undefined ? false : boolean(options.checkMedia, 'checkMedia'));
		if (checkMediaFirst && MEDIA_TYPES.includes(message.type as MediaType)) {
			const body = (message as { body: string }).body;
			await checkMedia(context, message.type as MediaType, body, timeoutMs);
		}
		return message;
	};
}

/**
 * What a run of Send takes besides the node's parameters: how many items it sends (the first
 * ones), and parameters given in place of the node's for every item. Send and Wait for Response
 * sends its first item a text message with its links so.
 */
interface SendInput {
	itemCount?: number;
	given: { messageType?: 'text'; text?: string };
}

/**
 * Message > Send: POST /chatapp/messages, one message per input item, all validated before the
 * first is sent.
 */
export async function sendMessages(
	this: IExecuteFunctions,
	input: SendInput = { given: {} },
): Promise<INodeExecutionData[][]> {
	const { timeoutMs } = await baseUrlOf(this, 'messaging');
	// Contacts and buttons come from the editor's fields or as JSON, the same way for every item (the
	// choice takes no expression).
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
		return await runPerItem<Message>(this, {
			labels,
			options,
			rateLimitWaitOption: true,
			itemCount: input.itemCount,
			prepare: messagePreparer(this, run, inputs, timeoutMs, input.given),
			concurrency: pace.parallelRequests,
			describe: run.describe,
			beforeSend: async (prepared) => await run.beforeSend(prepared),
			send: async (message, itemIndex) => await run.send(message, itemIndex),
		});
	} finally {
		await run.close();
	}
}
