/** Send and Wait's own options: wait limit, attribution, one-tap answers, External ID. */
import type { INodeProperties } from 'n8n-workflow';

/** How long the execution waits for the answer (n8n's chat nodes' Limit Wait Time). */
export const limitWaitTime: INodeProperties = {
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

export const appendAttribution: INodeProperties = {
	displayName: 'Append Attribution',
	name: 'appendAttribution',
	type: 'boolean',
	default: true,
	description:
		'Whether to include the phrase "This message was sent automatically with n8n" to the end of the message',
};

/** n8n's behaviour, one tap: opening an approval link answers, without the confirm page. */
export const answerOnOpen: INodeProperties = {
	displayName: 'Answer When the Link Is Opened',
	name: 'answerOnOpen',
	type: 'boolean',
	default: false,
	description:
		"Whether opening a link answers at once, as in n8n's own nodes, with no page and button to press. Link checkers that open links as a browser does then answer too.",
};

export const externalId: INodeProperties = {
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	default: '',
	description:
		'Your own ID for reporting; letters and digits only, at most 64. Left empty, one is made from the workflow and execution.',
};
