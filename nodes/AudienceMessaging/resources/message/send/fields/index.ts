/** Message › Send's fields: message type, sender, recipient and each type's content. */
import type { INodeProperties } from 'n8n-workflow';

import { REPLY_BUTTONS_MAX, REPLY_TITLE_MAX } from '../../../../../../src/platform';
import type { MediaType } from '../../../../../../src/platform';
import { contactFields } from './contacts';
import { mediaFields } from './media';
import { sendOptions } from './options';

/** Send Status Events to a Trigger's third value: the trigger for Share Pace's turns alone. */
export const PACE_ONLY = 'paceOnly';

const forTypes = (...types: string[]) => ({ show: { messageType: types } });
export const MEDIA_TYPES: MediaType[] = ['image', 'audio', 'video', 'document'];

const inputMode = (name: string, what: string, type: string): INodeProperties => ({
	displayName: `${what} Input`,
	name,
	type: 'options',
	noDataExpression: true,
	default: 'define',
	options: [
		{
			name: 'Define Below',
			value: 'define',
			description: `Set the ${what.toLowerCase()} in the fields below`,
		},
		{
			name: 'JSON',
			value: 'json',
			description: "One JSON array, e.g. from an expression or an AI agent's $fromAI()",
		},
	],
	displayOptions: forTypes(type),
});

export const sendMessageFields: INodeProperties[] = [
	{
		displayName: 'Message Type',
		name: 'messageType',
		type: 'options',
		noDataExpression: true,
		default: 'text',
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
	},
	{
		displayName: 'Recipient',
		name: 'to',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. +33 6 12 34 56 78',
		description:
			"Phone number with country code; sent in E.164 form. Reachable within 24 hours of the user's last message (this node sends no template messages).",
	},
	{
		displayName: 'Text',
		name: 'text',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description:
			'Message text, at most 4096 characters (an emoji counts 2; spaces at the ends are not counted); URLs are allowed',
		displayOptions: forTypes('text'),
	},
	...mediaFields(MEDIA_TYPES),
	inputMode('contactsInput', 'Contacts', 'contacts'),
	...contactFields({ show: { messageType: ['contacts'], contactsInput: ['define'] } }),
	{
		displayName: 'Contacts (JSON)',
		name: 'contactsJson',
		type: 'json',
		required: true,
		default:
			'[{"name": {"formatted_name": "Ada Lovelace", "first_name": "Ada"}, "phones": [{"phone": "+44 20 7946 0000", "type": "WORK"}]}]',
		description:
			"A JSON array of contacts in the API's format, keyed as in the default; each contact needs a formatted name and a first or last name",
		displayOptions: { show: { messageType: ['contacts'], contactsInput: ['json'] } },
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
		displayOptions: { show: { messageType: ['interactive'], buttonsInput: ['json'] } },
	},
	{
		displayName: 'Buttons',
		name: 'buttons',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true, maxValue: REPLY_BUTTONS_MAX },
		placeholder: 'Add Reply Button',
		default: {},
		description: `Reply buttons: at least 1, at most ${REPLY_BUTTONS_MAX}, unique IDs, titles of at most ${REPLY_TITLE_MAX} characters (the chat-app provider's limits)`,
		displayOptions: { show: { messageType: ['interactive'], buttonsInput: ['define'] } },
		options: [
			{
				displayName: 'Button',
				name: 'button',
				values: [
					{
						displayName: 'ID',
						name: 'id',
						type: 'string',
						default: '',
						description: 'Returned to you when the user taps the button',
					},
					{
						displayName: 'Title',
						name: 'title',
						type: 'string',
						default: '',
						description: `Button label, at most ${REPLY_TITLE_MAX} characters`,
					},
				],
			},
		],
	},
	{
		// Was a boolean: saved workflows' true and false keep their meaning.
		displayName: 'Send Status Events to a Trigger',
		name: 'sendToTrigger',
		type: 'options',
		default: false,
		description:
			"Whether the platform reports this message's status changes (delivered, read, refused…) to an Audience Messaging Trigger",
		options: [
			{ name: 'No', value: false },
			{
				name: 'No, Only Share Pace Through It',
				value: PACE_ONLY,
				description:
					"The trigger only gives Options › Share Pace Across Workers its turns; the platform reports no status change to it, so a campaign's events do not load the process that gives the turns",
			},
			{
				name: 'Yes',
				value: true,
				description:
					"The platform reports each message's status changes to the trigger (and Share Pace Across Workers takes its turns there)",
			},
		],
	},
	{
		displayName: 'Trigger Production URL',
		name: 'triggerUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://n8n.example.com/webhook/5b0f9c3e-…/callbacks',
		description:
			'The Production URL shown by the Audience Messaging Trigger node (the trigger must use the same Callbacks credential)',
		displayOptions: { show: { sendToTrigger: [true, PACE_ONLY] } },
	},
	sendOptions(),
];
