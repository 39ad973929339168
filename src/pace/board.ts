import { createHmac } from 'node:crypto';

import { CallbackRejection } from '../platform/callbacks';
import { tryParseJson } from '../values/json';
import { RATE_HEADROOM } from './pacer';

/**
 * Turns shared by runs on several n8n processes (queue mode's workers) that send from one sender:
 * the Audience Messaging Trigger keeps a board of turns per sender in the process that receives
 * its webhooks, and each run of Message › Send with Share Pace Across Workers asks it for its next
 * few turns (src/pace/shared-turns.ts). The board spaces every run's turns together at
 * RATE_HEADROOM of the sender's rateLimit, as one process's shared pacer does for its own runs:
 * together the runs keep under the limit whatever window the platform counts it in, and each gets
 * its share in turn.
 */

/** The query parameter of the pace URL that carries its token (the callbacks' name). */
export const PACE_TOKEN_PARAMETER = 'token';

/** The last path segment of the trigger's pace webhook (its callbacks come to `callbacks`). */
export const PACE_WEBHOOK_PATH = 'pace';

/**
 * The token of the pace URL, derived from the Callbacks credential's secret, not the callbacks'
 * token: the platform and its reports see the callback URL, and must not be able to take turns.
 */
export function paceToken(secret: string): string {
	return createHmac('sha256', secret)
		.update('audience-messaging-pace/v1')
		.digest('base64url')
		.slice(0, 32);
}

/** What a run asks the board for: `count` turns of the sender `key` limited to `perSecond`. */
export interface TurnRequest {
	key: string;
	perSecond: number;
	count: number;
}

/**
 * The turns given: the first `delayMs` after the board received the request, then one every
 * `spacingMs`.
 */
export interface TurnGrant {
	delayMs: number;
	spacingMs: number;
	count: number;
}

/**
 * At most this many turns per request: a run asks for a second's worth, or for twice the board's
 * answer time.
 */
export const MAX_TURNS_PER_REQUEST = 100;
const MAX_KEY_LENGTH = 512;
const MAX_RATE = 100_000;
/** The senders a board keeps; the one unused longest is forgotten first. */
const MAX_KEYS = 1000;
/** A pace request body is a few dozen bytes. */
export const PACE_MAX_BYTES = 4096;

/**
 * Parses and checks a pace request's body; a CallbackRejection (400 or 413) when it does not fit.
 */
export function parseTurnRequest(raw: Buffer | undefined): TurnRequest {
	if (raw && raw.length > PACE_MAX_BYTES)
		throw new CallbackRejection(413, `Pace request body over ${PACE_MAX_BYTES} bytes`);
	const json = tryParseJson((raw ?? Buffer.alloc(0)).toString('utf8').trim() || 'null');
	if ('problem' in json) throw new CallbackRejection(400, `Malformed JSON: ${json.problem}`);
	const body = json.value as Partial<TurnRequest> | null;
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new CallbackRejection(400, 'A pace request is a JSON object { key, perSecond, count }');
	const { key, perSecond, count } = body;
	if (typeof key !== 'string' || !key || key.length > MAX_KEY_LENGTH)
		throw new CallbackRejection(400, `key must be a string of 1 to ${MAX_KEY_LENGTH} characters`);
	if (
		typeof perSecond !== 'number' ||
		!Number.isFinite(perSecond) ||
		perSecond <= 0 ||
		perSecond > MAX_RATE
	)
		throw new CallbackRejection(400, `perSecond must be a number above 0, at most ${MAX_RATE}`);
	if (
		typeof count !== 'number' ||
		!Number.isInteger(count) ||
		count < 1 ||
		count > MAX_TURNS_PER_REQUEST
	)
		throw new CallbackRejection(
			400,
			`count must be a whole number from 1 to ${MAX_TURNS_PER_REQUEST}`,
		);
	return { key, perSecond, count };
}

/**
 * The turns of every sender, in one process: each sender's next free turn, handed out in the order
 * the requests come (so runs asking in turn share the rate evenly). Past MAX_KEYS senders, the one
 * asked for longest ago is forgotten.
 */
export class TurnBoard {
	private readonly next = new Map<string, number>();

	constructor(private readonly now: () => number = () => Date.now()) {}

	take(request: TurnRequest): TurnGrant {
		const now = this.now();
		const id = `${request.key}\u0000${request.perSecond}`;
		const spacingMs = 1000 / (request.perSecond * RATE_HEADROOM);
		const first = Math.max(now, this.next.get(id) ?? 0);
		// Re-inserted: the Map's order is the order of last use.
		this.next.delete(id);
		this.next.set(id, first + request.count * spacingMs);
		for (const oldest of this.next.keys()) {
			if (this.next.size <= MAX_KEYS) break;
			this.next.delete(oldest);
		}
		return { delayMs: first - now, spacingMs, count: request.count };
	}

	/** How many senders the board keeps (for tests). */
	get size(): number {
		return this.next.size;
	}
}

/** The board of this process (the one receiving the trigger's webhooks). */
export const turnBoard = new TurnBoard();
