import { MAX_TURNS_PER_REQUEST } from './board';
import type { TurnGrant, TurnRequest } from './board';
import { RATE_HEADROOM } from './pacer';
import type { Clock } from './clock';

/**
 * A run asks the board for at least this long's worth of turns at a time (at the sender's full
 * rate).
 */
const CHUNK_MS = 1000;
/** A grant that makes the run wait longer than this for its first turn is not believed. */
const MAX_DELAY_MS = 3_600_000;

/** Why the board could not give turns (the message says it without the URL or its token). */
export class TurnsUnavailable extends Error {}

/**
 * Asks the board (the trigger's pace webhook) for turns; rejects (best with a TurnsUnavailable)
 * when it cannot.
 */
export type AskTurns = (request: TurnRequest) => Promise<unknown>;

/** The grant in a pace answer, checked: a wrong answer is an error, not a turn. */
export function turnGrant(answer: unknown, asked: number): TurnGrant {
	const grant = (answer && typeof answer === 'object' ? answer : {}) as Partial<TurnGrant>;
	const { delayMs, spacingMs, count } = grant;
	if (typeof delayMs !== 'number' || !(delayMs >= 0 && delayMs <= MAX_DELAY_MS))
		throw new TurnsUnavailable('the pace answer has no delayMs from 0 to 3,600,000');
	if (typeof spacingMs !== 'number' || !(spacingMs > 0 && spacingMs <= MAX_DELAY_MS))
		throw new TurnsUnavailable('the pace answer has no positive spacingMs');
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > asked)
		throw new TurnsUnavailable(`the pace answer's count is not a whole number from 1 to ${asked}`);
	return { delayMs, spacingMs, count };
}

/**
 * A run's turns from a board shared with runs on other n8n processes (src/pace/board.ts). It asks
 * for enough turns to last twice the board's last answer time at the sender's full rate (at least a
 * second's worth), never more than the run still has messages for, and asks again
 * while it still holds that many, so that its requests rarely wait for the board (n8n answers a
 * webhook in a few ms when idle, in up to 1.5 s on a busy two-core machine running main, two
 * workers and a webhook process). Each request of the run takes the next turn and waits for its
 * time. A turn is timed from when its answer arrived (the board's clock is not this one): a turn is
 * never taken before the board gave it, at worst a little after. A turn that went by unused (the
 * run paused, or had nothing to send) is dropped rather than taken late, which would put two
 * requests closer than the spacing.
 *
 * Once the board cannot be asked (no answer, an error, a wrong answer), the run paces itself alone
 * for the rest of its messages (its own pacer still holds it to the sender's rate and backs it off
 * on 429), and `onFail` hears why, once.
 */
export class SharedTurns {
	private readonly turns: number[] = [];
	private head = 0;
	private asking?: Promise<void>;
	private failed = false;
	/** Turns taken so far. */
	private taken = 0;
	/** How long the board took to answer, last time. */
	private answerMs = 0;
	private readonly spacingMs: number;

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
	}

	/** Whether the run still takes shared turns (false once the board could not be asked). */
	get shared(): boolean {
		return !this.failed;
	}

	private get held(): number {
		return this.turns.length - this.head;
	}

	/**
	 * How many turns to ask for next: enough for twice the board's answer time, no more than the run
	 * has requests for (at least one).
	 */
	private get chunk(): number {
		const lasting = Math.round(Math.max(CHUNK_MS, 2 * this.answerMs) / this.spacingMs);
		const left = this.wanted() - this.taken - this.held;
		return Math.min(MAX_TURNS_PER_REQUEST, Math.max(1, Math.min(lasting, left)));
	}

	/** Waits for the run's next turn; at once when the board could not be asked. */
	async take(): Promise<void> {
		for (;;) {
			if (this.failed) return;
			const now = this.clock.now();
			while (this.head < this.turns.length && this.turns[this.head] < now - this.spacingMs)
				this.head++;
			// Ahead of need while the run has requests left for them; when it holds none, in any case (a
			// resend).
			if (this.held === 0 || (this.held <= this.chunk && this.wanted() - this.taken > this.held))
				this.askMore();
			if (this.held > 0) {
				const at = this.turns[this.head++];
				this.taken++;
				if (this.head > 1024) {
					this.turns.splice(0, this.head);
					this.head = 0;
				}
				if (at > now) await this.clock.sleep(at - now);
				return;
			}
			await this.asking;
		}
	}

	private askMore(): void {
		this.asking ??= this.askOnce().finally(() => (this.asking = undefined));
	}

	private async askOnce(): Promise<void> {
		const sent = this.clock.now();
		const count = this.chunk;
		let grant: TurnGrant;
		try {
			grant = turnGrant(await this.ask({ key: this.key, perSecond: this.perSecond, count }), count);
		} catch (error) {
			this.failed = true;
			this.onFail((error as Error).message);
			return;
		}
		const received = this.clock.now();
		this.answerMs = received - sent;
		for (let i = 0; i < grant.count; i++)
			this.turns.push(received + grant.delayMs + i * grant.spacingMs);
	}
}
