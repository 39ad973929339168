/**
 * The status events a trigger has already started an execution for, so that a callback the
 * platform posts again (its first answer came late, or was lost) starts nothing a second time.
 *
 * An event is the same as an earlier one when its message id, status and date are the same; an
 * event without a message id is never taken for a repeat. Kept in the memory of the process that
 * answers the trigger's webhooks, for REPEAT_WINDOW_MS, at most REPEAT_MAX_EVENTS events (the
 * oldest forgotten first): a restart, or another webhook process in queue mode, forgets them.
 */
export const REPEAT_WINDOW_MS = 10 * 60_000;
export const REPEAT_MAX_EVENTS = 10_000;

export class RecentEvents {
	/** Each event's key and when it was first seen, oldest first (a Map keeps insertion order). */
	private readonly seen = new Map<string, number>();

	constructor(private readonly now: () => number = Date.now) {}

	/**
	 * The events of `events` not seen in `scope` (a trigger node of a workflow) within the window,
	 * each now remembered; a repeat within the same body counts as a repeat too.
	 */
	firstSeen<T extends { messageId?: unknown; status?: unknown; date?: unknown }>(
		scope: string,
		events: T[],
	): T[] {
		const now = this.now();
		const first = events.filter((event) => {
			if (typeof event.messageId !== 'string') return true;
			const key = JSON.stringify([scope, event.messageId, event.status, event.date]);
			const at = this.seen.get(key);
			if (at !== undefined && at > now - REPEAT_WINDOW_MS) return false;
			this.seen.delete(key);
			this.seen.set(key, now);
			return true;
		});
		for (const [key, at] of this.seen) {
			if (at > now - REPEAT_WINDOW_MS && this.seen.size <= REPEAT_MAX_EVENTS) break;
			this.seen.delete(key);
		}
		return first;
	}
}
