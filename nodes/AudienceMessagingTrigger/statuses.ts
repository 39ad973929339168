/** The statuses the trigger can filter on, named and described for the editor. */
import type { INodePropertyOptions } from 'n8n-workflow';

import { CALLBACK_STATUSES } from '../../src/platform/callbacks';

/** What each status means, as the editor lists it (the platform's docs name them, little more). */
const STATUS_MEANING: Record<(typeof CALLBACK_STATUSES)[number], string> = {
	QUEUE: 'Accepted by the platform, waiting to be sent',
	DEQUEUED: 'Taken from the queue to be sent',
	SENT: 'Handed to the chat app (a message may stay here when read receipts are off)',
	DELIVERED: "Reached the recipient's phone (not confirmed by the platform's docs)",
	READ: "Read by the recipient (not confirmed by the platform's docs; needs read receipts on)",
	CODE_NOT_ALLOWED: "Not sent: the platform does not allow the recipient's country code",
	INCOMPLETE: 'Not sent: the message was incomplete',
	BLACKLISTED: "Not sent: the recipient is on the sender's blacklist",
	QUOTA_EXCEEDED: "Not sent: the sender's daily quota of unique recipients was reached",
};

/** A platform status as the editor lists it: CODE_NOT_ALLOWED reads "Code Not Allowed". */
const statusName = (status: string) =>
	status
		.split('_')
		.map((word) => word[0] + word.slice(1).toLowerCase())
		.join(' ');

export const statusOptions: INodePropertyOptions[] = CALLBACK_STATUSES.map((status) => ({
	name: statusName(status),
	value: status,
	description: STATUS_MEANING[status],
}));
