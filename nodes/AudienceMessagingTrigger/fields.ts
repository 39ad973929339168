/** The trigger's fields: how to connect it, and which statuses start the workflow. */
import type { INodeProperties } from 'n8n-workflow';

import { statusOptions } from './statuses';

export const triggerFields: INodeProperties[] = [
	{
		displayName:
			"In Audience Messaging › Message › Send, turn on Send Status Events to a Trigger, paste this node's Production URL and pick the same Callbacks credential: the node adds the token derived from its secret. Then publish this workflow.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'options',
		default: 'any',
		options: [
			{
				name: 'Any Status',
				value: 'any',
				description: 'Every event, including statuses the platform may add later',
			},
			{ name: 'Only Selected Statuses', value: 'selected' },
		],
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		default: [],
		// n8n flags an empty pick; publishing checks it too (webhookMethods.create).
		required: true,
		description:
			"Start the workflow only for these statuses; other events are acknowledged and dropped. Delivered and Read are not confirmed by the platform's docs: check with Any Status that your account sends them.",
		displayOptions: { show: { events: ['selected'] } },
		options: statusOptions,
	},
	{
		// n8n does not parse the body of a version-1 webhook node that asks for binary data, so
		// version 1 reads and checks it itself; n8n evaluates this for every request to version 1.
		displayName: 'Raw Body',
		name: 'options',
		type: 'hidden',
		default: { binaryData: true },
		displayOptions: { show: { '@version': [1] } },
	},
];
