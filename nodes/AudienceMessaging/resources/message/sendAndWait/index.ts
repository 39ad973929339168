/** Message › Send and Wait for Response: the operation's option, fields and run. */
import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import type { Operation } from '../../../runner/operation';
import { sendAndWaitFields } from './fields';
import { sendAndWaitForResponse } from './run';

/** n8n signs the links and builds its human review tool by the operation's value. */
export const operation: Operation = {
	option: {
		name: 'Send and Wait for Response',
		value: SEND_AND_WAIT_OPERATION,
		action: 'Send message and wait for response',
		description: 'Send a text message with links to answer, and wait for the answer',
	},
	fields: sendAndWaitFields,
	run: sendAndWaitForResponse,
};
