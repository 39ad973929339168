/** Injected faults per route: redirects, statuses, 429s, malformed answers, hangs, resets. */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HttpError, badRequest, isPlainObject } from './http';

/**
 * Platform misbehaviour on demand, for testing how clients survive it. A fault matches requests
 * by method and path (a substring, or a regular expression after a ~: '~/lists/\\d+$') and answers
 * in place of the platform, `times` times (default: until cleared). The request is still recorded.
 *
 * - redirect: `status` (default 302) with `Location: location`.
 * - status: `status` with `body` (JSON) or `raw` (sent as is, with `contentType`).
 * - rateLimit: 429 with `Retry-After: retryAfter` (default '0') and a JSON error.
 * - malformed: 200 with `raw` (default a truncated JSON text) and `contentType` (default JSON).
 * - hang: never answers (the connection stays open until the client gives up or the sandbox
 *   closes).
 * - endlessPages: 200 for every page of a collection, always one more page to come.
 * - reset: the connection is destroyed without an answer.
 *
 * With `after: true` the platform first handles the request as usual (stores the batch, sends
 * the message), then the fault answers in place of its answer: a lost answer to a request that
 * was applied (a reset, a hang until the client's timeout, a gateway's 504, an unreadable 200).
 */
export type FaultKind =
	| 'redirect'
	| 'status'
	| 'rateLimit'
	| 'malformed'
	| 'hang'
	| 'endlessPages'
	| 'reset';

export interface Fault {
	kind: FaultKind;
	method?: string;
	path?: string;
	/** Query parameters the request must carry (e.g. { page: '2' }). */
	query?: Record<string, string>;
	times?: number;
	status?: number;
	location?: string;
	body?: unknown;
	raw?: string;
	contentType?: string;
	retryAfter?: string;
	/** endlessPages: items per page (default 1). */
	pageSize?: number;
	/** The platform handles the request first, then the fault answers in place of its answer. */
	after?: boolean;
	/** The first `skip` matching requests pass untouched; the fault answers the ones after them. */
	skip?: number;
}

const KINDS: FaultKind[] = [
	'redirect',
	'status',
	'rateLimit',
	'malformed',
	'hang',
	'endlessPages',
	'reset',
];

export class FaultInjector {
	private faults: Array<Fault & { used: number; skipped: number }> = [];
	private hanging = new Set<ServerResponse>();

	add(fault: Fault): void {
		if (!isPlainObject(fault) || !KINDS.includes(fault.kind))
			throw badRequest(`A fault needs a kind: one of ${KINDS.join(', ')}`);
		this.faults.push({ ...fault, used: 0, skipped: 0 });
	}

	clear(): void {
		this.faults = [];
		for (const res of this.hanging) res.destroy();
		this.hanging.clear();
	}

	list(): Fault[] {
		return this.faults.map((fault) => ({ ...fault }));
	}

	/** The fault that answers this request, if any (and counts its use). */
	take(
		method: string,
		path: string,
		query: Record<string, string | string[]> = {},
	): Fault | undefined {
		const fault = this.faults.find(
			(candidate) =>
				(!candidate.method || candidate.method.toUpperCase() === method) &&
				matches(candidate.path, path) &&
				Object.entries(candidate.query ?? {}).every(([name, value]) => query[name] === value) &&
				(candidate.times === undefined || candidate.used < candidate.times),
		);
		if (!fault) return undefined;
		if (fault.skipped < (fault.skip ?? 0)) {
			fault.skipped++;
			return undefined;
		}
		fault.used++;
		return fault;
	}

	/** Answers the request as the fault says. */
	answer(
		fault: Fault,
		req: IncomingMessage,
		res: ServerResponse,
		query: Record<string, string | string[]>,
		meta: () => object,
	): void {
		const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
			const text = JSON.stringify(payload);
			res.writeHead(status, {
				...headers,
				'content-type': 'application/json; charset=utf-8',
				'content-length': String(Buffer.byteLength(text)),
			});
			res.end(text);
		};
		switch (fault.kind) {
			case 'redirect':
				res.writeHead(fault.status ?? 302, {
					location: fault.location ?? 'http://127.0.0.1:9/elsewhere',
					'content-length': '0',
				});
				res.end();
				return;
			case 'status':
				if (fault.raw !== undefined) {
					res.writeHead(fault.status ?? 500, {
						'content-type': fault.contentType ?? 'text/plain',
						'content-length': String(Buffer.byteLength(fault.raw)),
					});
					res.end(fault.raw);
				} else
					json(
						fault.status ?? 500,
						fault.body ?? { meta: meta(), error: { message: 'Injected failure' } },
					);
				return;
			case 'rateLimit':
				json(
					429,
					{
						meta: meta(),
						error: { status: 429, code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' },
					},
					{ 'retry-after': fault.retryAfter ?? '0' },
				);
				return;
			case 'malformed': {
				const raw = fault.raw ?? '{"meta": {"timestamp": 1}, "data": {"id"';
				res.writeHead(200, {
					'content-type': fault.contentType ?? 'application/json',
					'content-length': String(Buffer.byteLength(raw)),
				});
				res.end(raw);
				return;
			}
			case 'hang':
				this.hanging.add(res);
				res.on('close', () => this.hanging.delete(res));
				return;
			case 'reset':
				req.socket.destroy();
				return;
			case 'endlessPages': {
				const page = Math.max(
					1,
					Number(Array.isArray(query.page) ? query.page[0] : (query.page ?? 1)) || 1,
				);
				const size = fault.pageSize ?? 1;
				const items = Array.from({ length: size }, (_, index) => ({
					id: `endless-${page}-${index}`,
					serial: `endless-${page}-${index}`,
					name: `Page ${page} item ${index}`,
				}));
				json(200, {
					meta: meta(),
					pagination: { page, pages: page + 1, limit: size, total: (page + 1) * size },
					items,
				});
				return;
			}
			default:
				throw new HttpError(500, 'INTERNAL_ERROR', `unknown fault ${String(fault.kind)}`);
		}
	}
}

function matches(pattern: string | undefined, path: string): boolean {
	if (!pattern) return true;
	return pattern.startsWith('~') ? new RegExp(pattern.slice(1)).test(path) : path.includes(pattern);
}
