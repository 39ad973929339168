/** One media fetch: the spec's content types, 5 MB, redirects, and the `MediaFetch` record. */
import { createHash } from 'node:crypto';
import type { MediaType } from './chatapp-message-limits';

/** Spec §4 media table: the content types each media type may be served as. */
export const MEDIA_CONTENT_TYPES: Readonly<Record<MediaType, readonly string[]>> = {
	image: ['image/jpeg', 'image/png'],
	audio: ['audio/aac', 'audio/mp4', 'audio/amr', 'audio/mpeg', 'audio/ogg; codecs=opus'],
	video: ['video/mp4', 'video/3gpp'],
	// Sandbox choice (spec: not shown): application/pdf, the type servers send for a PDF, fits a
	// document as well as the spec's document/pdf.
	document: ['document/pdf', 'application/pdf'],
};

/**
 * Sandbox choice (spec: not shown): the spec's 5 MB is 5 × 1024 × 1024 bytes; the fetch reads at
 * most one byte more, enough to tell a file over the limit.
 */
export const MEDIA_FETCH_MAX_BYTES = 5 * 1024 * 1024;
/** Sandbox choice (spec: not shown): redirects the media fetch follows; one more fails it. */
export const MEDIA_FETCH_MAX_REDIRECTS = 3;

/**
 * Sandbox choice (spec: not shown): with the mediaFetch setting on, the outcome of the one GET of
 * an accepted (QUEUE) media message's URL, as a platform fetching it to send would see it. It is
 * recorded only: the message's status path and callbacks are the same whatever it says.
 */
export interface MediaFetch {
	/** The message's `body` URL (trimmed), the one fetched. */
	url: string;
	/** A 2xx, fully read, at most 5 MB, with a content type of the message type. */
	ok: boolean;
	/** The last answer's status (a redirect's, past the redirect limit); null when unreachable. */
	httpStatus: number | null;
	/** The answer's Content-Type header as sent; null when none (or no answer). */
	contentType: string | null;
	/** Bytes of the answer's body read (at most MEDIA_FETCH_MAX_BYTES + 1); null before a body. */
	size: number | null;
	/** SHA-256 (hex) of the body, when fully read and at most 5 MB; else null. */
	sha256: string | null;
	/** Why not ok, in a short sentence. */
	error?: string;
	/** Sandbox-clock time the fetch started, ISO 8601 UTC. */
	at: string;
}

/** What a fetch found; the fetcher adds `url` and `at`. */
export type MediaOutcome = Omit<MediaFetch, 'url' | 'at'>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Sandbox choice (spec: not shown): no Authorization header and no API key; no compression, so the
// bytes hashed are the bytes served; a fresh connection, closed after the answer.
const FETCH_HEADERS = {
	accept: '*/*',
	'accept-encoding': 'identity',
	connection: 'close',
	'user-agent': 'platform-sandbox-media/1',
};

/**
 * Why `header` does not fit `type` (undefined when it does): the media type part compares
 * case-insensitively; parameters are ignored except a required one (codecs=opus of audio/ogg,
 * name case-insensitive, value case-insensitive, quotes allowed).
 */
export function contentTypeProblem(type: MediaType, header: string | null): string | undefined {
	const accepted = MEDIA_CONTENT_TYPES[type];
	const list = `accepted: ${accepted.join(', ')}`;
	if (header === null || header.trim() === '') return `no Content-Type for type ${type} (${list})`;
	const { essence, params } = parseContentType(header);
	for (const allowed of accepted) {
		const wanted = parseContentType(allowed);
		if (wanted.essence !== essence) continue;
		const missing = [...wanted.params].find(([name, value]) => params.get(name) !== value);
		if (!missing) return undefined;
		return `content type ${header.trim()} does not fit type ${type}: ${essence} needs ${missing[0]}=${missing[1]} (${list})`;
	}
	return `content type ${essence} does not fit type ${type} (${list})`;
}

function parseContentType(header: string): { essence: string; params: Map<string, string> } {
	const [essence, ...rest] = header.split(';');
	const params = new Map<string, string>();
	for (const param of rest) {
		const at = param.indexOf('=');
		if (at < 0) continue;
		const value = param
			.slice(at + 1)
			.trim()
			.replace(/^"(.*)"$/, '$1');
		params.set(param.slice(0, at).trim().toLowerCase(), value.toLowerCase());
	}
	return { essence: essence.trim().toLowerCase(), params };
}

/** One GET of `url` (redirects followed by hand), never rejecting: the outcome says what failed. */
export async function fetchMedia(
	url: string,
	type: MediaType,
	timeoutMs: number,
	controller: AbortController,
): Promise<MediaOutcome> {
	const outcome: MediaOutcome = {
		ok: false,
		httpStatus: null,
		contentType: null,
		size: null,
		sha256: null,
	};
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		controller.abort(new Error(`no complete answer within ${timeoutMs} ms`));
	}, timeoutMs);
	timer.unref();
	const fail = (error: string): MediaOutcome => ({ ...outcome, ok: false, error });
	try {
		let target = new URL(url);
		let response: Response;
		for (let redirects = 0; ; redirects++) {
			response = await fetch(target, {
				redirect: 'manual',
				signal: controller.signal,
				headers: FETCH_HEADERS,
			});
			const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null;
			if (location === null) break;
			await response.body?.cancel();
			if (redirects === MEDIA_FETCH_MAX_REDIRECTS) {
				outcome.httpStatus = response.status;
				return fail(`more than ${MEDIA_FETCH_MAX_REDIRECTS} redirects (the next to ${location})`);
			}
			target = new URL(location, target);
			if (target.protocol !== 'http:' && target.protocol !== 'https:') {
				outcome.httpStatus = response.status;
				return fail(`redirected to ${target.href}, not an http(s) URL`);
			}
		}
		outcome.httpStatus = response.status;
		outcome.contentType = response.headers.get('content-type');
		if (response.status < 200 || response.status > 299) {
			await response.body?.cancel();
			return fail(`HTTP ${response.status}`);
		}
		outcome.size = 0;
		const hash = createHash('sha256');
		const reader = response.body?.getReader();
		while (reader) {
			const { done, value } = await reader.read();
			if (done) break;
			const piece = value.subarray(0, MEDIA_FETCH_MAX_BYTES + 1 - outcome.size);
			outcome.size += piece.byteLength;
			hash.update(piece);
			if (outcome.size > MEDIA_FETCH_MAX_BYTES) {
				await reader.cancel();
				return fail(
					`the file is larger than 5 MB (${MEDIA_FETCH_MAX_BYTES} bytes): reading stopped at ${outcome.size} bytes`,
				);
			}
		}
		outcome.sha256 = hash.digest('hex');
		const problem = contentTypeProblem(type, outcome.contentType);
		return problem ? fail(problem) : { ...outcome, ok: true };
	} catch (error) {
		if (timedOut)
			return fail(
				outcome.size === null
					? `no answer within ${timeoutMs} ms`
					: `the body was not fully read within ${timeoutMs} ms (${outcome.size} bytes read)`,
			);
		const cause = (error as { cause?: { message?: unknown } }).cause?.message;
		const message = typeof cause === 'string' ? cause : (error as Error).message;
		return fail(
			outcome.size === null
				? message
				: `the body was cut short after ${outcome.size} bytes: ${message}`,
		);
	} finally {
		clearTimeout(timer);
	}
}
