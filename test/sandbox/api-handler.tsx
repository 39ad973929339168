/** A platform request: recorded, delayed, faulted, authenticated, routed, answered in its envelope. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyReader } from './body';
import type { SandboxClock } from './clock';
import type { Fault, FaultInjector, FaultKind } from './faults';
import { HttpError, errorReply, meta, queryFrom, type Reply } from './http';
import { sendFile, sendJson } from './respond';
import type { Router } from './router';
import type { RecordedRequest } from './types';

/** What a platform request reads and records of a running sandbox. */
export interface ApiHandlerDeps {
	apiKey: string;
	router: Router;
	faults: FaultInjector;
	clock: SandboxClock;
	/** Every request is pushed here on arrival. */
	requests: RecordedRequest[];
	/** Real ms to wait before handling (the latencyMs option, changed by setLatency). */
	latencyMs(): number;
}

export async function handleApi(
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	deps: ApiHandlerDeps,
): Promise<void> {
	const { clock, faults } = deps;
	const record: RecordedRequest = {
		method: req.method ?? 'GET',
		path: url.pathname,
		query: queryFrom(url.searchParams),
		headers: flattenHeaders(req),
		bodySize: 0,
		status: 0,
		receivedAt: Date.now(),
	};
	const body = new BodyReader(req, record);
	deps.requests.push(record);
	const latencyMs = deps.latencyMs();
	if (latencyMs) await new Promise((resolve) => setTimeout(resolve, latencyMs));
	/** Answers as the fault says, in place of the platform, and records the status it sent. */
	const answerFault = (fault: Fault) => {
		const { kind, status } = fault;
		const statuses: Record<FaultKind, number> = {
			hang: 0,
			reset: 0,
			rateLimit: 429,
			redirect: status ?? 302,
			status: status ?? 500,
			malformed: 200,
			endlessPages: 200,
		};
		record.status = statuses[kind];
		if (record.status) record.answeredAt = Date.now();
		faults.answer(fault, req, res, record.query, () => meta(clock.nowMs()));
	};
	const fault = faults.take(record.method, record.path, record.query);
	if (fault && !fault.after) {
		if (fault.kind !== 'hang' && fault.kind !== 'reset') await body.drain();
		answerFault(fault);
		return;
	}

	let reply: Reply;
	try {
		checkAuth(req, deps.apiKey);
		const match = deps.router.match(record.method, record.path);
		if (match.kind === 'not-found')
			throw new HttpError(
				404,
				'ROUTE_NOT_FOUND',
				`No such endpoint: ${record.method} ${record.path}`,
			);
		if (match.kind === 'method-not-allowed') {
			const allow = match.allowed.join(', ');
			throw new HttpError(
				405,
				'METHOD_NOT_ALLOWED',
				`Method ${record.method} is not allowed on ${record.path} (allowed: ${allow})`,
				{ allow },
			);
		}
		const { method, path, query, headers } = record;
		reply = await match.handler({
			method,
			path,
			query,
			headers,
			params: match.params,
			body,
			record,
		});
	} catch (error) {
		reply = error instanceof HttpError ? errorReply(error) : internalError(error);
	}
	if (body.state === 'unread') await body.drain();
	if (fault) {
		// Applied, then its answer lost.
		answerFault(fault);
		return;
	}
	record.status = reply.status;
	record.answeredAt = Date.now();
	const aborted = body.state === 'aborted';
	// Sandbox choice (spec: not shown): every answer's Date is of the sandbox's clock, the one its
	// rate-limit seconds count.
	const headers = {
		date: new Date(clock.nowMs()).toUTCString(),
		...reply.headers,
		...(aborted && { connection: 'close' }),
	};
	if (reply.file) sendFile(res, reply.status, reply.file, headers);
	else sendJson(res, reply.status, { meta: meta(clock.nowMs()), ...reply.body }, headers);
	if (aborted) body.discardRest();
}

function checkAuth(req: IncomingMessage, apiKey: string): void {
	const header = req.headers.authorization;
	const fail = (message: string) =>
		new HttpError(401, 'UNAUTHORIZED', message, { 'www-authenticate': 'Bearer' });
	if (!header) throw fail('Missing Authorization header; expected "Bearer <API key>"');
	const match = /^Bearer\s+(.+)$/i.exec(header.trim());
	if (!match) throw fail('Authorization header must use the Bearer scheme: "Bearer <API key>"');
	if (match[1].trim() !== apiKey) throw fail('Invalid API key');
}

function internalError(error: unknown): Reply {
	console.error('[sandbox] handler failed', error);
	return errorReply(
		new HttpError(
			500,
			'INTERNAL_ERROR',
			`Sandbox error: ${(error as Error)?.message ?? String(error)}`,
		),
	);
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}
