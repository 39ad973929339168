/**
 * Answering Send and Wait for Response's approve or decline link as a person does: the link opens
 * the confirm page, and its button posts the form back to the same signed link.
 */
import { whenReady } from './when-ready';

/** A phone's browser. */
export const PHONE_BROWSER =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

export interface Pressed {
	/** The confirm page the link opened. */
	page: string;
	/** The answer to pressing its button. */
	status: number;
	body: string;
}

/**
 * Opens `url`, checks that it shows the confirm page (a form that posts to its own URL), and
 * presses its button as a browser submits the form.
 */
export async function pressConfirm(
	url: string,
	userAgent = PHONE_BROWSER,
	options: { hangMs?: number } = {},
): Promise<Pressed> {
	// `hangMs`: a request that gets no answer in that time is made once more, as a person taps
	// again. Queue mode only: n8n's webhook process has twice left a waiting-webhook request of a
	// clean CI run unanswered for 300 s (before and after the confirm page; not reproduced, see the
	// session notes of issue 48). Answering twice is safe: n8n answers "No action required".
	const fetch = whenReady(options.hangMs ? patient(options.hangMs) : globalThis.fetch);
	const opened = await fetch(url, { headers: { 'user-agent': userAgent } });
	const page = await opened.text();
	if (opened.status !== 200 || !/<form method="post"[^>]*>/.test(page))
		throw new Error(`no confirm page at ${url}: ${opened.status} ${page.slice(0, 300)}`);
	const fields = [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)];
	const pressed = await fetch(url, {
		method: 'POST',
		headers: {
			'user-agent': userAgent,
			'content-type': 'application/x-www-form-urlencoded',
		},
		body: new URLSearchParams(
			fields.map(([, name, value]): [string, string] => [name, value]),
		).toString(),
	});
	return { page, status: pressed.status, body: await pressed.text() };
}

/** fetch, made once more when the first try gets no answer within `hangMs`. */
function patient(hangMs: number): typeof fetch {
	return async (input, init) => {
		try {
			return await globalThis.fetch(input, { ...init, signal: AbortSignal.timeout(hangMs) });
		} catch (error) {
			if ((error as Error).name !== 'TimeoutError') throw error;
			return await globalThis.fetch(input, init);
		}
	};
}
