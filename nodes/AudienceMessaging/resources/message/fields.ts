import type { INodeProperties } from 'n8n-workflow';

import { MEDIA, REPLY_BUTTONS_MAX, REPLY_TITLE_MAX } from '../../core';
import type { MediaType } from '../../core';
import { parallelRequestsOption, previewOption, rateLimitWaitOption } from '../../shared/descriptions';
import type { FieldAliases } from '../../shared/labels';
import { contactFields } from './contacts';

const show = { resource: ['message'], operation: ['send'] };
const forTypes = (...types: string[]) => ({ show: { ...show, messageType: types } });
export const MEDIA_TYPES: MediaType[] = ['image', 'audio', 'video', 'document'];
export const DEFAULT_MESSAGES_PER_SECOND = 10;
export const DEFAULT_PARALLEL_REQUESTS = 10;
export const MAX_PARALLEL_REQUESTS = 50;
/** Over the Daily Quota: refuse the run, send to the first recipients the quota allows, or send all (the platform refuses the rest). */
export const OVER_QUOTA = ['refuse', 'sendFirst', 'sendAll'] as const;

/** How a structured message type is given: the editor's fields, or one JSON value (what an AI agent's $fromAI() produces). */
type StructuredInput = 'define' | 'json';

/**
 * The message schema's paths (the body the API takes) that are not the fields' own: errors name
 * the field the value came from, the JSON field when contacts or buttons come as JSON.
 */
/** How this run's contacts and buttons are given (the choices take no expression: one per run). */
export type StructuredInputs = { contacts: StructuredInput; buttons: StructuredInput };

export function messageAliases(input: StructuredInputs): FieldAliases {
	return {
		body: 'text',
		...(input.contacts === 'json'
			? { contacts: 'contactsJson' }
			: {
					'contacts.org.company': 'contacts.company',
					'contacts.org.department': 'contacts.department',
					'contacts.org.title': 'contacts.title',
					'contacts.name.formatted_name': 'contacts.formattedName',
					'contacts.name.last_name': 'contacts.lastName',
					// A contact needs a first or a last name: the rule names both fields.
					'contacts.name.first_name': ['contacts.firstName', 'contacts.lastName'],
				}),
		'location.latitude': 'latitude',
		'location.longitude': 'longitude',
		'location.name': 'locationName',
		'location.address': 'locationAddress',
		'interactive.body.text': 'bodyText',
		'interactive.action.buttons': input.buttons === 'json' ? 'buttonsJson' : 'buttons',
		'interactive.action.buttons.reply': input.buttons === 'json' ? 'buttonsJson' : 'buttons',
	};
}

/** "Define Below" or "JSON" for a structured message type. */
const inputMode = (name: string, what: string, type: string): INodeProperties => ({
	displayName: `${what} Input`,
	name,
	type: 'options',
	noDataExpression: true,
	default: 'define',
	options: [
		{ name: 'Define Below', value: 'define', description: `Set the ${what.toLowerCase()} in the fields below` },
		{ name: 'JSON', value: 'json', description: "One JSON array, e.g. from an expression or an AI agent's $fromAI()" },
	],
	displayOptions: forTypes(type),
});

const mediaNotice = (type: MediaType): INodeProperties => ({
	displayName: `The ${type} must be one of ${MEDIA[type].contentTypes.join(', ')}, at most 5 MB after processing, and reachable by the platform at the URL`,
	name: `${type}Notice`,
	type: 'notice',
	default: '',
	displayOptions: forTypes(type),
});

export const sendMessageFields: INodeProperties[] = [
	{
		displayName: 'Message Type',
		name: 'messageType',
		type: 'options',
		noDataExpression: true,
		default: 'text',
		displayOptions: { show },
		options: [
			{ name: 'Audio', value: 'audio' },
			{ name: 'Contacts', value: 'contacts' },
			{ name: 'Document', value: 'document' },
			{ name: 'Image', value: 'image' },
			{ name: 'Interactive (Reply Buttons)', value: 'interactive' },
			{ name: 'Location', value: 'location' },
			{ name: 'Text', value: 'text' },
			{ name: 'Video', value: 'video' },
		],
	},
	{
		displayName: 'Sender Phone Number',
		name: 'from',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +1 555 010 0100',
		description: 'Phone number of an ACTIVE sender; sent as digits only',
		displayOptions: { show },
	},
	{
		displayName: 'Recipient',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +33 6 12 34 56 78',
		description: 'Phone number with country code; sent in E.164 form. Outside 24 hours after the user\'s last message, only template messages may be sent.',
		displayOptions: { show },
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: 'Message text; URLs are allowed',
		displayOptions: forTypes('text'),
	},
	...MEDIA_TYPES.map(mediaNotice),
	{
		displayName: 'Media URL',
		name: 'mediaUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/files/welcome.jpg',
		description: 'Public http(s) URL of the file; its content type and size can be checked before sending (Options › Check Media Before Sending)',
		displayOptions: forTypes(...MEDIA_TYPES),
	},
	inputMode('contactsInput', 'Contacts', 'contacts'),
	...contactFields({ show: { ...show, messageType: ['contacts'], contactsInput: ['define'] } }),
	{
		displayName: 'Contacts (JSON)',
		name: 'contactsJson',
		type: 'json',
		required: true,
		default: '[{"name": {"formatted_name": "Ada Lovelace", "first_name": "Ada"}, "phones": [{"phone": "+44 20 7946 0000", "type": "WORK"}]}]',
		description:
			'The contacts as the API takes them: an array of objects with name (formatted_name, and first_name or last_name), and optionally birthday (YYYY-MM-DD), org (company, department, title), and arrays of phones, emails, web addresses and addresses whose entries have a type HOME or WORK (keys as in the default)',
		displayOptions: { show: { ...show, messageType: ['contacts'], contactsInput: ['json'] } },
	},
	{
		displayName: 'Latitude',
		name: 'latitude',
		type: 'number',
		required: true,
		typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
		default: 0,
		displayOptions: forTypes('location'),
	},
	{
		displayName: 'Longitude',
		name: 'longitude',
		type: 'number',
		required: true,
		typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
		default: 0,
		displayOptions: forTypes('location'),
	},
	{
		displayName: 'Location Name',
		name: 'locationName',
		type: 'string',
		default: '',
		placeholder: 'e.g. ACME Store',
		displayOptions: forTypes('location'),
	},
	{
		displayName: 'Location Address',
		name: 'locationAddress',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1 Main Street, Springfield',
		description: 'Shown only together with a name, so a name is required when an address is given',
		displayOptions: forTypes('location'),
	},
	{
		displayName: 'Body Text',
		name: 'bodyText',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		description: 'Text shown above the buttons',
		displayOptions: forTypes('interactive'),
	},
	inputMode('buttonsInput', 'Buttons', 'interactive'),
	{
		displayName: 'Buttons (JSON)',
		name: 'buttonsJson',
		type: 'json',
		required: true,
		default: '[{"id": "yes", "title": "Yes"}, {"id": "no", "title": "No"}]',
		description: `The reply buttons, as in the default: at least 1, at most ${REPLY_BUTTONS_MAX}, unique IDs, titles of at most ${REPLY_TITLE_MAX} characters`,
		displayOptions: { show: { ...show, messageType: ['interactive'], buttonsInput: ['json'] } },
	},
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true, maxValue: REPLY_BUTTONS_MAX },
		placeholder: 'Add Reply Button',
		default: {},
		description: `Reply buttons: at least 1, at most ${REPLY_BUTTONS_MAX}, unique IDs, titles of at most ${REPLY_TITLE_MAX} characters (the chat-app provider's limits)`,
		displayOptions: { show: { ...show, messageType: ['interactive'], buttonsInput: ['define'] } },
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{ displayName: 'ID', name: 'id', type: 'string', default: '', description: 'Returned to you when the user taps the button' },
					{ displayName: 'Title', name: 'title', type: 'string', default: '', description: `Button label, at most ${REPLY_TITLE_MAX} characters` },
				],
			},
		],
	},
	{
		displayName: 'Send Status Events to a Trigger',
		name: 'sendToTrigger',
		type: 'boolean',
		default: false,
		description:
			"Whether the platform posts this message's status events to an Audience Messaging Trigger. The node adds the token derived from the Callbacks credential's secret to the trigger's URL, so the secret is never written in the workflow.",
		displayOptions: { show },
	},
	{
		displayName: 'Trigger Production URL',
		name: 'triggerUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://n8n.example.com/webhook/5b0f9c3e-…/callbacks',
		description: 'The Production URL shown by the Audience Messaging Trigger node (the trigger must use the same Callbacks credential)',
		displayOptions: { show: { ...show, sendToTrigger: [true] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Callback URLs',
				name: 'callbacks',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.example.com/webhook/…/audience-messaging/…',
				description:
					"Other webhook URLs the platform notifies of this message's status events; separate several with commas. For an Audience Messaging Trigger, use Send Status Events to a Trigger instead.",
			},
			{
				displayName: 'Check Media Before Sending',
				name: 'checkMedia',
				type: 'boolean',
				default: false,
				description: 'Whether to ask the media URL for its content type and size (HEAD request) and refuse the message when they do not fit the type',
			},
			{
				displayName: 'External ID',
				name: 'externalId',
				type: 'string',
				default: '',
				description:
					'Your own ID for reporting; letters and digits only, at most 64. Left empty, each message gets one made of the workflow, execution and item (e.g. wfAbC12ex4521it7), returned in the output, so a message whose outcome is unknown can be looked up.',
			},
			rateLimitWaitOption(),
			previewOption(),
			{
				displayName: 'Messages per Second',
				name: 'messagesPerSecond',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 2 },
				default: DEFAULT_MESSAGES_PER_SECOND,
				description: "At most this many messages start in any one second, for the whole run, evenly spaced a little under it (0: no pacing). Set it to the sender's rateLimit, or give Sender ID for Rate Limit.",
			},
			{
				displayName: 'Over the Daily Quota',
				name: 'overQuota',
				type: 'options',
				default: 'refuse',
				description:
					"With Sender ID for Rate Limit, the sender's dailyQuota of unique recipients is read before the first message: what to do when this run alone has more recipients",
				options: [
					{ name: 'Refuse the Run', value: 'refuse', description: 'Send nothing and say so' },
					{ name: 'Send All', value: 'sendAll', description: 'Send every message; the platform refuses the recipients beyond its quota' },
					{ name: 'Send to the First Recipients', value: 'sendFirst', description: 'Send to the first recipients the quota allows, in item order; the others are reported as not sent' },
				],
			},
			parallelRequestsOption(DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, 'messages'),
			{
				displayName: 'Sender ID for Rate Limit',
				name: 'rateLimitSenderId',
				type: 'string',
				default: '',
				placeholder: 'e.g. snd_4f2a',
				description: "Reads this sender once (Sender › Get) and paces the run at its rateLimit instead of Messages per Second",
			},
		],
	},
];
