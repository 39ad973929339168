/** The public shapes: the `Sandbox` handle, its start options, the recorded requests. */
import type { ListData, SubscriberRecord } from './list-store';
import type { ListInput } from './lists';
import type { BlacklistEntry, BlacklistInput } from './blacklist';
import type { CallbackDelivery } from './callback-types';
import type { ChatappSettings } from './chatapp-settings';
import type { MediaFetch } from './chatapp-media';
import type { ChatappMessage, InboundMessage } from './chatapp-message-records';
import type { QuotaExceededMode } from './chatapp-messages';
import type { ApproveOptions, Sender, SenderInput } from './chatapp-senders';
import type { MessageTemplate, MessageTemplateInput } from './chatapp-templates';
import type { SandboxClock } from './clock';
import type { WalletTemplate, WalletTemplateInput } from './wallet-templates';
import type { PassField, WalletPass } from './wallet-passes';
import type { Fault } from './faults';
import type { RateLimitWindow } from './rate-limit';

export interface SandboxOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	/** Default 'sandbox-key'. */
	apiKey?: string;
	/** Maximum csvFile size in bytes; default 200 MB. */
	csvMaxBytes?: number;
	/** Interface to listen on; default 127.0.0.1 (loopback). */
	host?: string;
	/**
	 * Wallet templates present at start and after every reset(); default DEFAULT_TEMPLATES (3 member
	 * cards).
	 */
	templates?: WalletTemplateInput[];
	/**
	 * Chat-app daily quota exceeded: 'reject' (default, 429 QUOTA_EXCEEDED) or 'status' (accepted,
	 * status QUOTA_EXCEEDED).
	 */
	quotaExceeded?: QuotaExceededMode;
	/**
	 * Normal status path of a chat-app message, starting with QUEUE; default QUEUE, DEQUEUED, SENT,
	 * DELIVERED, READ.
	 */
	callbackStatuses?: string[];
	/** Real ms between two status steps / two events to one URL; default 20. */
	callbackDelayMs?: number;
	/** Attempts per event and URL; default 5. */
	callbackMaxAttempts?: number;
	/** Real ms before the first retry, doubling; default 200. */
	callbackRetryDelayMs?: number;
	/** Real ms an attempt may wait for an answer; default 5000. */
	callbackTimeoutMs?: number;
	/**
	 * How a chat-app sender's rateLimit is counted: 'second' (default: per calendar second of the
	 * clock), 'sliding' (any 1,000 ms ending now) or 'tokenBucket' (capacity rateLimitBurst, refilled
	 * at rateLimit per second).
	 */
	rateLimitWindow?: RateLimitWindow;
	/** Token bucket capacity (integer >= 1); default null: the sender's rateLimit. */
	rateLimitBurst?: number | null;
	/**
	 * Fetch the URL of every accepted (QUEUE) image, audio, video and document message once, in the
	 * background, recording the outcome as the message's `media`; default false.
	 */
	mediaFetch?: boolean;
	/** Real ms every API request waits before it is handled, like a platform far away; default 0. */
	latencyMs?: number;
}

export interface RecordedPart {
	name: string;
	filename?: string;
	contentType?: string;
	size: number;
	/** UTF-8 text of the part when it is under 1 MB. */
	text?: string;
}

export interface RecordedRequest {
	method: string;
	/** Full path without the query string. */
	path: string;
	query: Record<string, string | string[]>;
	/** Lowercased header names; repeated headers joined with ', '. */
	headers: Record<string, string>;
	/** Media type of the body without parameters, lowercased (e.g. 'multipart/form-data'). */
	contentType?: string;
	/** Parsed JSON when the body is JSON and valid. */
	body?: unknown;
	/** Text bodies (JSON, text/*, XML, urlencoded) under 1 MB. */
	rawBody?: string;
	/** multipart/form-data parts, in order. */
	parts?: RecordedPart[];
	/** Bytes of body received. */
	bodySize: number;
	/** Status the sandbox answered (0 while still in flight). */
	status: number;
	/** When the request arrived (Date.now(), real clock). */
	receivedAt: number;
	/**
	 * When the sandbox sent its answer (Date.now()); unset while in flight or when it never answers.
	 */
	answeredAt?: number;
}

export interface Sandbox {
	url: string;
	listsBaseUrl: string;
	walletBaseUrl: string;
	baseUrl: string;
	apiKey: string;
	/** Platform misbehaviour for the requests it matches (see faults.tsx); reset() clears them. */
	addFault(fault: Fault): void;
	clearFaults(): void;
	/** Changes the latencyMs start option for the requests that follow. */
	setLatency(ms: number): void;
	/** Every non-admin request received, in arrival order (live array). */
	readonly requests: RecordedRequest[];
	clearRequests(): void;
	/** Clears all state (list ids restart at 1) and recorded requests. */
	reset(): void;
	close(): Promise<void>;
	/** The list as GET /lists/{id} would return it, or undefined. */
	getList(id: number): ListData | undefined;
	allLists(): ListData[];
	/**
	 * Subscriber records of a list as GET .../subscribers returns them, or undefined for an unknown
	 * list.
	 */
	listSubscribers(id: number): SubscriberRecord[] | undefined;
	getSubscriber(listId: number, subscriberId: string): SubscriberRecord | undefined;
	/** Creates a list directly, with the rules of POST /lists (JSON); throws on invalid input. */
	seedList(input: ListInput): ListData;
	/**
	 * Wallet templates in stored (seed) order, as GET /v2/wallet/templates returns them without
	 * sort/select.
	 */
	walletTemplates(): WalletTemplate[];
	/**
	 * Adds a wallet template until the next reset(); throws HttpError on invalid input or a duplicate
	 * serial.
	 */
	seedTemplate(input: WalletTemplateInput): WalletTemplate;
	/**
	 * Stored wallet passes (fields exactly as received) in creation order; only those of `serial`
	 * when given.
	 */
	walletPasses(serial?: string): WalletPass[];
	/**
	 * Creates a pass without HTTP and without recording (field rules of the batch request, default no
	 * fields); throws HttpError on an unknown template (404), invalid input, an unknown place or a
	 * recipient that already has a pass of the template (400).
	 */
	seedPass(serial: string, recipientId: string, fields?: PassField[]): WalletPass;
	/**
	 * Whether `to` is on the blacklist of sender `from` for channel `type` (e-mails
	 * case-insensitive).
	 */
	isBlacklisted(from: string, type: string, to: string): boolean;
	/** Every blacklist entry of every sender, in insertion order. */
	blacklistEntries(): BlacklistEntry[];
	/**
	 * POST /subscribers (blacklist) rules without HTTP and without recording; throws HttpError on
	 * invalid input.
	 */
	seedBlacklist(input: BlacklistInput): BlacklistEntry;

	/**
	 * The sandbox clock every chat-app time rule and date (and meta.timestamp, blacklist dates)
	 * reads.
	 */
	readonly clock: SandboxClock;
	/** Moves the sandbox clock forward by `ms`; answers the new time. */
	advanceTime(ms: number): Date;
	/**
	 * POST /chatapp/senders rules without HTTP; `active: true` approves it at once (default
	 * settings).
	 */
	seedSender(input: SenderInput, options?: { active?: boolean; id?: string }): Sender;
	/**
	 * PENDING_IMPLEMENTATION → ACTIVE (again allowed); throws HttpError 404 for an unknown id, 400
	 * for bad options.
	 */
	approveSender(id: string, options?: ApproveOptions): Sender;
	senders(): Sender[];
	/** Adds a message template until the next reset(); throws HttpError on invalid input. */
	seedMessageTemplate(input: MessageTemplateInput): MessageTemplate;
	messageTemplates(): MessageTemplate[];
	/**
	 * Records a message from `user` (E.164) to the sender at `senderAddress` (digits, `+` allowed),
	 * opening 24 h of conversation window.
	 */
	simulateInbound(user: string, senderAddress: string): InboundMessage;
	inboundMessages(): InboundMessage[];
	/** Accepted chat-app messages (request body, status history), in acceptance order. */
	messages(): ChatappMessage[];
	/** Every callback delivery attempt, in attempt order (only those of `messageId` when given). */
	callbackDeliveries(messageId?: string): CallbackDelivery[];
	/**
	 * Resolves with the attempts (of `messageId`, or all) once no status step or delivery is pending;
	 * rejects after `timeoutMs` (default 10000).
	 */
	waitForCallbacks(
		messageId?: string,
		options?: { timeoutMs?: number },
	): Promise<CallbackDelivery[]>;
	/**
	 * Resolves with the media records (of `messageId`, or of every message that has one, in
	 * acceptance order) once no media fetch is pending; rejects after `timeoutMs` (default 10000).
	 * reset() and close() abort pending fetches, which resolves it.
	 */
	waitForMedia(messageId?: string, options?: { timeoutMs?: number }): Promise<MediaFetch[]>;
	chatappSettings(): ChatappSettings;
	/** Changes chat-app settings until the next reset(); throws HttpError on an invalid one. */
	configureChatapp(settings: Partial<ChatappSettings>): ChatappSettings;
}
