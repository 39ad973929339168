/** The trigger's board: turns per sender for runs sharing its pace across n8n processes. */
import { randomBytes } from 'node:crypto';

import { RequestRejection } from '../base/rejection';
import { derivedToken } from '../base/secrets';
import { tryParseJson } from '../base/json';
import { RATE_HEADROOM, SENDER_SHARERS } from './pace';

/** The pace token's request header (never the URL: proxies and access logs keep URLs). */
export const PACE_TOKEN_HEADER = 'x-pace-token';

/** Farthest ahead a board gives a turn; a run given one later paces alone (turnGrant). */
export const SCHEDULE_AHEAD_MS = 10_000;

/** The last path segment of the trigger's pace webhook (its callbacks come to `callbacks`). */
export const PACE_WEBHOOK_PATH = 'pace';

/** The pace token, from the Callbacks secret: not the callbacks' token, which the platform sees. */
export function paceToken(secret: string): string {
	return derivedToken(secret, 'audience-messaging-pace/v1');
}

/**
 * `count` turns of `key` at `perSecond` for the run `run`; `boards`: the others that gave the run
 * turns lately.
 */
export interface TurnRequest {
	key: string;
	perSecond: number;
	count: number;
	boards?: string[];
	run?: string;
	/** No turn sooner than this after the ask comes: the run's answers take this long back. */
	afterMs?: number;
	/** The messages the run will still send after these turns (see RunSeen). */
	left?: number;
}

/**
 * The turns `board` gives, sharing the rate among `boards`: the first `delayMs` after the ask came,
 * then one every `spacingMs`; none (`count` 0) past SCHEDULE_AHEAD_MS: ask again after `delayMs`.
 */
export interface TurnGrant {
	delayMs: number;
	spacingMs: number;
	count: number;
	board: string;
	boards: number;
	/** The runs that asked this board for the sender's turns within PEER_TTL_MS, this one included. */
	runs?: number;
	/** The board's clock when it gave the turns (Date.now()): `delayMs` counts from it. */
	at: number;
}

/** A board shares a sender's rate with the boards runs named within this long; older ones lapse. */
export const PEER_TTL_MS = 15_000;
/** A run names at most this many boards; a board shares a sender's rate with at most as many. */
export const MAX_PEERS = 8;
const BOARD_ID = /^[\w-]{1,32}$/;
/** The runs a board counts per sender, the latest. */
const MAX_RUNS = 256;

/** Most turns per request: a run asks for a second's worth, or twice the board's answer time. */
export const MAX_TURNS_PER_REQUEST = 100;
const MAX_KEY_LENGTH = 512;
const MAX_RATE = 100_000;
/** The longest wait before the first turn a run may ask for (afterMs). */
export const MAX_AFTER_MS = 5000;
/** The senders a board keeps; the one unused longest is forgotten first. */
const MAX_KEYS = 1000;
const MAX_LEFT = 10_000_000;
/**
 * A run that has turns left to ask for asks again before its last turn comes. Silent this long
 * after that, it may be pacing alone at its share (SharedTurns.fail, which waits out this and
 * SCHEDULE_AHEAD_MS first), and the board keeps that share out of the turns it gives the others.
 */
export const SILENT_MS = 5000;
/** A run that gives sharing up paces alone no sooner than this after its last turn (SILENT_MS). */
export const ALONE_AFTER_MS = SILENT_MS + SCHEDULE_AHEAD_MS;
/** A silent run may still be asking (three tries of up to 20 s: turn-grant.ts) before it goes. */
const ASKING_MS = 75_000;
/** The longest a board keeps a silent run's share. */
const MAX_KEPT_MS = 3_600_000;
/** A pace request body is a few dozen bytes. */
export const PACE_MAX_BYTES = 4096;

/** Parses and checks a pace request's body; a RequestRejection (400 or 413) if it does not fit. */
export function parseTurnRequest(raw: Buffer | undefined): TurnRequest {
	if (raw && raw.length > PACE_MAX_BYTES)
		throw new RequestRejection(413, `Pace request body over ${PACE_MAX_BYTES} bytes`);
	const json = tryParseJson((raw ?? Buffer.alloc(0)).toString('utf8').trim() || 'null');
	if ('problem' in json) throw new RequestRejection(400, `Malformed JSON: ${json.problem}`);
	const body = json.value as Partial<TurnRequest> | null;
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new RequestRejection(400, 'A pace request is a JSON object { key, perSecond, count }');
	const { key, perSecond, count: asked, boards, run, afterMs, left } = body;
	if (typeof key !== 'string' || !key || key.length > MAX_KEY_LENGTH)
		throw new RequestRejection(400, `key must be a string of 1 to ${MAX_KEY_LENGTH} characters`);
	if (!(typeof perSecond === 'number' && perSecond > 0 && perSecond <= MAX_RATE))
		throw new RequestRejection(400, `perSecond must be a number above 0, at most ${MAX_RATE}`);
	const count = typeof asked === 'number' && Number.isInteger(asked) ? asked : 0;
	if (count < 1 || count > MAX_TURNS_PER_REQUEST)
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
			`the webhook processes named must be a list of at most ${MAX_PEERS} names (letters, digits, - and _)`,
		);
	if (run !== undefined && (typeof run !== 'string' || !BOARD_ID.test(run)))
		throw new RequestRejection(400, 'run must be 1 to 32 letters, digits, - or _');
	if (
		afterMs !== undefined &&
		!(typeof afterMs === 'number' && afterMs >= 0 && afterMs <= MAX_AFTER_MS)
	)
		throw new RequestRejection(400, `afterMs must be a number from 0 to ${MAX_AFTER_MS}`);
	if (left !== undefined && !(Number.isInteger(left) && left >= 0 && left <= MAX_LEFT))
		throw new RequestRejection(400, `left must be a whole number from 0 to ${MAX_LEFT}`);
	return {
		key,
		perSecond,
		count,
		...(boards?.length ? { boards } : {}),
		...(run ? { run } : {}),
		...(afterMs ? { afterMs } : {}),
		...(left ? { left } : {}),
	};
}

/**
 * A run as the board last saw it: when it asked, and, had it messages left, the share of the rate
 * it takes if it paces alone (one over the runs the board told it of, at most SENDER_SHARERS),
 * kept from when it is silent (`quietFrom`) for as long as sending them alone at that share takes.
 */
interface RunSeen {
	asked: number;
	quietFrom: number;
	keptUntil: number;
	share: number;
}

/** A sender's next free turn on a board, and the other boards it shares the sender's rate with. */
interface SenderTurns {
	next: number;
	/** When a run last named each other board. */
	peers: Map<string, number>;
	/** Each run, in the order they last asked. */
	runs: Map<string, RunSeen>;
}

/**
 * The turns of every sender, in the process that receives the trigger's webhooks, for the runs
 * sharing their pace across workers: each sender's next free turn, spaced at RATE_HEADROOM of its
 * rate as one process's shared pacer spaces its own runs, so together the runs keep under the limit
 * whatever window the platform counts it in. Turns go out in the order the asks come, so runs
 * asking in turn share the rate evenly.
 *
 * Boards coordinate through the runs: a run names the other boards that gave it turns lately, and a
 * board gives its share, the rate divided by the boards named for that sender within PEER_TTL_MS
 * (itself included): behind a load balancer that spreads the asks, two webhook processes each give
 * half the rate, together the whole. A board no run names any more (a process stopped, or one its
 * runs no longer reach) lapses after PEER_TTL_MS, and the others take its share back.
 */
export class TurnBoard {
	private readonly senders = new Map<string, SenderTurns>();
	readonly id = randomBytes(9).toString('base64url');

	constructor(private readonly now: () => number = () => Date.now()) {}

	take(request: TurnRequest): TurnGrant {
		const now = this.now();
		const id = `${request.key}\u0000${request.perSecond}`;
		const sender = this.senders.get(id) ?? { next: 0, peers: new Map(), runs: new Map() };
		for (const board of request.boards ?? []) if (board !== this.id) sender.peers.set(board, now);
		for (const [board, named] of sender.peers)
			if (named < now - PEER_TTL_MS) sender.peers.delete(board);
		if (request.run) sender.runs.delete(request.run);
		let kept = 0;
		for (const [run, seen] of sender.runs) {
			if (seen.asked < now - PEER_TTL_MS && seen.keptUntil <= now) sender.runs.delete(run);
			else if (seen.quietFrom <= now && seen.keptUntil > now) kept += seen.share;
		}
		const boards = Math.min(1 + sender.peers.size, MAX_PEERS);
		// What runs gone silent may take alone is not given; an eighth is always left to give.
		const free = Math.max(1 - kept, 1 / SENDER_SHARERS);
		const spacingMs = (1000 * boards) / (request.perSecond * RATE_HEADROOM * free);
		const first = Math.max(now + (request.afterMs ?? 0), sender.next);
		const fit = Math.floor((now + SCHEDULE_AHEAD_MS - first) / spacingMs + 1e-9) + 1;
		const count = Math.max(0, Math.min(request.count, fit));
		sender.next = first + count * spacingMs;
		const runs = sender.runs.size + (request.run ? 1 : 0) || 1;
		if (request.run) {
			const share = 1 / Math.min(runs, SENDER_SHARERS);
			const lastTurn = count ? first + (count - 1) * spacingMs : first - SCHEDULE_AHEAD_MS;
			const quietFrom = Math.max(now, lastTurn) + SILENT_MS;
			const alone = (1000 * (request.left ?? 0)) / (request.perSecond * share);
			const keptUntil = request.left ? quietFrom + Math.min(ASKING_MS + alone, MAX_KEPT_MS) : 0;
			sender.runs.set(request.run, { asked: now, quietFrom, keptUntil, share });
			for (const run of sender.runs.keys())
				if (sender.runs.size > MAX_RUNS) sender.runs.delete(run);
		}
		// Re-inserted: the Map's order is the order of last use.
		this.senders.delete(id);
		this.senders.set(id, sender);
		for (const oldest of this.senders.keys()) {
			if (this.senders.size <= MAX_KEYS) break;
			this.senders.delete(oldest);
		}
		const grant = { spacingMs, count, board: this.id, boards, runs, at: now };
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
