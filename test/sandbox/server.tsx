import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminRouter, readAdminJson } from './admin';
import { BodyReader } from './body';
import {
	HttpError,
	badRequest,
	errorReply,
	isPlainObject,
	meta,
	queryFrom,
	type Reply,
} from './http';
import { BlacklistModule } from './blacklist';
import { ChatappModule } from './chatapp';
import { SandboxClock } from './clock';
import { ListsModule } from './lists';
import { Router } from './router';
import { scriptedCompletion } from './scripted-model';
import type { RecordedRequest, Sandbox, SandboxOptions } from './types';
import { WalletModule } from './wallet';
import { FaultInjector } from './faults';
import { SAMPLE_FILES } from './files';
import type { Fault } from './faults';

export const ADMIN_PREFIX = '/__sandbox';
export const DEFAULT_API_KEY = 'sandbox-key';
export const DEFAULT_CSV_MAX_BYTES = 200 * 1024 * 1024;

/** A feature area (lists, wallet, blacklist, chat-app) plugs its routes and state in here. */
export interface SandboxModule {
	register(router: Router): void;
	/** Routes under /__sandbox (paths given without the prefix). */
	registerAdmin?(admin: AdminRouter): void;
	reset(): void;
	/** Stops timers and outgoing requests when the sandbox closes. */
	close?(): void;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const lists = new ListsModule({ csvMaxBytes: options.csvMaxBytes ?? DEFAULT_CSV_MAX_BYTES });
	const wallet = new WalletModule(options.templates);
	const clock = new SandboxClock();
	const blacklist = new BlacklistModule(clock);
	const chatapp = new ChatappModule(clock, blacklist, {
		quotaExceeded: options.quotaExceeded,
		callbackStatuses: options.callbackStatuses,
		callbackDelayMs: options.callbackDelayMs,
		callbackMaxAttempts: options.callbackMaxAttempts,
		callbackRetryDelayMs: options.callbackRetryDelayMs,
		callbackTimeoutMs: options.callbackTimeoutMs,
		rateLimitWindow: options.rateLimitWindow,
		rateLimitBurst: options.rateLimitBurst,
		mediaFetch: options.mediaFetch,
	});
	const modules: SandboxModule[] = [lists, wallet, blacklist, chatapp];
	const router = new Router();
	const admin = new AdminRouter();
	for (const module of modules) {
		module.register(router);
		module.registerAdmin?.(admin);
	}
	// Not the platform: the scripted chat model of the AI agent demo (scripted-model.tsx).
	admin.add('POST', '/model/v1/chat/completions', async (ctx) =>
		scriptedCompletion(await ctx.json()),
	);
	admin
		.add('GET', '/clock', () => clock.state())
		.add('POST', '/clock', async (ctx) => {
			const body = await ctx.json();
			if (!isPlainObject(body))
				throw badRequest('Body must be a JSON object { advanceMs?, freeze? }');
			const { advanceMs, freeze } = body;
			if (freeze !== undefined && typeof freeze !== 'boolean')
				throw badRequest(`freeze must be a boolean (got ${JSON.stringify(freeze)})`);
			if (advanceMs !== undefined) clock.advance(advanceMs as number);
			if (freeze === true) clock.freeze();
			if (freeze === false) clock.unfreeze();
			return clock.state();
		});

	let latencyMs = options.latencyMs ?? 0;
	const faults = new FaultInjector();
	admin
		.add('GET', '/faults', () => faults.list())
		.add('POST', '/faults', async (ctx) => {
			const body = await ctx.json();
			for (const fault of Array.isArray(body) ? body : [body]) faults.add(fault as Fault);
			return faults.list();
		})
		.add('DELETE', '/faults', () => {
			faults.clear();
			return [];
		});

	const requests: RecordedRequest[] = [];
	const clearRequests = () => void requests.splice(0);
	const reset = () => {
		faults.clear();
		for (const module of modules) module.reset();
		clock.reset();
		clearRequests();
	};

	const server = http.createServer((req, res) => {
		// Prefixing keeps a path like `//x` a path instead of a protocol-relative host.
		const url = new URL(`http://sandbox${req.url ?? '/'}`);
		const admin = url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`);
		const handled = admin
			? handleAdmin(req, res, url.pathname, url.searchParams)
			: handleApi(req, res, url);
		handled.catch((error) => {
			console.error('[sandbox] unhandled error', error);
			if (!res.headersSent) res.writeHead(500).end();
		});
	});

	async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
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
		requests.push(record);
		if (latencyMs) await new Promise((resolve) => setTimeout(resolve, latencyMs));
		const fault = faults.take(record.method, record.path, record.query);
		if (fault && !fault.after) {
			if (fault.kind !== 'hang' && fault.kind !== 'reset') await body.drain();
			record.status =
				fault.kind === 'hang' || fault.kind === 'reset'
					? 0
					: fault.kind === 'rateLimit'
						? 429
						: fault.kind === 'redirect'
							? (fault.status ?? 302)
							: fault.kind === 'status'
								? (fault.status ?? 500)
								: 200;
			if (record.status) record.answeredAt = Date.now();
			faults.answer(fault, req, res, record.query, () => meta(clock.nowMs()));
			return;
		}

		let reply: Reply;
		try {
			checkAuth(req, apiKey);
			const match = router.match(record.method, record.path);
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
			// Applied, then its answer lost: the fault answers in place of the platform's reply.
			record.status =
				fault.kind === 'hang' || fault.kind === 'reset'
					? 0
					: fault.kind === 'rateLimit'
						? 429
						: fault.kind === 'status'
							? (fault.status ?? 500)
							: 200;
			if (record.status) record.answeredAt = Date.now();
			faults.answer(fault, req, res, record.query, () => meta(clock.nowMs()));
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

	async function handleAdmin(
		req: IncomingMessage,
		res: ServerResponse,
		path: string,
		searchParams: URLSearchParams,
	): Promise<void> {
		const route = `${req.method} ${path.replace(/\/$/, '')}`;
		if (route === `GET ${ADMIN_PREFIX}/health`)
			return sendJson(res, 200, { status: 'ok', ...urls });
		if (route === `GET ${ADMIN_PREFIX}/requests`) return sendJson(res, 200, requests);
		if (route === `DELETE ${ADMIN_PREFIX}/requests`) {
			const cleared = requests.length;
			clearRequests();
			return sendJson(res, 200, { cleared });
		}
		if (route === `POST ${ADMIN_PREFIX}/reset`) {
			reset();
			return sendJson(res, 200, { reset: true });
		}
		const file = route.startsWith(`GET ${ADMIN_PREFIX}/files/`)
			? route.slice(`GET ${ADMIN_PREFIX}/files/`.length)
			: '';
		const sample = Object.hasOwn(SAMPLE_FILES, file) ? SAMPLE_FILES[file] : undefined;
		if (sample) {
			res.writeHead(200, { 'content-type': sample.contentType });
			res.end(sample.body);
			return;
		}
		if (route === `GET ${ADMIN_PREFIX}/state`) {
			const state = lists.store
				.all()
				.map((list) => ({ ...list.toData(), subscribers: list.records() }));
			return sendJson(res, 200, {
				lists: state,
				walletTemplates: wallet.all(),
				walletPasses: wallet.allPasses(),
				blacklist: blacklist.all(),
				chatapp: {
					senders: chatapp.senders.all(),
					templates: chatapp.templates.all(),
					messages: chatapp.messages.all(),
					inbound: chatapp.messages.inboundMessages(),
					settings: chatapp.config(),
				},
				callbacks: chatapp.callbacks.all(),
				clock: clock.state(),
			});
		}
		const match = admin.match(req.method ?? 'GET', path.slice(ADMIN_PREFIX.length) || '/');
		if (match.kind !== 'found') {
			return sendJson(res, 404, {
				error: {
					status: 404,
					code: 'ROUTE_NOT_FOUND',
					message: `No such admin endpoint: ${route}`,
				},
			});
		}
		try {
			const answer = await match.handler({
				params: match.params,
				query: queryFrom(searchParams),
				json: () => readAdminJson(req),
			});
			sendJson(res, 200, answer ?? null);
		} catch (error) {
			const failure =
				error instanceof HttpError
					? error
					: new HttpError(
							500,
							'INTERNAL_ERROR',
							`Sandbox error: ${(error as Error)?.message ?? String(error)}`,
						);
			if (failure.status === 500) console.error('[sandbox] admin handler failed', error);
			sendJson(
				res,
				failure.status,
				{ error: { status: failure.status, code: failure.code, message: failure.message } },
				failure.headers,
			);
		}
	}

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	const host =
		!options.host || options.host === '0.0.0.0' || options.host === '::'
			? '127.0.0.1'
			: options.host;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	wallet.origin = url;
	const urls = {
		url,
		listsBaseUrl: `${url}/audience/v3`,
		walletBaseUrl: `${url}/wallet`,
		baseUrl: `${url}/messaging`,
	};

	return {
		...urls,
		apiKey,
		get requests() {
			return requests;
		},
		clearRequests,
		reset,
		addFault: (fault) => faults.add(fault),
		setLatency: (ms) => {
			latencyMs = ms;
		},
		clearFaults: () => faults.clear(),
		close: () =>
			new Promise<void>((resolve, reject) => {
				faults.clear();
				for (const module of modules) module.close?.();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
		getList: (id) => lists.store.get(id)?.toData(),
		allLists: () => lists.store.all().map((list) => list.toData()),
		listSubscribers: (id) => lists.store.get(id)?.records(),
		getSubscriber: (listId, subscriberId) => lists.store.get(listId)?.record(subscriberId),
		seedList: (input) => lists.createFromJson({ columns: [], rows: [], ...input }),
		walletTemplates: () => wallet.all(),
		seedTemplate: (input) => wallet.seed(input),
		walletPasses: (serial) => wallet.allPasses(serial),
		seedPass: (serial, recipientId, fields) => wallet.seedPass(serial, recipientId, fields),
		isBlacklisted: (from, type, to) => blacklist.isBlacklisted(from, type, to),
		blacklistEntries: () => blacklist.all(),
		seedBlacklist: (input) => blacklist.upsert(input),
		clock,
		advanceTime: (ms) => clock.advance(ms),
		seedSender: (input, opts) => chatapp.seedSender(input, opts),
		approveSender: (id, opts) => chatapp.approveSender(id, opts),
		senders: () => chatapp.senders.all(),
		seedMessageTemplate: (input) => chatapp.templates.seed(input),
		messageTemplates: () => chatapp.templates.all(),
		simulateInbound: (user, senderAddress) => chatapp.messages.receive(user, senderAddress),
		inboundMessages: () => chatapp.messages.inboundMessages(),
		messages: () => chatapp.messages.all(),
		callbackDeliveries: (messageId) => chatapp.callbacks.all(messageId),
		waitForCallbacks: (messageId, opts) =>
			chatapp.callbacks.waitForIdle(messageId, opts?.timeoutMs),
		waitForMedia: (messageId, opts) => chatapp.waitForMedia(messageId, opts?.timeoutMs),
		chatappSettings: () => chatapp.config(),
		configureChatapp: (settings) => chatapp.configure(settings),
	};
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

function sendJson(
	res: ServerResponse,
	status: number,
	payload: unknown,
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	const text = JSON.stringify(payload);
	res.writeHead(status, {
		...headers,
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(text),
	});
	res.end(text);
}

function sendFile(
	res: ServerResponse,
	status: number,
	file: { contentType: string; content: Buffer },
	headers: Record<string, string> = {},
): void {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, {
		...headers,
		'content-type': file.contentType,
		'content-length': file.content.length,
	});
	res.end(file.content);
}
