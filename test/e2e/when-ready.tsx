/**
 * Requests to n8n that wait out its own 503 while its database check fails: fetch, made again each second while n8n answers its own 503 "Database is not ready!" (for up to
 * 4 minutes), as a person reloads the page. A loaded n8n answers it to every request from a failed
 * check of its database until the next check passes (every 2 s; one such stretch lasted over 50 s
 * with both cores busy): n8n refuses the request before any webhook sees it, so making it again
 * is safe.
 */
export function whenReady(fetch: typeof globalThis.fetch = globalThis.fetch): typeof fetch {
	return async (input, init) => {
		const until = Date.now() + 240_000;
		for (;;) {
			const answer = await fetch(input, init);
			if (answer.status !== 503 || Date.now() > until) return answer;
			const text = await answer.clone().text();
			if (!text.includes('Database is not ready!')) return answer;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	};
}
