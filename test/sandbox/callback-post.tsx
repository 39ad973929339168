/** One callback attempt: a single POST of the body, its answer's status or why there was none. */
import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import type { CallbackBody } from './callback-types';

/** The receiver's HTTP status, or null with the reason it could not be had. */
export interface PostResult {
	httpStatus: number | null;
	error?: string;
}

/**
 * One POST with a fresh connection (no keep-alive), so closing either side is prompt. The request
 * is in `inFlight` until it settles, so the dispatcher can destroy it on stop.
 */
export function postCallback(
	url: string,
	body: CallbackBody,
	timeoutMs: number,
	inFlight: Set<ClientRequest>,
): Promise<PostResult> {
	const payload = JSON.stringify(body);
	return new Promise((resolve) => {
		let settled = false;
		const settle = (result: PostResult) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			inFlight.delete(request);
			resolve(result);
		};
		const client = url.startsWith('https:') ? https : http;
		const request = client.request(url, {
			method: 'POST',
			agent: false,
			headers: {
				'content-type': 'application/json; charset=utf-8',
				'content-length': Buffer.byteLength(payload),
				'user-agent': 'platform-sandbox-callbacks/1',
			},
		});
		const timer = setTimeout(
			() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
			timeoutMs,
		);
		timer.unref();
		inFlight.add(request);
		let answered: number | null = null;
		request.on('response', (response) => {
			answered = response.statusCode ?? null;
			response.resume();
			response.on('end', () => settle({ httpStatus: answered }));
		});
		// Once the status line is in, a body cut short still counts as that answer.
		request.on('error', (error) =>
			settle(
				answered === null ? { httpStatus: null, error: error.message } : { httpStatus: answered },
			),
		);
		request.on('close', () =>
			settle(
				answered === null
					? { httpStatus: null, error: 'connection closed before an answer' }
					: { httpStatus: answered },
			),
		);
		request.end(payload);
	});
}
