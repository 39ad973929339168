import { createHash } from 'node:crypto';

import type { Message } from './schema';

/** JSON with every object's keys in order: the same content gives the same text. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object')
		return `{${Object.keys(value)
			.sort()
			.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
			.join(',')}}`;
	return JSON.stringify(value);
}

/**
 * A message's default key for Skip Messages Sent Before: its recipient, its type and a hash of its
 * content (the body, contacts, location or buttons), so the same message to the same person has
 * the same key in every run. The sender, External ID and callback URLs are not content: a run sends
 * each message with a new External ID. `body` stands for the body where it changes each run (a
 * file's signed link: what identifies the file's bytes).
 */
export function messageContentKey(message: Message, body?: string): string {
	const content: Record<string, unknown> = { ...message };
	if (body !== undefined) content.body = body;
	for (const notContent of ['from', 'to', 'externalId', 'callbacks']) delete content[notContent];
	const hash = createHash('sha256').update(canonical(content)).digest('hex').slice(0, 24);
	return `${message.to} ${message.type} ${hash}`;
}
