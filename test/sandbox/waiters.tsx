/**
 * Waits for background work to be done (callback deliveries, media fetches): each wait is checked
 * again whenever the work reports progress (`notify`), resolves with `result()` once `busy()` is
 * false, and rejects after timeoutMs with `timedOut()`'s message.
 */
export class IdleWaiters {
	private readonly waiters = new Set<() => void>();

	/** Checks every wait again. */
	notify(): void {
		for (const waiter of [...this.waiters]) waiter();
	}

	wait<T>(
		busy: () => boolean,
		result: () => T,
		timeoutMs: number,
		timedOut: () => string,
	): Promise<T> {
		return new Promise((resolve, reject) => {
			const check = () => {
				if (busy()) return;
				finish();
				resolve(result());
			};
			const timer = setTimeout(() => {
				finish();
				reject(new Error(timedOut()));
			}, timeoutMs);
			const finish = () => {
				clearTimeout(timer);
				this.waiters.delete(check);
			};
			this.waiters.add(check);
			check();
		});
	}
}
