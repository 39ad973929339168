import type { Operation } from '../../../shared/operation';
import { sendAndWaitFields } from './fields';
import { SEND_AND_WAIT } from './links';
import { sendAndWaitForResponse } from './run';

/** Message › Send and Wait for Response. */
export const operation: Operation = {
	option: {
		name: 'Send and Wait for Response',
		value: SEND_AND_WAIT,
		action: 'Send message and wait for response',
		description: 'Send a text message with links to answer, and wait for the answer',
	},
	fields: sendAndWaitFields,
	run: sendAndWaitForResponse,
};
