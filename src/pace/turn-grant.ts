/** Asking a board for turns, and reading its answer. */
import { MAX_PEERS, SCHEDULE_AHEAD_MS } from './board';
import type { TurnGrant, TurnRequest } from './board';
import type { Clock } from './clock';

/**
 * Why the board gave no turns (the message omits the URL and its token). `transient`: no answer,
 * or a busy or restarting process's (5xx, 408, 429): asked again before the run stops sharing.
 */
export class TurnsUnavailable extends Error {
	constructor(
		message: string,
		readonly transient = false,
	) {
		super(message);
	}
}

/** Asks the pace webhook for turns within `timeoutMs`; rejects, best with a TurnsUnavailable. */
export type AskTurns = (request: TurnRequest, timeoutMs: number) => Promise<unknown>;

/** A run reads its boards' last this many answers (how slow, how long back). */
export const SLOW_ANSWERS = 8;

/** Adds `value` to `last`, which keeps the last SLOW_ANSWERS. */
export function keepLast(last: number[], value: number): void {
	if (last.push(value) > SLOW_ANSWERS) last.shift();
}

/**
 * When, on the run's clock, a grant's turns count `from`: the board's moment when it agrees with
 * the run's (within the ask), as an answer slow on its way back would make every turn late, into
 * turns other runs hold; but a grant all gone by when it comes (a way back longer than the run
 * asked for) from its arrival. `end`: its last turn (none given: when to ask again).
 */
export function grantTiming(grant: TurnGrant, sent: number, received: number, spacingMs: number) {
	const agrees = grant.at >= sent && grant.at <= received;
	const last = grant.delayMs + Math.max(0, grant.count - 1) * grant.spacingMs;
	const from = agrees && grant.at + last >= received - spacingMs ? grant.at : received;
	return { from, end: from + last, wayBack: agrees ? received - grant.at : undefined };
}

/** Rounding of the board's arithmetic: a turn this much past the bound is still within it. */
const BOUND_SLACK_MS = 1;

/** A pace answer this version cannot take turns from, and what to do. */
function unreadable(detail: string): TurnsUnavailable {
	return new TurnsUnavailable(
		`the trigger's pace answer is not one this version reads (${detail}): run the same version of this package on every n8n process`,
	);
}

/**
 * The grant in a pace answer, checked: a wrong answer is an error, not a turn, as are turns past
 * SCHEDULE_AHEAD_MS (no board of this package gives them, or its clock jumped).
 */
export function turnGrant(answer: unknown, asked: number): TurnGrant {
	const grant = (answer && typeof answer === 'object' ? answer : {}) as Partial<TurnGrant>;
	const { delayMs, spacingMs, count, board, boards, runs, at } = grant;
	if (typeof delayMs !== 'number' || !(delayMs >= 0)) throw unreadable('no delayMs of 0 or more');
	if (typeof spacingMs !== 'number' || !(spacingMs > 0 && spacingMs < Infinity))
		throw unreadable('no positive spacingMs');
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > asked)
		throw unreadable(`count is not a whole number from 0 to ${asked}`);
	if (typeof board !== 'string' || !board) throw unreadable('it names no webhook process');
	if (typeof boards !== 'number' || !Number.isInteger(boards) || boards < 1 || boards > MAX_PEERS)
		throw unreadable(`its count of webhook processes is not a whole number from 1 to ${MAX_PEERS}`);
	if (runs !== undefined && (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 1))
		throw unreadable('its count of runs is not a whole number of 1 or more');
	if (typeof at !== 'number' || !Number.isFinite(at))
		throw unreadable('no at, the time it gave them');
	const last = delayMs + Math.max(0, count - 1) * spacingMs;
	if (last > SCHEDULE_AHEAD_MS + BOUND_SLACK_MS)
		throw new TurnsUnavailable(
			`the trigger gave turns ${Math.round(last / 1000)} s ahead, beyond the ${SCHEDULE_AHEAD_MS / 1000} s it may`,
		);
	return { delayMs, spacingMs, count, board, boards, at, ...(runs ? { runs } : {}) };
}

/**
 * How long a run waits for the board's answer: this long, or, on a busy trigger, four times its
 * slowest recent answer, up to ASK_MAX_TIMEOUT_MS (the API's Request Timeout is far longer); each
 * attempt after a failed one, twice as long as the last, within the same bound.
 */
export const ASK_TIMEOUT_MS = 5000;
export const ASK_MAX_TIMEOUT_MS = 20_000;
const SLOW_ANSWER_MARGIN = 4;
/** The shortest, when the run's wait budget is nearly spent. */
const ASK_MIN_TIMEOUT_MS = 1000;
/**
 * A transient failure (no answer, 5xx, 408, 429) is asked again after these pauses: they outlast
 * n8n's own 503 "Database is not ready!", which it answers until its next check (every 2 s) passes.
 */
const ASK_AGAIN_AFTER_MS = [1000, 4000];

/**
 * The board's grant, checked (turnGrant), and when its ask was sent; or why the board gave none. A
 * transient failure (a busy or restarting process) is asked again after each of ASK_AGAIN_AFTER_MS
 * while `leftMs()` (what is left of the run's wait budget) allows, since a run that gives sharing
 * up paces alone for the rest of its messages; each ask waits as ASK_TIMEOUT_MS says, less as the
 * budget runs out. `request` makes each ask's request when it is sent, so what it tells is current.
 */
export async function askGrant(
	ask: AskTurns,
	request: (sent: number) => TurnRequest,
	clock: Clock,
	leftMs: () => number,
	slowestAnswerMs = 0,
): Promise<{ grant: TurnGrant; sent: number } | { problem: string }> {
	const allowedMs = Math.min(
		ASK_MAX_TIMEOUT_MS,
		Math.max(ASK_TIMEOUT_MS, SLOW_ANSWER_MARGIN * slowestAnswerMs),
	);
	for (let attempt = 0; ; attempt++) {
		const sent = clock.now();
		const asked = request(sent);
		const timeoutMs = Math.min(
			ASK_MAX_TIMEOUT_MS,
			allowedMs * 2 ** attempt,
			Math.max(ASK_MIN_TIMEOUT_MS, leftMs()),
		);
		try {
			return { grant: turnGrant(await ask(asked, timeoutMs), asked.count), sent };
		} catch (error) {
			const pause = ASK_AGAIN_AFTER_MS[attempt];
			const again = error instanceof TurnsUnavailable && error.transient && pause !== undefined;
			if (!again || leftMs() <= pause) return { problem: (error as Error).message };
			await clock.sleep(pause);
		}
	}
}
