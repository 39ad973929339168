import type { IExecuteFunctions } from 'n8n-workflow';

import { boolean, httpUrl, InputError, text } from '../../../../../src/base';
import {
	CALLBACK_CREDENTIAL_TYPE,
	CALLBACK_SECRET_PATTERN,
	callbackUrlWithToken,
	messageContentKey,
} from '../../../../../src/platform';
import type {
	MediaType,
	Message,
	MessageParameters,
	MessageType,
} from '../../../../../src/platform';
import type { parameterReader } from '../../../shared/parameters';
import type { StructuredInputs } from './aliases';
import { MEDIA_TYPES } from './fields';

/**
 * The trigger's URL with the token of the Callbacks credential, when the item sends its events to a
 * trigger. Its token is one of the request's secrets (see sendMessages): a preview shows `***`.
 */
export async function triggerCallback(
	get: Reader,
	itemIndex: number,
	secret: () => Promise<string>,
): Promise<string | undefined> {
	if (!boolean(get('sendToTrigger', itemIndex, false), 'sendToTrigger')) return undefined;
	const url = httpUrl(get('triggerUrl', itemIndex, ''), 'triggerUrl');
	return callbackUrlWithToken(url, await secret());
}

export type Reader = ReturnType<typeof parameterReader>;

/**
 * The External ID a message gets when the user gives none: the workflow, the execution and the
 * item, letters and digits only (the spec's "alphanumeric id"), so that a message whose outcome is
 * unknown can be found in the platform's reports and callbacks. The same item of the same
 * execution always gets the same one.
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

/** The Callbacks credential's secret, read once per run. */
export async function readCallbackSecret(context: IExecuteFunctions): Promise<string> {
	const secret = String((await context.getCredentials(CALLBACK_CREDENTIAL_TYPE)).secret ?? '');
	if (!CALLBACK_SECRET_PATTERN.test(secret))
		throw new InputError(
			'sendToTrigger',
			"the Callbacks credential's secret must be 16 to 128 letters, digits, - or _",
		);
	return secret;
}

/** Longest Message Key, in characters. */
const MESSAGE_KEY_MAX = 1000;

/**
 * The item's Message Key (Options), or the recipient and the message's content when empty (a
 * file's bytes, read only then, stand for a link to it that changes each run).
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
