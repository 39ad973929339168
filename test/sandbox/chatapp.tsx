/** The chat-app module: its routes and admin routes, settings, seeding, reset and close. */
import { parseWaitBody, type AdminRouter } from './admin';
import { MESSAGING_PREFIX, type BlacklistModule } from './blacklist';
import { CallbackDispatcher } from './callbacks';
import { show } from './checks';
import type { MediaFetch } from './chatapp-media';
import { MediaFetcher } from './chatapp-media-fetcher';
import { MessageService } from './chatapp-messages';
import { SenderStore, type ApproveOptions, type Sender, type SenderInput } from './chatapp-senders';
import { DEFAULT_CHATAPP_SETTINGS, mergeSettings, type ChatappSettings } from './chatapp-settings';
import { TemplateStore } from './chatapp-templates';
import type { SandboxClock } from './clock';
import { HttpError, badRequest, data, isPlainObject, queryValue } from './http';
import type { Router } from './router';

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
