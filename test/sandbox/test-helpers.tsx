/** Helpers for the sandbox's tests: calling it, a callback receiver, a media server. */
import type { Sandbox } from './types';

export interface CallOptions {
	json?: unknown;
	form?: FormData;
	/** Raw body with its own content-type header (set via headers). */
	raw?: string;
	query?: Record<string, string>;
	/** Appended to the URL as written (e.g. an unencoded `+`), after `query`. */
	rawQuery?: string;
	/** Base URL to call under; default `sandbox.listsBaseUrl`. */
	baseUrl?: string;
	headers?: Record<string, string>;
	/** false: no Authorization header; a string: use that key. */
	auth?: boolean | string;
}

export interface CallResult {
	status: number;
	headers: Headers;
	body: any;
}

/** Calls the sandbox with a real HTTP request (the lists API unless `baseUrl` is given). */
export async function call(
	sandbox: Sandbox,
	method: string,
	path: string,
	options: CallOptions = {},
): Promise<CallResult> {
	const url = new URL(`${options.baseUrl ?? sandbox.listsBaseUrl}${path}`);
	for (const [name, value] of Object.entries(options.query ?? {}))
		url.searchParams.set(name, value);
	if (options.rawQuery)
		url.search = url.search ? `${url.search}&${options.rawQuery}` : `?${options.rawQuery}`;
	const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
	if (options.auth !== false)
		headers.authorization = `Bearer ${typeof options.auth === 'string' ? options.auth : sandbox.apiKey}`;
	let body: string | FormData | undefined = options.form ?? options.raw;
	if (options.json !== undefined) {
		headers['content-type'] = 'application/json';
		body = JSON.stringify(options.json);
	}
	const res = await fetch(url, { method, headers, body });
	const text = await res.text();
	return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export function csvForm(csv: string, type = 'text/csv', filename = 'subscribers.csv'): FormData {
	const form = new FormData();
	form.append('csvFile', new Blob([csv], { type }), filename);
	return form;
}

export const expectMeta = (body: { meta?: { timestamp?: unknown; transactionId?: unknown } }) => {
	expect(Number.isInteger(body.meta?.timestamp)).toBe(true);
	expect(typeof body.meta?.transactionId).toBe('string');
};

export interface ReceivedCallback {
	body: any;
	/** What the receiver answered. */
	status: number;
	headers: Record<string, string | string[] | undefined>;
}

export interface Receiver {
	url: string;
	port: number;
	/** Every request received, in arrival order (answered or not). */
	hits: ReceivedCallback[];
	close(): Promise<void>;
}

/**
 * A tiny HTTP server on loopback that records JSON POSTs and answers `answer(hitIndex)` (default
 * 200). `port` 0 picks a free one; give a known port to bring a receiver "back up".
 */
export async function startReceiver(
	answer: (index: number, body: any) => number = () => 200,
	port = 0,
): Promise<Receiver> {
	const http = await import('node:http');
	const hits: ReceivedCallback[] = [];
	const server = http.createServer((req, res) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (text += chunk));
		req.on('end', () => {
			const body = text ? JSON.parse(text) : undefined;
			const status = answer(hits.length, body);
			hits.push({ body, status, headers: req.headers });
			res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	const actual = (server.address() as { port: number }).port;
	return {
		url: `http://127.0.0.1:${actual}/hook`,
		port: actual,
		hits,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

export interface MediaServer {
	/** `http://127.0.0.1:<port>` */
	url: string;
	/** Every request received, in arrival order: method, path with query, headers. */
	hits: Array<{ method: string; path: string; headers: Record<string, unknown> }>;
	/** Connections open right now (a request whose handler never answers keeps one). */
	connections(): Promise<number>;
	close(): Promise<void>;
}

/** A loopback HTTP server for media URLs: `handle(path, res)` answers each request (or not). */
export async function startMediaServer(
	handle: (path: string, res: import('node:http').ServerResponse) => void,
): Promise<MediaServer> {
	const http = await import('node:http');
	const hits: MediaServer['hits'] = [];
	const server = http.createServer((req, res) => {
		hits.push({ method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers } });
		handle(req.url ?? '/', res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
		hits,
		connections: () =>
			new Promise<number>((resolve, reject) =>
				server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
			),
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
