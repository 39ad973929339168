/**
 * Message › Send's record of one message (Outgoing), and how an item is read and checked into it:
 * parameters, External ID, callback, Quiet Hours plan, Message Key and file.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { boolean, httpUrl, InputError, oneOf, record, text } from '../../../../../src/base';
import {
	CALLBACK_CREDENTIAL_TYPE,
	CALLBACK_SECRET_PATTERN,
	callbackUrlWithToken,
	MESSAGE_TYPES,
	messageBody,
	messageContentKey,
	messageSchema,
} from '../../../../../src/platform';
import type {
	MediaType,
	Message,
	MessageParameters,
	MessageType,
} from '../../../../../src/platform';
import { parameterReader } from '../../../runner/parameters';
import type { Reader } from '../../../runner/parameters';
import type { StructuredInputs } from './aliases';
import { FILE_LINK_UNSIGNED, itemMedia, RunFiles } from './binary-media';
import type { PublishedMedia } from './binary-media';
import { MEDIA_TYPES, PACE_ONLY } from './fields';
import { checkMedia } from './media';
import type { QuietPlan, RunQuietHours } from './quiet-hours';

/**
 * One message of the run, as its item was read and checked: what every later stage needs of it,
 * kept together (the holds before sending, the send itself, its output item).
 */
export interface Outgoing {
	message: Message;
	/** Its Message Key, with Skip Messages Sent Before. */
	key?: string;
	/** Its window and zones, with Quiet Hours. */
	quiet?: QuietPlan;
	/** A binary file, its link signed when the message is sent. */
	file?: PublishedMedia;
}

/** Parameters given for every item instead of the node's (Send and Wait for Response's text). */
export type GivenParameters = { messageType?: 'text'; text?: string };

/**
 * Reads and checks one item's message (its type's fields, the External ID, the trigger's callback,
 * its Quiet Hours plan, the message key, its file), and with Check Media Before Sending asks its
 * media URL. No message is sent: every item is checked before the first one goes.
 */
export function messagePreparer(
	context: IExecuteFunctions,
	run: { secret: () => Promise<string>; quiet: RunQuietHours; history?: object },
	inputs: StructuredInputs,
	timeoutMs: number,
	given: GivenParameters,
): (itemIndex: number) => Promise<Outgoing> {
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

/** Send Status Events to a Trigger: the trigger's status events and turns, its turns alone, none. */
export function triggerUse(value: unknown): 'events' | 'pace' | undefined {
	if (value === PACE_ONLY) return 'pace';
	if (value === undefined || value === null || value === '') return undefined;
	return boolean(value, 'sendToTrigger') ? 'events' : undefined;
}

/**
 * The trigger's URL with the token of the Callbacks credential, when the item sends its events to a
 * trigger. Its token is one of the request's secrets (see SendRun.post): a preview shows `***`.
 */
export async function triggerCallback(
	get: Reader,
	itemIndex: number,
	secret: () => Promise<string>,
): Promise<string | undefined> {
	if (triggerUse(get('sendToTrigger', itemIndex, false)) !== 'events') return undefined;
	const url = httpUrl(get('triggerUrl', itemIndex, ''), 'triggerUrl');
	return callbackUrlWithToken(url, await secret());
}

/**
 * The External ID a message gets when the user gives none: the workflow, the execution and the
 * item, letters and digits only (the spec's "alphanumeric id"), so that a message whose outcome is
 * unknown can be found in the platform's reports and callbacks. The same item of the same execution
 * always gets the same one.
 */
export function defaultExternalId(context: IExecuteFunctions, itemIndex: number): string {
	const alnum = (value: unknown) => String(value ?? '').replace(/[^A-Za-z0-9]/g, '');
	const workflow = alnum(context.getWorkflow().id).slice(0, 24) || 'manual';
	const execution = alnum(context.getExecutionId()).slice(0, 24) || runId;
	return `wf${workflow}ex${execution}it${itemIndex}`;
}

/** Stands in for the execution ID where n8n gives none: one per process start. */
const runId = Date.now().toString(36);

export function messageParameters(
	read: Reader,
	itemIndex: number,
	type: MessageType,
	options: Record<string, unknown>,
	inputs: StructuredInputs,
	triggerUrl?: string,
): MessageParameters {
	const get = (name: string, fallback: unknown) => read(name, itemIndex, fallback);
	return {
		type,
		from: get('from', ''),
		to: get('to', ''),
		text: type === 'text' ? get('text', '') : undefined,
		mediaUrl: MEDIA_TYPES.includes(type as MediaType) ? get('mediaUrl', '') : undefined,
		...(type === 'contacts'
			? inputs.contacts === 'json'
				? { contactsJson: get('contactsJson', '') }
				: { contacts: get('contacts', {}) }
			: {}),
		latitude: type === 'location' ? get('latitude', undefined) : undefined,
		longitude: type === 'location' ? get('longitude', undefined) : undefined,
		locationName: type === 'location' ? get('locationName', '') : undefined,
		locationAddress: type === 'location' ? get('locationAddress', '') : undefined,
		bodyText: type === 'interactive' ? get('bodyText', '') : undefined,
		...(type === 'interactive'
			? inputs.buttons === 'json'
				? { buttonsJson: get('buttonsJson', '') }
				: { buttons: get('buttons', {}) }
			: {}),
		externalId: options.externalId,
		callbacks: [text(options.callbacks, 'callbacks'), triggerUrl].filter(Boolean).join(','),
	};
}

/** The Callbacks credential's secret, read once per run (SendRun.secret). */
export async function readCallbackSecret(context: IExecuteFunctions): Promise<string> {
	const secret = String((await context.getCredentials(CALLBACK_CREDENTIAL_TYPE)).secret ?? '');
	if (!CALLBACK_SECRET_PATTERN.test(secret))
		throw new InputError(
			'sendToTrigger',
			"the Callbacks credential's secret must be 16 to 128 letters, digits, - or _",
		);
	return secret;
}

const MESSAGE_KEY_MAX = 1000;

/**
 * The item's Message Key (Options), or the recipient and the message's content when empty (a file's
 * bytes, read only then, stand for a link to it that changes each run).
 */
export async function messageKeyOf(
	options: Record<string, unknown>,
	message: Message,
	file?: () => Promise<string>,
): Promise<string> {
	const key = text(options.messageKey, 'messageKey');
	if (key.length > MESSAGE_KEY_MAX)
		throw new InputError(
			'messageKey',
			`it has ${key.length} characters, more than ${MESSAGE_KEY_MAX}: use a shorter key (an ID, a campaign name)`,
		);
	return key || messageContentKey(message, file && (await file()));
}
