import { MAX_TURNS_PER_REQUEST } from './pace-board';
import type { TurnGrant, TurnRequest } from './pace-board';
import { RATE_HEADROOM } from './pacer';
import type { Clock } from './pacer';

/** A run asks the board for about this long's worth of turns at a time (a quarter of a second at the sender's full rate). */
const CHUNK_MS = 250;
/** A grant that makes the run wait longer than this for its first turn is not believed. */
const MAX_DELAY_MS = 3_600_000;

/** Why the board could not give turns (the message says it without the URL or its token). */
export class TurnsUnavailable extends Error {}

/** Asks the board (the trigger's pace webhook) for turns; rejects (best with a TurnsUnavailable) when it cannot. */
export type AskTurns = (request: TurnRequest) => Promise<unknown>;

/** The grant in a pace answer, checked: a wrong answer is an error, not a turn. */
export function turnGrant(answer: unknown, asked: number): TurnGrant {
	const grant = (answer && typeof answer === 'object' ? answer : {}) as Partial<TurnGrant>;
	const { delayMs, spacingMs, count } = grant;
	if (typeof delayMs !== 'number' || !(delayMs >= 0 && delayMs <= MAX_DELAY_MS)) throw new TurnsUnavailable('the pace answer has no delayMs from 0 to 3,600,000');
	if (typeof spacingMs !== 'number' || !(spacingMs > 0 && spacingMs <= MAX_DELAY_MS)) throw new TurnsUnavailable('the pace answer has no positive spacingMs');
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > asked) throw new TurnsUnavailable(`the pace answer's count is not a whole number from 1 to ${asked}`);
	return { delayMs, spacingMs, count };
}

/**
 * A run's turns from a board shared with runs on other n8n processes (src/pace-board.ts): it asks
 * for a quarter of a second's worth at a time, and again while it still holds that many, so that
 * its requests never wait for the board's answer. Each request of the run takes the next turn and
 * waits for its time. A turn that went by unused (the run paused, or had nothing to send) is
 * dropped rather than taken late, which would put two requests closer than the spacing.
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
	private readonly chunk: number;

	constructor(
		private readonly ask: AskTurns,
		private readonly key: string,
		private readonly perSecond: number,
		private readonly clock: Clock,
		private readonly onFail: (reason: string) => void,
	) {
		this.chunk = Math.min(MAX_TURNS_PER_REQUEST, Math.max(1, Math.round((perSecond * RATE_HEADROOM * CHUNK_MS) / 1000)));
	}

	/** Whether the run still takes shared turns (false once the board could not be asked). */
	get shared(): boolean {
		return !this.failed;
	}

	/** Waits for the run's next turn; at once when the board could not be asked. */
	async take(): Promise<void> {
		for (;;) {
			if (this.failed) return;
			const now = this.clock.now();
			const spacing = 1000 / (this.perSecond * RATE_HEADROOM);
			while (this.head < this.turns.length && this.turns[this.head] < now - spacing) this.head++;
			if (this.turns.length - this.head <= this.chunk) this.askMore();
			if (this.head < this.turns.length) {
				const at = this.turns[this.head++];
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
		let grant: TurnGrant;
		try {
			grant = turnGrant(await this.ask({ key: this.key, perSecond: this.perSecond, count: this.chunk }), this.chunk);
		} catch (error) {
			this.failed = true;
			this.onFail((error as Error).message);
			return;
		}
		// The board's clock is not this one: its "now" is taken as halfway through the round trip.
		const first = sent + (this.clock.now() - sent) / 2 + grant.delayMs;
		for (let i = 0; i < grant.count; i++) this.turns.push(first + i * grant.spacingMs);
	}
}
