import { MAX_TURNS_PER_REQUEST } from './board';
import { RATE_HEADROOM } from './pacer';
import { SENDER_SHARERS } from './gate';
import { NO_BUDGET, TurnBudget } from './turn-budget';
import type { RunBudget } from './turn-budget';
import { TurnsUnavailable, turnGrant } from './turn-grant';
import type { AskTurns } from './turn-grant';
import type { Clock } from './clock';

export { TurnsUnavailable, turnGrant } from './turn-grant';
export type { AskTurns } from './turn-grant';
export { NO_BUDGET } from './turn-budget';
export type { RunBudget } from './turn-budget';

/**
 * A run holds at least this long's worth of turns ahead (at the sender's full rate), or twice the
 * board's last answer time.
 */
const CHUNK_MS = 1000;
/** The longest a run waits for the board's answer (the API's Request Timeout is far longer). */
export const ASK_TIMEOUT_MS = 5000;
/** The shortest, when the run's wait budget is nearly spent. */
const ASK_MIN_TIMEOUT_MS = 1000;
/** A board that did not answer, or answered 5xx, is asked again after these pauses. */
export const ASK_AGAIN_AFTER_MS = [250, 1000];
/**
 * Refusals (429) while taking turns that show the turns do not hold the sender's limit: at least
 * this many, and more than REFUSED_SHARE of the turns taken (one board on a busy machine lets a
 * late request through now and then, far fewer).
 */
export const REFUSALS_TO_PACE_ALONE = 3;
const REFUSED_SHARE = 0.02;

/**
 * A run's turns from a board shared with runs on other n8n processes (src/pace/board.ts). It asks
 * for enough turns to last twice the board's last answer time at the sender's full rate (at least a
 * second's worth), never more than the run still has messages for, and asks again when the turns it
 * holds run out within that time, so that its requests rarely wait for the board (n8n answers a
 * webhook in a few ms when idle, in up to 1.5 s on a busy two-core machine running main, two
 * workers and a webhook process). Each request of the run takes the next turn and waits for its
 * time. A turn is timed from when its answer arrived (the board's clock is not this one): a turn is
 * never taken before the board gave it, at worst a little after. A turn that went by unused (the
 * run paused, or had nothing to send) is dropped rather than taken late, which would put two
 * requests closer than the spacing. Waiting for turns counts against the run's wait budget beyond
 * the share it is due (src/pace/turn-budget.ts).
 *
 * The run paces itself alone for the rest of its messages (its own pacer still holds it to the
 * sender's rate and backs it off on 429, as with the option off), and `onFail` hears why, once,
 * when the board cannot be asked (a wrong answer, or none after ASK_AGAIN_AFTER_MS), when its turns
 * cannot hold the limit (turns from two boards: several webhook processes, or one restarted; turns
 * beyond SCHEDULE_AHEAD_MS), or when the platform refuses them (REFUSALS_TO_PACE_ALONE).
 */
export class SharedTurns {
	private readonly turns: number[] = [];
	private head = 0;
	private asking?: Promise<void>;
	private failed = false;
	/** Turns taken so far, and the refusals (429) of requests sent in them. */
	private taken = 0;
	private refusals = 0;
	/** How long the board took to answer, last time. */
	private answerMs = 0;
	/** The identity of the board that gave the run's turns, and how many grants it gave. */
	private board?: string;
	private grants = 0;
	private readonly spacingMs: number;
	private readonly cost: TurnBudget;
	/** Settles when the run gives sharing up: its requests stop waiting for turns. */
	private readonly alone: Promise<void>;
	private goAlone = () => undefined as void;

	constructor(
		private readonly ask: AskTurns,
		private readonly key: string,
		private readonly perSecond: number,
		private readonly clock: Clock,
		private readonly onFail: (reason: string) => void,
		/**
		 * How many requests the run will send in all, as far as it knows (resends of refused ones come
		 * on top).
		 */
		private readonly wanted: () => number = () => Infinity,
	) {
		this.spacingMs = 1000 / (perSecond * RATE_HEADROOM);
		this.cost = new TurnBudget((perSecond * RATE_HEADROOM) / SENDER_SHARERS);
		this.alone = new Promise((resolve) => (this.goAlone = resolve));
	}

	/** Whether the run still takes shared turns (false once it paces alone). */
	get shared(): boolean {
		return !this.failed;
	}

	private get held(): number {
		return this.turns.length - this.head;
	}

	private get leadMs(): number {
		return Math.max(CHUNK_MS, 2 * this.answerMs);
	}

	/**
	 * How many turns to ask for next: enough for twice the board's answer time, no more than the run
	 * has requests for (at least one).
	 */
	private get chunk(): number {
		const lasting = Math.round(this.leadMs / this.spacingMs);
		const left = this.wanted() - this.taken - this.held;
		return Math.min(MAX_TURNS_PER_REQUEST, Math.max(1, Math.min(lasting, left)));
	}

	/**
	 * Waits for the run's next turn; at once when the run paces alone. False, at once, when the wait
	 * would take the run past its wait budget: the request must not be sent.
	 */
	async take(budget: RunBudget = NO_BUDGET): Promise<boolean> {
		const since = this.clock.now();
		for (;;) {
			const now = this.clock.now();
			// Waiting for a board that failed costs as waiting for a turn does.
			if (this.failed) return this.cost.charge(since, now, budget) !== undefined;
			while (this.head < this.turns.length && this.turns[this.head] < now - this.spacingMs)
				this.head++;
			// Ahead of need while the run has requests left for them (the second time at once: behind a
			// load balancer, it likely reaches another board if there is one); when it holds none, in any
			// case (a resend).
			const last = this.turns[this.turns.length - 1];
			const ahead = this.grants < 2 || last - now < this.leadMs;
			if (this.held === 0 || (this.wanted() - this.taken > this.held && ahead))
				this.askMore(budget);
			if (this.held > 0) {
				const at = this.turns[this.head++];
				this.taken++;
				if (this.head > 1024) {
					this.turns.splice(0, this.head);
					this.head = 0;
				}
				const cost = this.cost.charge(since, at, budget);
				if (cost === undefined) return false;
				if (at > now) await Promise.race([this.clock.sleep(at - now), this.alone]);
				// Woken by the run giving sharing up: the wait not waited costs nothing.
				const early = at - this.clock.now();
				if (early > 0) budget.lose(-Math.min(cost, early));
				return true;
			}
			await this.asking;
		}
	}

	/**
	 * The platform refused a request sent in a turn (429): past REFUSALS_TO_PACE_ALONE, the turns do
	 * not hold the sender's limit (another board, or runs not sharing): the run paces alone.
	 */
	refused(): void {
		if (this.failed) return;
		this.refusals++;
		if (this.refusals >= REFUSALS_TO_PACE_ALONE && this.refusals > REFUSED_SHARE * this.taken)
			this.fail(
				`the platform refused ${this.refusals} of the ${this.taken} messages sent in shared turns (429), so the turns did not hold the sender's limit (several webhook processes, or runs not sharing the pace?)`,
			);
	}

	private fail(reason: string): void {
		if (this.failed) return;
		this.failed = true;
		this.goAlone();
		this.onFail(reason);
	}

	private askMore(budget: RunBudget): void {
		this.asking ??= this.askOnce(budget).finally(() => (this.asking = undefined));
	}

	private async askOnce(budget: RunBudget): Promise<void> {
		const started = this.clock.now();
		// What is left of the budget once the time spent asking is counted (the waiting requests are
		// charged when they go on).
		const left = () => budget.leftMs() - (this.clock.now() - started);
		for (let attempt = 0; ; attempt++) {
			const sent = this.clock.now();
			// The second ask, made at once, is for one turn: it looks for another board.
			const count = this.grants === 1 && this.held > 0 ? 1 : this.chunk;
			const timeoutMs = Math.min(ASK_TIMEOUT_MS, Math.max(ASK_MIN_TIMEOUT_MS, left()));
			let grant;
			try {
				const answer = await this.ask(
					{ key: this.key, perSecond: this.perSecond, count },
					timeoutMs,
				);
				grant = turnGrant(answer, count);
			} catch (error) {
				const pause = ASK_AGAIN_AFTER_MS[attempt];
				const again = error instanceof TurnsUnavailable && error.transient && pause !== undefined;
				if (again && left() > pause) {
					await this.clock.sleep(pause);
					continue;
				}
				return this.fail((error as Error).message);
			}
			if (this.board !== undefined && grant.board !== this.board)
				return this.fail(
					"the turns came from two boards (several webhook processes behind a load balancer, or one restarted), which do not share the sender's limit",
				);
			this.board = grant.board;
			this.grants++;
			const received = this.clock.now();
			this.answerMs = received - sent;
			// None free within the board's bound: asked again when one is.
			if (grant.count === 0) return await this.clock.sleep(grant.delayMs);
			for (let i = 0; i < grant.count; i++)
				this.turns.push(received + grant.delayMs + i * grant.spacingMs);
			return;
		}
	}
}
