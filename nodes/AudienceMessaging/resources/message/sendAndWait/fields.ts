import type { INodeProperties } from 'n8n-workflow';

import {
	optionsCollection,
	previewOption,
	rateLimitWaitOption,
} from '../../../shared/descriptions';
import { sendMessageFields } from '../send/fields';
import { formDefinitionFields } from './form-fields';

const forResponse = (...responseType: string[]) => ({ show: { responseType } });

/**
 * A copy of Send's field of that name, for Send and Wait for Response (a field of its own:
 * resourceOf shows each field for the operations that list it).
 */
const sendField = (name: string): INodeProperties => ({
	...sendMessageFields.find((field) => field.name === name)!,
});

/** How long the execution waits for the answer (n8n's chat nodes' Limit Wait Time). */
const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to stop waiting for the answer after a while; the execution then goes on with the input items, without an answer',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							value: 'afterTimeInterval',
							description: 'Waits for a certain amount of time',
						},
						{
							name: 'At Specified Time',
							value: 'atSpecifiedTime',
							description: 'Waits until the set date and time to continue',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					description: 'The time to wait',
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					default: 'hours',
					description: 'Unit of the interval value',
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
					default: '',
					description: 'Continue execution after the specified date and time',
				},
			],
		},
	],
};

const appendAttribution: INodeProperties = {
	displayName: 'Append Attribution',
	name: 'appendAttribution',
	type: 'boolean',
	default: true,
	description:
		'Whether to include the phrase "This message was sent automatically with n8n" to the end of the message',
};

/** n8n's behaviour, one tap: opening an approval link answers, without the confirm page. */
const answerOnOpen: INodeProperties = {
	displayName: 'Answer When the Link Is Opened',
	name: 'answerOnOpen',
	type: 'boolean',
	default: false,
	description:
		"Whether opening a link answers at once, as in n8n's own nodes, with no page and button to press. Link checkers that open links as a browser does then answer too.",
};

const externalId: INodeProperties = {
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	default: '',
	description:
		'Your own ID for reporting; letters and digits only, at most 64. Left empty, one is made from the workflow and execution.',
};

/** Message › Send and Wait for Response: the message, the answer asked for, and its options. */
export const sendAndWaitFields: INodeProperties[] = [
	sendField('from'),
	sendField('to'),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		description: 'Text of the message; the links to answer are added below it',
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description: 'User can approve/disapprove from within the message',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'User can submit a response via a form',
			},
			{
				name: 'Custom Form',
				value: 'customForm',
				description: 'User can submit a response via a custom form',
			},
		],
	},
	...formDefinitionFields(),
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Disapprove', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: '✓ Approve',
						displayOptions: { show: { approvalType: ['single', 'double'] } },
					},
					{
						displayName: 'Disapprove Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: '✗ Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
		displayOptions: forResponse('approval'),
	},
	optionsCollection(
		[
			answerOnOpen,
			appendAttribution,
			externalId,
			limitWaitTime,
			rateLimitWaitOption(),
			previewOption(),
		],
		forResponse('approval').show,
	),
	optionsCollection(
		[
			appendAttribution,
			externalId,
			limitWaitTime,
			rateLimitWaitOption(),
			{
				displayName: 'Message Button Label',
				name: 'messageButtonLabel',
				type: 'string',
				default: 'Respond',
			},
			previewOption(),
			{
				displayName: 'Response Form Button Label',
				name: 'responseFormButtonLabel',
				type: 'string',
				default: 'Submit',
			},
			{
				displayName: 'Response Form Description',
				name: 'responseFormDescription',
				type: 'string',
				default: '',
				description: 'Description of the form that the user can access to provide their response',
			},
			{
				displayName: 'Response Form Title',
				name: 'responseFormTitle',
				type: 'string',
				default: '',
				description: 'Title of the form that the user can access to provide their response',
			},
		],
		forResponse('freeText', 'customForm').show,
	),
];
