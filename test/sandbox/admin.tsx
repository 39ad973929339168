/** The admin routes' router (/__sandbox), and how their small JSON bodies are read. */
import type { IncomingMessage } from 'node:http';
import { show } from './checks';
import { HttpError, badRequest, isPlainObject, type Query } from './http';
import { Router } from './router';

export interface AdminContext {
	params: Record<string, string>;
	query: Query;
	/** The body parsed as JSON whatever its content type; undefined when empty. */
	json(): Promise<unknown>;
}

/** Answers the JSON value to send with 200; throws HttpError for anything else. */
export type AdminHandler = (ctx: AdminContext) => unknown;

/** Routes under /__sandbox (no auth, not recorded, no meta). */
export class AdminRouter extends Router<AdminHandler> {}

/**
 * Admin bodies are small: read whole, `{}`-like leniency (no content-type check, empty =
 * undefined).
 */
export async function readAdminJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req) {
		size += (chunk as Buffer).length;
		if (size > 1024 * 1024)
			throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'Admin request body exceeds 1 MB');
		chunks.push(chunk as Buffer);
	}
	const text = Buffer.concat(chunks).toString('utf8');
	if (text.trim() === '') return undefined;
	try {
		return JSON.parse(text);
	} catch (error) {
		throw badRequest(`Malformed JSON body: ${(error as Error).message}`, 'INVALID_JSON');
	}
}

/** The body of the admin wait endpoints: `{ messageId?, timeoutMs? (default 10000, max 600000) }`. */
export function parseWaitBody(input: unknown): { messageId?: string; timeoutMs: number } {
	const body = input ?? {};
	if (!isPlainObject(body))
		throw badRequest('Body must be a JSON object { messageId?, timeoutMs? }');
	const { messageId, timeoutMs = 10_000 } = body;
	if (messageId !== undefined && typeof messageId !== 'string')
		throw badRequest(`messageId must be a string (got ${show(messageId)})`);
	if (
		typeof timeoutMs !== 'number' ||
		!Number.isInteger(timeoutMs) ||
		timeoutMs < 0 ||
		timeoutMs > 600_000
	)
		throw badRequest(`timeoutMs must be an integer between 0 and 600000 (got ${show(timeoutMs)})`);
	return { messageId, timeoutMs };
}
