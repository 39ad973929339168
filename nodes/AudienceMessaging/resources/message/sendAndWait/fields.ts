/** Message › Send and Wait for Response's fields: the message, the answer asked for, options. */
import type { INodeProperties } from 'n8n-workflow';

import {
	optionsCollection,
	previewOption,
	rateLimitWaitOption,
} from '../../../runner/descriptions';
import { sendMessageFields } from '../send/fields';
import { formDefinitionFields } from './form-fields';
import { answerOnOpen, appendAttribution, externalId, limitWaitTime } from './option-fields';

const forResponse = (...responseType: string[]) => ({ show: { responseType } });

/** Send's own field: resourceOf shows a field once for every operation that lists it. */
const sendField = (name: string): INodeProperties =>
	sendMessageFields.find((field) => field.name === name)!;

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
		description:
			'Text of the message; the links to answer (and the attribution line, unless off) are added below it, and all of it counts towards the 4096 characters of a text message',
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
