/** The pending media fetches: background start, `waitForMedia`, abort on reset or close. */
import type { ChatappMessage } from './chatapp-message-records';
import { fetchMedia, type MediaFetch } from './chatapp-media';
import type { MediaType } from './chatapp-message-limits';
import type { SandboxClock } from './clock';
import { IdleWaiters } from './waiters';

/**
 * The background media fetches of accepted media messages (mediaFetch on): one GET each, with
 * Node's fetch. reset()/close() abort them (stop()) and drop their results.
 */
export class MediaFetcher {
	/** Message id → the controller of its fetch, while pending. */
	private readonly inFlight = new Map<string, AbortController>();
	private readonly waiters = new IdleWaiters();

	constructor(
		private readonly clock: SandboxClock,
		private readonly timeoutMs: () => number,
	) {}

	/** Starts the fetch of `url` in the background; `onDone` gets its outcome unless stopped. */
	start(
		messageId: string,
		type: MediaType,
		url: string,
		onDone: (media: MediaFetch) => void,
	): void {
		const controller = new AbortController();
		this.inFlight.set(messageId, controller);
		const at = this.clock.iso();
		void fetchMedia(url, type, this.timeoutMs(), controller).then((outcome) => {
			if (this.inFlight.get(messageId) !== controller) return;
			this.inFlight.delete(messageId);
			onDone({ url, ...outcome, at });
			this.notify();
		});
	}

	/** Whether a fetch is still pending (for one message, or any). */
	pending(messageId?: string): boolean {
		return messageId === undefined ? this.inFlight.size > 0 : this.inFlight.has(messageId);
	}

	/**
	 * Resolves with the media records of `messages()` (of `messageId`, or all that have one) once no
	 * fetch is pending; rejects after timeoutMs.
	 */
	waitForIdle(
		messageId: string | undefined,
		timeoutMs: number,
		messages: () => ChatappMessage[],
	): Promise<MediaFetch[]> {
		const what = messageId === undefined ? 'all messages' : `message ${messageId}`;
		return this.waiters.wait(
			() => this.pending(messageId),
			() =>
				messages()
					.filter((m) => messageId === undefined || m.id === messageId)
					.flatMap((m) => (m.media ? [m.media] : [])),
			timeoutMs,
			() => `waitForMedia timed out after ${timeoutMs} ms: media fetch still pending for ${what}`,
		);
	}

	/** Aborts every pending fetch (its connection is closed, its result dropped); waiters resolve. */
	stop(): void {
		const controllers = [...this.inFlight.values()];
		this.inFlight.clear();
		for (const controller of controllers)
			controller.abort(new Error('the sandbox stopped the fetch'));
		this.notify();
	}

	private notify(): void {
		this.waiters.notify();
	}
}
