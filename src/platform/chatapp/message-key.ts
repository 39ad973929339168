/** The default Message Key of Skip Messages Sent Before. */
import { createHash } from 'node:crypto';

import { canonicalJson } from '../../base';

import type { Message } from './schema';

/**
 * The key: recipient, type and a content hash, so the same message to the same person has the same
 * key in every run; sender, External ID (new each run) and callbacks are not content. `body`
 * stands in for a body that changes each run (a file's signed link): what identifies the bytes.
 */
export function messageContentKey(message: Message, body?: string): string {
	const content: Record<string, unknown> = { ...message };
	if (body !== undefined) content.body = body;
	for (const notContent of ['from', 'to', 'externalId', 'callbacks']) delete content[notContent];
	const hash = createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 24);
	return `${message.to} ${message.type} ${hash}`;
}
