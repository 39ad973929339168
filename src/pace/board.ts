import { createHmac, randomBytes } from 'node:crypto';

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

/**
 * The request header that carries the pace token (never the URL: proxies and access logs keep
 * URLs).
 */
export const PACE_TOKEN_HEADER = 'x-pace-token';

/**
 * The board never hands out a turn further ahead than this; a run given one later does not follow
 * it and paces alone (src/pace/turn-grant.ts). Ten runs asking a second's worth each fit.
 */
export const SCHEDULE_AHEAD_MS = 10_000;

/** The last path segment of the trigger's pace webhook (its callbacks come to `callbacks`). */
export const PACE_WEBHOOK_PATH = 'pace';

/**
 * The pace token, derived from the Callbacks credential's secret, not the callbacks'
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
 * `spacingMs`; `board` names the board that gave them (a run given turns by two boards paces
 * alone). None (`count` 0) when the next free turn lies beyond SCHEDULE_AHEAD_MS: the run asks
 * again after `delayMs`.
 */
export interface TurnGrant {
	delayMs: number;
	spacingMs: number;
	count: number;
	board: string;
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
 * the requests come (so runs asking in turn share the rate evenly), never more than
 * SCHEDULE_AHEAD_MS ahead (fewer turns than asked, or none). Past MAX_KEYS senders, the one asked
 * for longest ago is forgotten. Each board has an identity of its own, random, in every grant: a
 * run whose turns come from two boards (two webhook processes, or one restarted) knows its turns
 * do not hold the limit.
 */
export class TurnBoard {
	private readonly next = new Map<string, number>();
	readonly id = randomBytes(9).toString('base64url');

	constructor(private readonly now: () => number = () => Date.now()) {}

	take(request: TurnRequest): TurnGrant {
		const now = this.now();
		const id = `${request.key}\u0000${request.perSecond}`;
		const spacingMs = 1000 / (request.perSecond * RATE_HEADROOM);
		const first = Math.max(now, this.next.get(id) ?? 0);
		const fit = Math.floor((now + SCHEDULE_AHEAD_MS - first) / spacingMs + 1e-9) + 1;
		const count = Math.max(0, Math.min(request.count, fit));
		// Re-inserted: the Map's order is the order of last use.
		this.next.delete(id);
		this.next.set(id, first + count * spacingMs);
		for (const oldest of this.next.keys()) {
			if (this.next.size <= MAX_KEYS) break;
			this.next.delete(oldest);
		}
		// None fits: the first free turn is less than a spacing beyond the bound, asked for after.
		if (count === 0)
			return { delayMs: first - now - SCHEDULE_AHEAD_MS, spacingMs, count, board: this.id };
		return { delayMs: first - now, spacingMs, count, board: this.id };
	}

	/** How many senders the board keeps (for tests). */
	get size(): number {
		return this.next.size;
	}
}

/** The board of this process (the one receiving the trigger's webhooks). */
export const turnBoard = new TurnBoard();
