/** A run's turns from the boards shared with runs on other n8n processes (board.ts). */
import { ALONE_AFTER_MS, MAX_AFTER_MS, MAX_TURNS_PER_REQUEST, PEER_TTL_MS } from './board';
import { LATE_MS, RATE_HEADROOM, SENDER_SHARERS } from './pace';
import { HeldTurns } from './held-turns';
import { KnownBoards } from './known-boards';
import { RefusalWatch } from './refusal-watch';
import { NO_BUDGET, TurnBudget } from './turn-budget';
import type { RunBudget } from './turn-budget';
import { askGrant, grantTiming, keepLast } from './turn-grant';
import type { AskTurns } from './turn-grant';
import type { Clock } from './clock';

/** Turns a run holds ahead: at least this long's worth, or twice the board's last answer time. */
const CHUNK_MS = 1000;
/**
 * A run's first asks are for a quarter of CHUNK_MS (or twice the answer time), each a random part
 * of a spacing late: the boards have yet to meet, and runs asking in step reach the same board.
 */
const FIRST_ASKS = 8;
/**
 * Knowing several boards, a run asks again while the turns it holds within leadMs are fewer than
 * this share of the sender's rate, holding no more than HOLD_CHUNKS asks' worth.
 */
const FULL_SHARE = 0.75;
const HOLD_CHUNKS = 2;
/** Why a run gave sharing up, and its share of the rate from `from` on (see SharedTurns.fail). */
export type SharingFailed = (
	reason: string,
	share: { perSecond: number; runs?: number; from: number },
) => void;

/**
 * The run asks ahead of need (see take), so requests rarely wait for the board; each turn is timed
 * by the board's clock, or from the answer's arrival where the clocks disagree: never early. A turn
 * that went by unused is dropped rather than taken late, which would put two requests closer than
 * the spacing; waiting for turns costs the wait budget only beyond the run's due share
 * (TurnBudget). It paces alone (its own pacer) for the rest, `onFail` told why once, when the board
 * cannot be asked (a wrong answer, or none after ASK_AGAIN_AFTER_MS), its turns cannot hold the
 * limit (a board not sharing the rate; turns past SCHEDULE_AHEAD_MS), or the platform refuses them.
 */
export class SharedTurns {
	private readonly turns: HeldTurns;
	private asking?: Promise<void>;
	private failed = false;
	/** Turns taken so far, and the refusals (429) of requests sent in them. */
	private taken = 0;
	private readonly refusals = new RefusalWatch();
	private answerMs = 0;
	/** The board's slowest answer among the run's last SLOW_ANSWERS: its asks allow for it. */
	private readonly answers: number[] = [];
	/** How long the last SLOW_ANSWERS answers took back: the run asks for turns no sooner. */
	private readonly waysBack: number[] = [];
	/** When a board last answered: how many runs it saw holds PEER_TTL_MS (board.ts). */
	private heardAt = -Infinity;
	/** When the run may pace alone, should it stop asking now: its boards keep its share then. */
	private aloneFrom = -Infinity;
	/** The boards that gave the run turns, and how many grants the run got. */
	private readonly boards: KnownBoards;
	private grants = 0;
	/** The run asks when the turns it holds end within this many leadMs (1 to 2, at random). */
	private aheadShare = 1;
	private readonly spacingMs: number;
	private readonly cost: TurnBudget;
	/** The run's name on the boards, and how many runs the last board saw asking for the sender. */
	private readonly run: string;
	private runs = 1;
	/** Settles when the run gives sharing up: its requests stop waiting for turns. */
	private readonly alone: Promise<void>;
	private goAlone = () => undefined as void;

	constructor(
		private readonly ask: AskTurns,
		private readonly key: string,
		private readonly perSecond: number,
		private readonly clock: Clock,
		/**
		 * Told once, with the run's share of the rate: over the runs the board last saw, or, `runs`
		 * unknown (no answer within PEER_TTL_MS), over SENDER_SHARERS: others may take its turns.
		 */
		private readonly onFail: SharingFailed,
		/** Requests the run will send, as far as it knows (resends of refused ones on top). */
		private readonly wanted: () => number = () => Infinity,
		/** For the jitter of asks made ahead of need (the simulations pass a seeded one). */
		private readonly random: () => number = Math.random,
	) {
		this.spacingMs = 1000 / (perSecond * RATE_HEADROOM);
		this.turns = new HeldTurns(this.spacingMs);
		this.boards = new KnownBoards(random);
		this.cost = new TurnBudget((perSecond * RATE_HEADROOM) / SENDER_SHARERS);
		this.alone = new Promise((resolve) => (this.goAlone = resolve));
		this.run = Math.floor(random() * 2 ** 48).toString(36);
	}

	/** Whether the run still takes shared turns (false once it paces alone). */
	get shared(): boolean {
		return !this.failed;
	}

	private get leadMs(): number {
		return Math.max(CHUNK_MS, 2 * this.answerMs);
	}

	/** How many turns to ask for next: enough for leadMs (less at first), at most what is left. */
	private get chunk(): number {
		const lastingMs =
			this.grants < FIRST_ASKS ? Math.max(CHUNK_MS / 4, 2 * this.answerMs) : this.leadMs;
		const lasting = Math.round(lastingMs / this.spacingMs);
		const left = this.wanted() - this.taken - this.turns.count;
		return Math.min(MAX_TURNS_PER_REQUEST, Math.max(1, Math.min(lasting, left)));
	}

	/**
	 * Waits for the run's next turn; at once when the run paces alone. False, at once, when the
	 * wait would take the run past its wait budget: the request must not be sent.
	 */
	async take(budget: RunBudget = NO_BUDGET): Promise<boolean> {
		const since = this.clock.now();
		let late = false;
		for (;;) {
			const now = this.clock.now();
			// Waiting for a board that failed costs as waiting for a turn does.
			if (this.failed) return this.cost.charge(since, now, budget) !== undefined;
			this.turns.dropPast(now);
			// Ahead of need while requests remain: the second time at once (it may reach another
			// board), when the turns held run out soon or, knowing several boards, would keep the
			// run below the sender's rate, or out of turn (KnownBoards.look); holding none, always.
			const lead = this.leadMs * this.aheadShare;
			const ahead =
				this.grants === 1 ||
				(this.turns.last ?? now) - now < lead ||
				(this.boards.recent(now).length > 1 &&
					this.turns.count < HOLD_CHUNKS * this.chunk &&
					this.turns.before(now + lead) < (FULL_SHARE * lead) / this.spacingMs) ||
				this.boards.look(now);
			if (this.turns.count === 0 || (this.wanted() - this.taken > this.turns.count && ahead))
				this.askMore(budget);
			if (this.turns.count > 0) {
				const at = this.turns.take();
				this.taken++;
				const cost = this.cost.charge(since, at, budget);
				if (cost === undefined) return false;
				if (at > now) await Promise.race([this.clock.sleep(at - now), this.alone]);
				// Woken late (a busy process): its turn let go, once, for the next.
				if (!late && at > now && !this.failed && this.clock.now() - at > LATE_MS) {
					late = true;
					this.taken--;
					continue;
				}
				this.refusals.took();
				// Woken by the run giving sharing up: the wait not waited costs nothing.
				const early = at - this.clock.now();
				if (early > 0) budget.lose(-Math.min(cost, early));
				return true;
			}
			await this.asking;
		}
	}

	/** A 429 in a turn: too many (RefusalWatch) show the turns miss the limit: pace alone. */
	refused(): void {
		const why = this.failed ? undefined : this.refusals.refused(this.clock.now());
		if (why) this.fail(why);
	}

	private fail(reason: string): void {
		if (this.failed) return;
		this.failed = true;
		this.goAlone();
		const runs = this.clock.now() - this.heardAt <= PEER_TTL_MS ? this.runs : undefined;
		const perSecond = this.perSecond / (runs ?? SENDER_SHARERS);
		this.onFail(reason, { perSecond, runs, from: this.aloneFrom });
	}

	private askMore(budget: RunBudget): void {
		this.asking ??= this.askOnce(budget).finally(() => (this.asking = undefined));
	}

	private async askOnce(budget: RunBudget): Promise<void> {
		const started = this.clock.now();
		// The budget left once the time spent asking counts (waiting requests pay as they go on).
		const left = () => budget.leftMs() - (this.clock.now() - started);
		// The next lead, drawn anew: runs in step would reach round-robin boards one run each.
		this.aheadShare = 1 + this.random();
		if (this.turns.count > 0 && this.grants < FIRST_ASKS)
			await this.clock.sleep(this.random() * this.spacingMs);
		const request = (sent: number) => {
			// The second ask, made at once, is for one turn: it looks for another board.
			const count = this.grants === 1 && this.turns.count > 0 ? 1 : this.chunk;
			const boards = this.boards.recent(sent);
			const left = this.wanted() - this.taken - this.turns.count - count;
			return {
				key: this.key,
				perSecond: this.perSecond,
				count,
				run: this.run,
				...(left > 0 && left < Infinity ? { left } : {}),
				...(boards.length ? { boards } : {}),
				...(this.waysBack.length
					? { afterMs: Math.min(MAX_AFTER_MS, Math.max(...this.waysBack)) }
					: {}),
			};
		};
		const slowest = Math.max(0, ...this.answers);
		const asked = await askGrant(this.ask, request, this.clock, left, slowest);
		if ('problem' in asked) return this.fail(asked.problem);
		const { grant, sent } = asked;
		const received = this.clock.now();
		// A board new beside a known one: refusals within leadMs date from the boards meeting, and
		// the count restarts. Not for the first: a sticky balancer shows no other; its 429s count.
		if (this.boards.heard(grant.board, received) && this.grants > 0)
			this.refusals.settle(received + this.leadMs);
		// A board not counting the boards it was told of would hand out the whole rate beside them.
		const reached = this.boards.recent(received).length;
		if (grant.boards < reached)
			return this.fail(
				`the turns came from ${reached} webhook processes behind a load balancer, one of which does not share the sender's rate with the others (run the same version of this package on every n8n process)`,
			);
		this.grants++;
		this.runs = grant.runs ?? 1;
		this.heardAt = received;
		this.answerMs = received - sent;
		keepLast(this.answers, this.answerMs);
		const { from, end, wayBack } = grantTiming(grant, sent, received, this.spacingMs);
		if (wayBack !== undefined) keepLast(this.waysBack, wayBack);
		this.aloneFrom = Math.max(this.aloneFrom, ALONE_AFTER_MS + Math.max(received, end));
		// None free within the board's bound: asked again when one is.
		if (grant.count === 0) return await this.clock.sleep(grant.delayMs);
		this.turns.add(grant, from);
	}
}
