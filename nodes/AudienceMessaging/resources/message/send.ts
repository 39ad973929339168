import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, baseUrlOf, configureRun, identifiedObjectResponse, optionalObjectResponse, overQuotaNotSent } from '../../core/http';
import { boolean, httpUrl, InputError, number, oneOf, pathSegment, record, text } from '../../core/values';
import { CALLBACK_CREDENTIAL_TYPE, CALLBACK_SECRET_PATTERN, callbackUrlWithToken, MEDIA, MEDIA_MAX_BYTES, mediaContentTypeFits, MESSAGE_TYPES, messageBody, messageSchema } from '../../core/platform';
import { senderPace } from '../../core/pace';
import type { FieldLabels } from '../../core/values';
import type { MediaType, Message, MessageParameters, MessageType } from '../../core/platform';
import type { RateGate } from '../../core/pace';
import { parallelRequestsOf } from '../../shared/descriptions';
import { runPerItem, validated } from '../../shared/execute';
import { fieldLabels } from '../../shared/labels';
import { parameterReader } from '../../shared/parameters';
import { messageAliases } from './aliases';
import type { StructuredInputs } from './aliases';
import { MEDIA_TYPES, sendMessageFields } from './fields';
import { DEFAULT_MESSAGES_PER_SECOND, DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, OVER_QUOTA } from './options';
import { sharedPaceTrigger, shareTurns } from './share-pace';

/** HEAD of the media URL: refuses a content type or size that the platform would refuse anyway. No credential is sent to it. */
async function checkMedia(context: IExecuteFunctions, type: MediaType, url: string, timeoutMs: number): Promise<void> {
	// A failure to reach the URL is the item's field error (named by the caller), not an API error.
	const response = (await context.helpers
		.httpRequest({ method: 'HEAD', url, returnFullResponse: true, ignoreHttpStatusErrors: true, timeout: timeoutMs })
		.catch((error: Error) => error)) as { statusCode: number; headers: Record<string, unknown> } | Error;
	if (response instanceof Error) throw new InputError('mediaUrl', `the media URL could not be reached (${response.message})`);
	if (response.statusCode >= 400) throw new InputError('mediaUrl', `the media URL answered HTTP ${response.statusCode}`);
	const contentType = String(response.headers['content-type'] ?? '');
	if (contentType && !mediaContentTypeFits(type, contentType)) {
		throw new InputError('mediaUrl', `the file is ${contentType}; ${type} messages take ${MEDIA[type].contentTypes.join(', ')}`);
	}
	const size = Number(response.headers['content-length']);
	if (Number.isFinite(size) && size > MEDIA_MAX_BYTES) {
		throw new InputError('mediaUrl', `the file is ${(size / 1024 / 1024).toFixed(1)} MB; media messages take at most 5 MB`);
	}
}

/** The trigger's URL with the token of the Callbacks credential, when the item sends its events to a trigger. */
async function triggerCallback(get: Reader, itemIndex: number, secret: () => Promise<string>): Promise<string | undefined> {
	if (!boolean(get('sendToTrigger', itemIndex, false), 'sendToTrigger')) return undefined;
	const url = httpUrl(get('triggerUrl', itemIndex, ''), 'triggerUrl');
	return callbackUrlWithToken(url, await secret());
}

type Reader = ReturnType<typeof parameterReader>;

/**
 * The External ID a message gets when the user gives none: the workflow, the execution and the
 * item, letters and digits only (the spec's "alphanumeric id"), so that a message whose outcome is
 * unknown can be found in the platform's reports and callbacks. The same item of the same
 * execution always gets the same one.
 */
function defaultExternalId(context: IExecuteFunctions, itemIndex: number): string {
	const alnum = (value: unknown) => String(value ?? '').replace(/[^A-Za-z0-9]/g, '');
	const workflow = alnum(context.getWorkflow().id).slice(0, 24) || 'manual';
	const execution = alnum(context.getExecutionId()).slice(0, 24) || runId;
	return `wf${workflow}ex${execution}it${itemIndex}`;
}

/** Stands in for the execution ID where n8n gives none: one per process start. */
const runId = Date.now().toString(36);

function messageParameters(read: Reader, itemIndex: number, type: MessageType, options: Record<string, unknown>, inputs: StructuredInputs, triggerUrl?: string): MessageParameters {
	const get = (name: string, fallback: unknown) => read(name, itemIndex, fallback);
	return {
		type,
		from: get('from', ''),
		to: get('to', ''),
		text: type === 'text' ? get('text', '') : undefined,
		mediaUrl: MEDIA_TYPES.includes(type as MediaType) ? get('mediaUrl', '') : undefined,
		...(type === 'contacts' ? (inputs.contacts === 'json' ? { contactsJson: get('contactsJson', '') } : { contacts: get('contacts', {}) }) : {}),
		latitude: type === 'location' ? get('latitude', undefined) : undefined,
		longitude: type === 'location' ? get('longitude', undefined) : undefined,
		locationName: type === 'location' ? get('locationName', '') : undefined,
		locationAddress: type === 'location' ? get('locationAddress', '') : undefined,
		bodyText: type === 'interactive' ? get('bodyText', '') : undefined,
		...(type === 'interactive' ? (inputs.buttons === 'json' ? { buttonsJson: get('buttonsJson', '') } : { buttons: get('buttons', {}) }) : {}),
		externalId: options.externalId,
		callbacks: [text(options.callbacks, 'callbacks'), triggerUrl].filter(Boolean).join(','),
	};
}

/** The Callbacks credential's secret, read once per run. */
async function readCallbackSecret(context: IExecuteFunctions): Promise<string> {
	const secret = String((await context.getCredentials(CALLBACK_CREDENTIAL_TYPE)).secret ?? '');
	if (!CALLBACK_SECRET_PATTERN.test(secret)) throw new InputError('sendToTrigger', "the Callbacks credential's secret must be 16 to 128 letters, digits, - or _");
	return secret;
}

interface Pace {
	messagesPerSecond: number;
	parallelRequests: number;
	senderId?: string;
	/** Share Pace Across Workers: the trigger's Production URL, whose board gives the run its turns. */
	sharePace?: URL;
	/** What a run does when its unique recipients exceed the sender's daily quota (known with senderId only). */
	overQuota: (typeof OVER_QUOTA)[number];
}

/** The run's pace, from the first item's options (one pace for the whole run). */
function readPace(context: IExecuteFunctions, labels: FieldLabels): Pace {
	return validated(context, 0, labels, () => {
		const options = record(context.getNodeParameter('options', 0, {}), 'options');
		const messagesPerSecond = options.messagesPerSecond === undefined ? DEFAULT_MESSAGES_PER_SECOND : number(options.messagesPerSecond, 'messagesPerSecond');
		if (messagesPerSecond < 0) throw new InputError('messagesPerSecond', `it must be 0 (no pacing) or more (got ${messagesPerSecond})`);
		const parallelRequests = parallelRequestsOf(options, DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS);
		const senderId = text(options.rateLimitSenderId, 'rateLimitSenderId');
		const overQuota = options.overQuota === undefined ? 'refuse' : oneOf(options.overQuota, 'overQuota', OVER_QUOTA);
		const sender = senderId ? pathSegment(senderId, 'rateLimitSenderId', 'a sender ID') : undefined;
		const sharePace = sharedPaceTrigger(context, options, sender);
		return { messagesPerSecond, parallelRequests, overQuota, ...(sender ? { senderId: sender } : {}), ...(sharePace ? { sharePace } : {}) };
	});
}

/**
 * The run's pace (every request of the run waits for its slot in one RateGate: see configureRun):
 * at the sender's rateLimit when a sender is given (read once), else at Messages per Second.
 */
async function openGate(context: IExecuteFunctions, pace: Pace, secret: () => Promise<string>, wanted: () => number): Promise<{ gate: RateGate; dailyQuota?: number }> {
	if (!pace.senderId) return { gate: configureRun(context, { pace: pace.messagesPerSecond }) };
	const { data } = await apiRequest(context, {
		base: 'messaging',
		method: 'GET',
		path: `/chatapp/senders/${encodeURIComponent(pace.senderId)}`,
		action: `read the rate limit of sender ${pace.senderId}`,
		expect: identifiedObjectResponse,
	});
	// The sender's limit is one for every run sending from it: runs of this process share one pacer.
	const { baseURL, timeoutMs } = await baseUrlOf(context, 'messaging');
	const key = `${baseURL} ${pace.senderId}`;
	const senderRate = senderPace(data.rateLimit, pace.messagesPerSecond);
	const gate = configureRun(context, { pace: senderRate, shareKey: key });
	// Runs of other processes too (queue mode's workers) take turns, from the trigger's board.
	if (pace.sharePace && typeof senderRate === 'object') {
		shareTurns(context, gate, { trigger: pace.sharePace, secret: await secret(), key, perSecond: senderRate.perSecond, timeoutMs, wanted });
	}
	const quota = Number(data.dailyQuota);
	return { gate, ...(Number.isInteger(quota) && quota > 0 ? { dailyQuota: quota } : {}) };
}

/**
 * The messages a run may not send because of the sender's daily quota of unique recipients, known
 * before the first is sent: the recipients beyond the first `dailyQuota` of the run (in item
 * order; more messages to a recipient already counted still go). With Over the Daily Quota at
 * Refuse the Run, the run stops here instead, nothing sent.
 */
function overQuota(context: IExecuteFunctions, pace: Pace, dailyQuota: number, messages: Array<{ itemIndex: number; value: Message }>): Map<number, Error> {
	const counted = new Set<string>();
	const beyond = new Set<string>();
	const held = new Map<number, Error>();
	for (const { itemIndex, value } of messages) {
		if (counted.has(value.to)) continue;
		if (counted.size < dailyQuota && !beyond.has(value.to)) {
			counted.add(value.to);
			continue;
		}
		beyond.add(value.to);
		held.set(itemIndex, overQuotaNotSent(context.getNode(), { itemIndex, to: value.to, senderId: pace.senderId!, dailyQuota }));
	}
	if (held.size && pace.overQuota === 'refuse') {
		throw new NodeOperationError(context.getNode(), `This run would message ${counted.size + beyond.size} unique recipients, more than sender ${pace.senderId}'s daily quota of ${dailyQuota}`, {
			description: `Nothing was sent. The platform counts unique recipients per day (UTC), earlier runs included, and refuses the ones beyond the quota. Send to fewer recipients, or set Options › Over the Daily Quota to Send to the First Recipients to send to the first ${dailyQuota} and report the others as not sent.`,
		});
	}
	return held;
}

/** Message > Send: POST /chatapp/messages, one message per input item, all validated before the first is sent. */
export async function sendMessages(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const { timeoutMs } = await baseUrlOf(this, 'messaging');
	// Contacts and buttons come from the editor's fields or as JSON, the same way for every item (the choice takes no expression).
	const input = (name: string) => (this.getNodeParameter(name, 0, 'define') === 'json' ? 'json' : 'define');
	const inputs: StructuredInputs = { contacts: input('contactsInput'), buttons: input('buttonsInput') };
	const labels = fieldLabels(sendMessageFields, messageAliases(inputs));
	const pace = readPace(this, labels);
	let gate: Promise<{ gate: RateGate; dailyQuota?: number }> | undefined;
	let callbackSecret: Promise<string> | undefined;
	const secret = async () => await (callbackSecret ??= readCallbackSecret(this));
	let toSend = Infinity; // the messages the run will send, once every item is checked: Share Pace Across Workers asks for no more turns
	const read = parameterReader(this);
	const describe = (message: Message): IDataObject => ({ from: message.from, to: message.to, type: message.type, externalId: message.externalId });
	try {
		return await runPerItem<Message>(this, {
			labels,
			rateLimitWaitOption: true,
			prepare: async (itemIndex) => {
				const options = record(read('options', itemIndex, {}), 'options');
				const type = oneOf(read('messageType', itemIndex, 'text'), 'messageType', MESSAGE_TYPES);
				const triggerUrl = await triggerCallback(read, itemIndex, secret);
				const parameters = messageParameters(read, itemIndex, type, options, inputs, triggerUrl);
				if (!text(parameters.externalId, 'externalId')) parameters.externalId = defaultExternalId(this, itemIndex);
				const message = messageSchema.parse(messageBody(parameters));
				const checkMediaFirst = options.checkMedia === undefined ? false : boolean(options.checkMedia, 'checkMedia');
				if (checkMediaFirst && MEDIA_TYPES.includes(message.type as MediaType)) {
					await checkMedia(this, message.type as MediaType, (message as { body: string }).body, timeoutMs);
				}
				return message;
			},
			concurrency: pace.parallelRequests,
			describe,
			// With a sender, its daily quota is known before the first message goes (the sender is read once, for its rate too).
			beforeSend: async (messages) => {
				toSend = messages.length;
				if (!pace.senderId || pace.overQuota === 'sendAll' || messages.length === 0) return new Map();
				const { dailyQuota } = await (gate ??= openGate(this, pace, secret, () => toSend));
				const held = dailyQuota ? overQuota(this, pace, dailyQuota, messages) : new Map<number, Error>();
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
				});
				return { ...describe(message), ...data };
			},
		});
	} finally {
		// A pacer shared with other runs of the sender is given back (see sharedPacer).
		if (gate) (await gate.catch(() => undefined))?.gate.release();
	}
}
