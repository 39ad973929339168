/** The sandbox's core: wires the modules, admin clock and faults, listens, answers `Sandbox`. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminRouter } from './admin';
import { ADMIN_PREFIX, handleAdmin, type AdminHandlerDeps } from './admin-handler';
import { handleApi, type ApiHandlerDeps } from './api-handler';
import { badRequest, isPlainObject } from './http';
import { BlacklistModule } from './blacklist';
import { ChatappModule } from './chatapp';
import { SandboxClock } from './clock';
import { ListsModule } from './lists';
import { Router } from './router';
import { scriptedCompletion } from './scripted-model';
import type { RecordedRequest, Sandbox, SandboxOptions } from './types';
import { WalletModule } from './wallet';
import { FaultInjector } from './faults';
import type { Fault } from './faults';
import { frontPage } from './front-page';

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

	const apiDeps: ApiHandlerDeps = {
		apiKey,
		router,
		faults,
		clock,
		requests,
		latencyMs: () => latencyMs,
	};
	const adminDeps: AdminHandlerDeps = {
		admin,
		requests,
		clearRequests,
		reset,
		urls: () => urls,
		state: () => ({
			lists: lists.store.all().map((list) => ({ ...list.toData(), subscribers: list.records() })),
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
		}),
	};
	const server = http.createServer((req, res) => {
		// Prefixing keeps a path like `//x` a path instead of a protocol-relative host.
		const url = new URL(`http://sandbox${req.url ?? '/'}`);
		const admin = url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`);
		// Its address opened in a browser: a page saying what it is, not the API's 401.
		if (url.pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
			res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(frontPage(urls));
			return;
		}
		const handled = admin
			? handleAdmin(req, res, url.pathname, url.searchParams, adminDeps)
			: handleApi(req, res, url, apiDeps);
		handled.catch((error) => {
			console.error('[sandbox] unhandled error', error);
			if (!res.headersSent) res.writeHead(500).end();
		});
	});

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
