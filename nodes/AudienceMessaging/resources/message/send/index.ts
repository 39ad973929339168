/** Message › Send: the operation's option, fields and run. */
import type { Operation } from '../../../runner/operation';
import { sendMessageFields } from './fields';
import { sendMessages } from './run';

export const operation: Operation = {
	option: {
		name: 'Send',
		value: 'send',
		action: 'Send a chat app message',
		description:
			'Send a regular message (text, media, contacts, location or reply buttons) inside the 24-hour window',
	},
	fields: sendMessageFields,
	run: sendMessages,
};
