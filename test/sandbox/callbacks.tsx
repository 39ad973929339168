/** Status progression of accepted messages and the ordered, paced, retried callback deliveries. */
import type { ClientRequest } from 'node:http';
import { postCallback } from './callback-post';
import type {
	CallbackBody,
	CallbackDelivery,
	CallbackSettings,
	StatusEntry,
	TrackedMessage,
} from './callback-types';
import { TimerSet, type SandboxClock } from './clock';
import { IdleWaiters } from './waiters';

interface Queue {
	messageId: string;
	url: string;
	events: CallbackBody[];
	running: boolean;
	/** Real time the previous event of this queue was finished with, 0 before the first. */
	lastDoneAt: number;
}

/**
 * Sandbox choice (spec: not shown): 2xx is success; no answer, 5xx, 408 and 429 are retried; other
 * statuses give up at once.
 */
const retryable = (httpStatus: number | null) =>
	httpStatus === null || httpStatus >= 500 || httpStatus === 408 || httpStatus === 429;

/**
 * Drives the status progression of accepted messages and posts one event per status to every
 * callback URL. Events of one message to one URL go strictly in order: the next one leaves only
 * once the previous got a 2xx or was given up. Different messages and URLs are independent.
 */
export class CallbackDispatcher {
	private deliveries: CallbackDelivery[] = [];
	private readonly queues = new Map<string, Queue>();
	/** Messages whose status progression is still running. */
	private readonly progressing = new Set<string>();
	private readonly inFlight = new Set<ClientRequest>();
	private readonly waiters = new IdleWaiters();
	private timers = new TimerSet();
	/** Bumped by stop(): work started before it ends without touching the state. */
	private generation = 0;

	constructor(
		private readonly clock: SandboxClock,
		private readonly settings: () => CallbackSettings,
	) {}

	/**
	 * Emits `initial` now (events only: the caller has stored them), then each of `later` after
	 * `delayMs`, calling onStatus when the message reaches it.
	 */
	track(
		message: TrackedMessage,
		initial: StatusEntry[],
		later: string[],
		onStatus: (entry: StatusEntry) => void,
	): void {
		for (const entry of initial) this.emit(message, entry);
		if (!later.length) return;
		const generation = this.generation;
		const timers = this.timers;
		this.progressing.add(message.id);
		void (async () => {
			for (const status of later) {
				if (!(await timers.sleep(this.settings().delayMs)) || generation !== this.generation)
					return;
				const entry = { status, date: this.clock.iso() };
				onStatus(entry);
				this.emit(message, entry);
			}
			this.progressing.delete(message.id);
			this.notify();
		})();
	}

	all(messageId?: string): CallbackDelivery[] {
		return this.deliveries
			.filter((d) => messageId === undefined || d.messageId === messageId)
			.map((d) => ({ ...d }));
	}

	/** Whether status steps or deliveries are still to come (for one message, or any). */
	pending(messageId?: string): boolean {
		if (messageId === undefined)
			return this.progressing.size > 0 || [...this.queues.values()].some((q) => q.running);
		return (
			this.progressing.has(messageId) ||
			[...this.queues.values()].some((q) => q.running && q.messageId === messageId)
		);
	}

	/**
	 * Resolves with the attempts (of the message, or all) once nothing is pending; rejects after
	 * timeoutMs.
	 */
	waitForIdle(messageId?: string, timeoutMs = 10_000): Promise<CallbackDelivery[]> {
		const what = messageId === undefined ? 'all messages' : `message ${messageId}`;
		return this.waiters.wait(
			() => this.pending(messageId),
			() => this.all(messageId),
			timeoutMs,
			() =>
				`waitForCallbacks timed out after ${timeoutMs} ms: status steps or deliveries still pending for ${what}`,
		);
	}

	/** Cancels every timer and in-flight request; later results are dropped. Waiters resolve. */
	stop(): void {
		this.generation++;
		this.timers.cancelAll();
		this.timers = new TimerSet();
		for (const request of this.inFlight) request.destroy();
		this.inFlight.clear();
		this.queues.clear();
		this.progressing.clear();
		this.notify();
	}

	reset(): void {
		this.stop();
		this.deliveries = [];
	}

	private emit(message: TrackedMessage, entry: StatusEntry): void {
		for (const url of message.callbacks) {
			const key = JSON.stringify([message.id, url]);
			let queue = this.queues.get(key);
			if (!queue)
				this.queues.set(
					key,
					(queue = { messageId: message.id, url, events: [], running: false, lastDoneAt: 0 }),
				);
			queue.events.push({
				id: message.id,
				from: message.from,
				to: message.to,
				externalId: message.externalId,
				campaignId: null,
				callback: url,
				date: entry.date,
				status: entry.status,
			});
			if (!queue.running) void this.pump(queue);
		}
	}

	private async pump(queue: Queue): Promise<void> {
		const generation = this.generation;
		const timers = this.timers;
		queue.running = true;
		while (queue.events.length) {
			const wait = queue.lastDoneAt ? queue.lastDoneAt + this.settings().delayMs - Date.now() : 0;
			if (wait > 0 && !(await timers.sleep(wait))) return;
			if (generation !== this.generation) return;
			await this.deliver(queue, queue.events[0], generation, timers);
			if (generation !== this.generation) return;
			queue.events.shift();
			queue.lastDoneAt = Date.now();
		}
		queue.running = false;
		this.notify();
	}

	private async deliver(
		queue: Queue,
		body: CallbackBody,
		generation: number,
		timers: TimerSet,
	): Promise<void> {
		const { maxAttempts, retryDelayMs } = this.settings();
		for (let attempt = 1; ; attempt++) {
			const at = this.clock.iso();
			const result = await postCallback(queue.url, body, this.settings().timeoutMs, this.inFlight);
			if (generation !== this.generation) return;
			const ok = result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
			const error = ok ? undefined : (result.error ?? `HTTP ${result.httpStatus}`);
			this.deliveries.push({
				messageId: queue.messageId,
				url: queue.url,
				status: body.status,
				attempt,
				httpStatus: result.httpStatus,
				...(error && { error }),
				ok,
				at,
			});
			if (ok || !retryable(result.httpStatus) || attempt >= maxAttempts) return;
			if (!(await timers.sleep(retryDelayMs * 2 ** (attempt - 1)))) return;
		}
	}

	private notify(): void {
		this.waiters.notify();
	}
}
