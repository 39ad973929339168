import { randomBytes } from 'node:crypto';

import { RequestRejection } from '../base/rejection';
import { derivedToken } from '../base/secrets';
import { tryParseJson } from '../base/json';
import { RATE_HEADROOM } from './pace';

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
	return derivedToken(secret, 'audience-messaging-pace/v1');
}

/**
 * What a run asks the board for: `count` turns of the sender `key` limited to `perSecond`;
 * `boards`: the other boards that gave the run turns within PEER_TTL_MS (behind a load balancer, a
 * run's asks reach several webhook processes, each with its board: the runs tell the boards of
 * each other).
 */
export interface TurnRequest {
	key: string;
	perSecond: number;
	count: number;
	boards?: string[];
}

/**
 * The turns given: the first `delayMs` after the board received the request, then one every
 * `spacingMs`; `board` names the board that gave them, `boards` how many boards (itself included)
 * it shares the sender's rate with. None (`count` 0) when the next free turn lies beyond
 * SCHEDULE_AHEAD_MS: the run asks again after `delayMs`.
 */
export interface TurnGrant {
	delayMs: number;
	spacingMs: number;
	count: number;
	board: string;
	boards: number;
}

/**
 * A board shares a sender's rate with the boards runs named within this long (each run names the
 * boards that gave it turns within as long); one no run names any more is forgotten after it.
 */
export const PEER_TTL_MS = 15_000;
/** A run names at most this many boards; a board shares a sender's rate with at most as many. */
export const MAX_PEERS = 8;
const BOARD_ID = /^[\w-]{1,32}$/;

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
 * Parses and checks a pace request's body; a RequestRejection (400 or 413) when it does not fit.
 */
export function parseTurnRequest(raw: Buffer | undefined): TurnRequest {
	if (raw && raw.length > PACE_MAX_BYTES)
		throw new RequestRejection(413, `Pace request body over ${PACE_MAX_BYTES} bytes`);
	const json = tryParseJson((raw ?? Buffer.alloc(0)).toString('utf8').trim() || 'null');
	if ('problem' in json) throw new RequestRejection(400, `Malformed JSON: ${json.problem}`);
	const body = json.value as Partial<TurnRequest> | null;
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new RequestRejection(400, 'A pace request is a JSON object { key, perSecond, count }');
	const { key, perSecond, count, boards } = body;
	if (typeof key !== 'string' || !key || key.length > MAX_KEY_LENGTH)
		throw new RequestRejection(400, `key must be a string of 1 to ${MAX_KEY_LENGTH} characters`);
	if (
		typeof perSecond !== 'number' ||
		!Number.isFinite(perSecond) ||
		perSecond <= 0 ||
		perSecond > MAX_RATE
	)
		throw new RequestRejection(400, `perSecond must be a number above 0, at most ${MAX_RATE}`);
	if (
		typeof count !== 'number' ||
		!Number.isInteger(count) ||
		count < 1 ||
		count > MAX_TURNS_PER_REQUEST
	)
		throw new RequestRejection(
			400,
			`count must be a whole number from 1 to ${MAX_TURNS_PER_REQUEST}`,
		);
	if (
		boards !== undefined &&
		(!Array.isArray(boards) ||
			boards.length > MAX_PEERS ||
			!boards.every((board) => typeof board === 'string' && BOARD_ID.test(board)))
	)
		throw new RequestRejection(
			400,
			`boards must be a list of at most ${MAX_PEERS} board names (letters, digits, - and _)`,
		);
	return { key, perSecond, count, ...(boards?.length ? { boards } : {}) };
}

/** A sender's next free turn on a board, and the other boards it shares the sender's rate with. */
interface SenderTurns {
	next: number;
	/** When a run last named each other board. */
	peers: Map<string, number>;
}

/**
 * The turns of every sender, in one process: each sender's next free turn, handed out in the order
 * the requests come (so runs asking in turn share the rate evenly), never more than
 * SCHEDULE_AHEAD_MS ahead (fewer turns than asked, or none). Past MAX_KEYS senders, the one asked
 * for longest ago is forgotten. Each board has an identity of its own, random, in every grant.
 *
 * Boards coordinate through the runs: a run names the other boards that gave it turns lately, and
 * a board hands a sender's turns out at its share of the rate, the rate divided by the boards
 * named for that sender within PEER_TTL_MS (itself included). Behind a load balancer that spreads
 * the asks, two webhook processes each give half the rate, and together the whole. A board no run
 * names any more (a process stopped, or one its runs no longer reach) is forgotten after
 * PEER_TTL_MS, and the others take its share back.
 */
export class TurnBoard {
	private readonly senders = new Map<string, SenderTurns>();
	readonly id = randomBytes(9).toString('base64url');

	constructor(private readonly now: () => number = () => Date.now()) {}

	take(request: TurnRequest): TurnGrant {
		const now = this.now();
		const id = `${request.key}\u0000${request.perSecond}`;
		const sender = this.senders.get(id) ?? { next: 0, peers: new Map<string, number>() };
		for (const board of request.boards ?? []) if (board !== this.id) sender.peers.set(board, now);
		for (const [board, named] of sender.peers)
			if (named < now - PEER_TTL_MS) sender.peers.delete(board);
		const boards = Math.min(1 + sender.peers.size, MAX_PEERS);
		const spacingMs = (1000 * boards) / (request.perSecond * RATE_HEADROOM);
		const first = Math.max(now, sender.next);
		const fit = Math.floor((now + SCHEDULE_AHEAD_MS - first) / spacingMs + 1e-9) + 1;
		const count = Math.max(0, Math.min(request.count, fit));
		sender.next = first + count * spacingMs;
		// Re-inserted: the Map's order is the order of last use.
		this.senders.delete(id);
		this.senders.set(id, sender);
		for (const oldest of this.senders.keys()) {
			if (this.senders.size <= MAX_KEYS) break;
			this.senders.delete(oldest);
		}
		const grant = { spacingMs, count, board: this.id, boards };
		// None fits: the first free turn is less than a spacing beyond the bound, asked for after.
		if (count === 0) return { delayMs: first - now - SCHEDULE_AHEAD_MS, ...grant };
		return { delayMs: first - now, ...grant };
	}

	/** How many senders the board keeps (for tests). */
	get size(): number {
		return this.senders.size;
	}
}

/** The board of this process (the one receiving the trigger's webhooks). */
export const turnBoard = new TurnBoard();
