import { parseWaitBody, type AdminRouter } from './admin';
import { MESSAGING_PREFIX, type BlacklistModule } from './blacklist';
import { CallbackDispatcher, DEFAULT_CALLBACK_SETTINGS } from './callbacks';
import { isAbsent, noUnknownKeys, show } from './checks';
import type { MediaFetch } from './chatapp-media';
import { MediaFetcher } from './chatapp-media-fetcher';
import {
	DEFAULT_CALLBACK_STATUSES,
	MessageService,
	type QuotaExceededMode,
} from './chatapp-messages';
import { SenderStore, type ApproveOptions, type Sender, type SenderInput } from './chatapp-senders';
import { TemplateStore } from './chatapp-templates';
import type { SandboxClock } from './clock';
import { RATE_LIMIT_WINDOWS, type RateLimitWindow } from './rate-limit';
import { HttpError, badRequest, data, isPlainObject, queryValue } from './http';
import type { Router } from './router';

/**
 * Behaviour switches of the chat-app part: start options, CLI flags, admin config,
 * configureChatapp.
 */
export interface ChatappSettings {
	/**
	 * Over the daily quota: 'reject' (default) answers 429 QUOTA_EXCEEDED; 'status' accepts with
	 * status QUOTA_EXCEEDED.
	 */
	quotaExceeded: QuotaExceededMode;
	/** Normal status path, starting with QUEUE; default QUEUE, DEQUEUED, SENT, DELIVERED, READ. */
	callbackStatuses: string[];
	callbackDelayMs: number;
	callbackMaxAttempts: number;
	callbackRetryDelayMs: number;
	callbackTimeoutMs: number;
	/**
	 * Sandbox choice (spec: not shown): how a sender's rateLimit is counted: 'second' (default, per
	 * calendar second of the clock), 'sliding' (any 1,000 ms) or 'tokenBucket' (see rate-limit.tsx).
	 */
	rateLimitWindow: RateLimitWindow;
	/**
	 * Sandbox choice (spec: not shown): the token bucket's capacity; null (default) is the sender's
	 * rateLimit.
	 */
	rateLimitBurst: number | null;
	/**
	 * Sandbox choice (spec: not shown): false (default) never fetches media; true fetches the URL of
	 * every image, audio, video and document message accepted as QUEUE once, in the background, and
	 * records the outcome as the message's `media` (chatapp-media.tsx).
	 */
	mediaFetch: boolean;
}

export const DEFAULT_CHATAPP_SETTINGS: Readonly<ChatappSettings> = {
	quotaExceeded: 'reject',
	callbackStatuses: [...DEFAULT_CALLBACK_STATUSES],
	callbackDelayMs: DEFAULT_CALLBACK_SETTINGS.delayMs,
	callbackMaxAttempts: DEFAULT_CALLBACK_SETTINGS.maxAttempts,
	callbackRetryDelayMs: DEFAULT_CALLBACK_SETTINGS.retryDelayMs,
	callbackTimeoutMs: DEFAULT_CALLBACK_SETTINGS.timeoutMs,
	rateLimitWindow: 'second',
	rateLimitBurst: null,
	mediaFetch: false,
};

const SETTING_KEYS = Object.keys(DEFAULT_CHATAPP_SETTINGS) as (keyof ChatappSettings)[];
const MINIMUMS: Partial<Record<keyof ChatappSettings, number>> = {
	callbackDelayMs: 0,
	callbackMaxAttempts: 1,
	callbackRetryDelayMs: 0,
	callbackTimeoutMs: 1,
};

/**
 * `base` with the given keys replaced; 400 HttpError naming the bad one. Absent or undefined keys
 * keep `base`.
 */
export function mergeSettings(base: ChatappSettings, input: unknown): ChatappSettings {
	if (isAbsent(input)) return { ...base, callbackStatuses: [...base.callbackStatuses] };
	if (!isPlainObject(input)) throw badRequest('Chat-app settings must be an object');
	noUnknownKeys(input, SETTING_KEYS, 'Chat-app settings');
	const merged: ChatappSettings = { ...base, callbackStatuses: [...base.callbackStatuses] };
	const { quotaExceeded, callbackStatuses, rateLimitWindow, rateLimitBurst, mediaFetch } = input;
	if (quotaExceeded !== undefined) {
		if (quotaExceeded !== 'reject' && quotaExceeded !== 'status')
			throw badRequest(`quotaExceeded must be "reject" or "status" (got ${show(quotaExceeded)})`);
		merged.quotaExceeded = quotaExceeded;
	}
	if (callbackStatuses !== undefined) {
		const valid =
			Array.isArray(callbackStatuses) &&
			callbackStatuses.every((s) => typeof s === 'string' && /^[A-Z_]+$/.test(s));
		if (!valid || callbackStatuses[0] !== 'QUEUE') {
			throw badRequest(
				`callbackStatuses must be an array of status names (A-Z, _) starting with QUEUE (got ${show(callbackStatuses)})`,
			);
		}
		merged.callbackStatuses = [...(callbackStatuses as string[])];
	}
	if (rateLimitWindow !== undefined) {
		if (!RATE_LIMIT_WINDOWS.includes(rateLimitWindow as RateLimitWindow)) {
			throw badRequest(
				`rateLimitWindow must be one of ${RATE_LIMIT_WINDOWS.map((w) => `"${w}"`).join(', ')} (got ${show(rateLimitWindow)})`,
			);
		}
		merged.rateLimitWindow = rateLimitWindow as RateLimitWindow;
	}
	if (rateLimitBurst !== undefined) {
		if (
			rateLimitBurst !== null &&
			(typeof rateLimitBurst !== 'number' ||
				!Number.isInteger(rateLimitBurst) ||
				rateLimitBurst < 1)
		) {
			throw badRequest(
				`rateLimitBurst must be an integer >= 1, or null for the sender's rateLimit (got ${show(rateLimitBurst)})`,
			);
		}
		merged.rateLimitBurst = rateLimitBurst;
	}
	if (mediaFetch !== undefined) {
		if (typeof mediaFetch !== 'boolean')
			throw badRequest(`mediaFetch must be a boolean (got ${show(mediaFetch)})`);
		merged.mediaFetch = mediaFetch;
	}
	for (const [key, min] of Object.entries(MINIMUMS) as [keyof ChatappSettings, number][]) {
		const value = input[key];
		if (value === undefined) continue;
		if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
			throw badRequest(`${key} must be an integer >= ${min} (got ${show(value)})`);
		(merged as unknown as Record<string, number>)[key] = value;
	}
	return merged;
}

/** Chat-app senders, message templates and regular messages under `${url}/messaging`. */
export class ChatappModule {
	readonly senders: SenderStore;
	readonly templates: TemplateStore;
	readonly messages: MessageService;
	readonly callbacks: CallbackDispatcher;
	readonly media: MediaFetcher;
	private readonly initial: ChatappSettings;
	private settings: ChatappSettings;

	/** Throws HttpError (400) on invalid settings. */
	constructor(
		clock: SandboxClock,
		blacklist: BlacklistModule,
		settings: Partial<ChatappSettings> = {},
	) {
		this.initial = mergeSettings(DEFAULT_CHATAPP_SETTINGS, settings);
		this.settings = mergeSettings(this.initial, undefined);
		this.senders = new SenderStore(clock);
		this.templates = new TemplateStore(this.senders);
		this.callbacks = new CallbackDispatcher(clock, () => ({
			delayMs: this.settings.callbackDelayMs,
			maxAttempts: this.settings.callbackMaxAttempts,
			retryDelayMs: this.settings.callbackRetryDelayMs,
			timeoutMs: this.settings.callbackTimeoutMs,
		}));
		this.media = new MediaFetcher(clock, () => this.settings.callbackTimeoutMs);
		this.messages = new MessageService(
			clock,
			this.senders,
			blacklist,
			this.callbacks,
			this.media,
			() => this.settings,
		);
	}

	register(router: Router): void {
		const base = `${MESSAGING_PREFIX}/chatapp`;
		router
			.add('POST', `${base}/senders`, async (ctx) =>
				data(this.senders.create(await ctx.body.json())),
			)
			.add('GET', `${base}/senders/:id`, (ctx) => data({ ...this.senders.require(ctx.params.id) }))
			.add('GET', `${base}/templates`, (ctx) => ({
				status: 200,
				body: { items: this.templates.list(ctx.query) },
			}))
			.add('POST', `${base}/messages`, async (ctx) =>
				data(this.messages.send(await ctx.body.json())),
			);
	}

	registerAdmin(admin: AdminRouter): void {
		admin
			.add('GET', '/chatapp/senders', () => this.senders.all())
			.add('POST', '/chatapp/senders', async (ctx) => {
				const body = await ctx.json();
				if (!isPlainObject(body))
					throw badRequest(
						'Body must be a JSON object with providerId, name, address, accountTier (and active)',
					);
				const { active, id, ...input } = body;
				if (active !== undefined && typeof active !== 'boolean')
					throw badRequest(`active must be a boolean (got ${show(active)})`);
				if (id !== undefined && (typeof id !== 'string' || !/^snd_[0-9a-z]{1,32}$/.test(id)))
					throw badRequest(`id must be "snd_" then letters or digits (got ${show(id)})`);
				return this.seedSender(input, { active, id });
			})
			.add('POST', '/chatapp/senders/:id/approve', async (ctx) =>
				this.senders.approve(ctx.params.id, await ctx.json()),
			)
			.add('GET', '/chatapp/templates', () => this.templates.all())
			.add('POST', '/chatapp/templates', async (ctx) => this.templates.seed(await ctx.json()))
			.add('POST', '/chatapp/inbound', async (ctx) => {
				const body = await ctx.json();
				if (!isPlainObject(body))
					throw badRequest(
						'Body must be a JSON object { from: "+<user E.164>", to: "<sender address>" }',
					);
				return this.messages.receive(body.from, body.to);
			})
			.add('GET', '/chatapp/messages', () => this.messages.all())
			.add('GET', '/chatapp/config', () => this.config())
			.add('POST', '/chatapp/config', async (ctx) => this.configure(await ctx.json()))
			.add('GET', '/callbacks', (ctx) =>
				this.callbacks.all(queryValue(ctx.query, 'messageId') || undefined),
			)
			.add('POST', '/callbacks/wait', async (ctx) => {
				const { messageId, timeoutMs } = parseWaitBody(await ctx.json());
				try {
					return { done: true, deliveries: await this.callbacks.waitForIdle(messageId, timeoutMs) };
				} catch (error) {
					throw new HttpError(408, 'WAIT_TIMEOUT', (error as Error).message);
				}
			})
			.add('POST', '/chatapp/media/wait', async (ctx) => {
				const { messageId, timeoutMs } = parseWaitBody(await ctx.json());
				try {
					return { done: true, media: await this.waitForMedia(messageId, timeoutMs) };
				} catch (error) {
					throw new HttpError(408, 'WAIT_TIMEOUT', (error as Error).message);
				}
			});
	}

	/**
	 * POST /chatapp/senders rules without HTTP; `active` approves it at once with the default
	 * settings; `id` gives it that id instead of a random one.
	 */
	seedSender(
		input: SenderInput | Record<string, unknown>,
		options: { active?: boolean; id?: string } = {},
	): Sender {
		const sender = this.senders.create(input, options.id);
		return options.active ? this.senders.approve(sender.id) : sender;
	}

	approveSender(id: string, options?: ApproveOptions): Sender {
		return this.senders.approve(id, options);
	}

	config(): ChatappSettings {
		return mergeSettings(this.settings, undefined);
	}

	/** Changes settings until the next reset(); answers the full settings. */
	configure(input: unknown): ChatappSettings {
		this.settings = mergeSettings(this.settings, input);
		return this.config();
	}

	/** The media records (of `messageId`, or all) once no media fetch is pending. */
	waitForMedia(messageId?: string, timeoutMs = 10_000): Promise<MediaFetch[]> {
		return this.media.waitForIdle(messageId, timeoutMs, () => this.messages.all());
	}

	/**
	 * Clears senders, templates, messages, windows, counters and deliveries; settings back to the
	 * start ones.
	 */
	reset(): void {
		this.media.stop();
		this.callbacks.reset();
		this.messages.reset();
		this.templates.reset();
		this.senders.reset();
		this.settings = mergeSettings(this.initial, undefined);
	}

	/** Stops status steps, deliveries, retry timers and media fetches at once. */
	close(): void {
		this.media.stop();
		this.callbacks.stop();
	}
}
