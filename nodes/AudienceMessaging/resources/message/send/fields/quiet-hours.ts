/** Quiet Hours' fields: the window (Send From, Send Until, Days) and the recipient's zone. */
import type { INodeProperties } from 'n8n-workflow';

import { WEEKDAYS } from '../../../../../../src/quiet';

export const windowFields: INodeProperties[] = [
	{
		displayName: 'Send From',
		name: 'from',
		type: 'string',
		default: '09:00',
		placeholder: 'e.g. 09:00',
		description: "When the window opens, in the recipient's local time (HH:MM, 24-hour)",
	},
	{
		displayName: 'Send Until',
		name: 'until',
		type: 'string',
		default: '20:00',
		placeholder: 'e.g. 20:00',
		description: 'When it closes; earlier than Send From: on the next day',
	},
	{
		displayName: 'Days',
		name: 'days',
		type: 'multiOptions',
		default: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
		description: "The days it opens on, in the recipient's calendar",
		options: WEEKDAYS.map((day) => ({ name: day[0].toUpperCase() + day.slice(1), value: day })),
	},
	{
		displayName: 'Recipient Time Zone',
		name: 'timeZone',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.timezone }}',
		description:
			"An IANA name such as Europe/Paris. Empty: the zone of the number's prefix (+1 212: New York); where it has several, the window open in all of them at once.",
	},
];

export const quietHoursOption: INodeProperties = {
	displayName: 'Quiet Hours',
	name: 'quietHours',
	type: 'fixedCollection',
	placeholder: 'Add Quiet Hours',
	default: { window: {} },
	description:
		"Send only in the recipient's daytime. A message outside it is not sent: its item comes out held, with the time the window opens (sendAfter).",
	options: [{ displayName: 'Window', name: 'window', values: windowFields }],
};
