/** Sending chat-app messages: sender state, conversation windows, rate limits, quotas, storage. */
import { randomBytes } from 'node:crypto';
import type { BlacklistModule } from './blacklist';
import type { StatusEntry } from './callback-types';
import type { CallbackDispatcher } from './callbacks';
import { E164, PHONE, PHONE_DIGITS_RULE, digitsOnly, requiredString, show } from './checks';
import type { MediaFetcher } from './chatapp-media-fetcher';
import {
	outsideWindow,
	quotaExceeded,
	rateLimited,
	senderNotActive,
	unknownSender,
} from './chatapp-message-errors';
import { isMediaType } from './chatapp-message-limits';
import type {
	AcceptedStatus,
	ChatappMessage,
	InboundMessage,
	MessageAccepted,
} from './chatapp-message-records';
import type { SenderStore } from './chatapp-senders';
import { parseMessage } from './chatapp-validation';
import type { SandboxClock } from './clock';
import { badRequest } from './http';
import { RateLimiter, type RateLimitContext, type RateLimitWindow } from './rate-limit';

/** The conversation window (spec §1.4, §8). */
export const CONVERSATION_WINDOW_MS = 24 * 60 * 60 * 1000;

export type QuotaExceededMode = 'reject' | 'status';

export interface MessageRules {
	quotaExceeded: QuotaExceededMode;
	callbackStatuses: string[];
	rateLimitWindow: RateLimitWindow;
	rateLimitBurst: number | null;
	mediaFetch: boolean;
}

/**
 * Regular chat-app messages: sender rules, conversation windows, rate limits, daily quotas,
 * storage.
 */
export class MessageService {
	private messages: ChatappMessage[] = [];
	private inbound: InboundMessage[] = [];
	/** Key [sender digits, user] → clock ms of the user's last message. */
	private readonly windows = new Map<string, number>();
	/** Sender id → accepted messages, counted as the rateLimitWindow rule says. */
	private readonly rates = new RateLimiter();
	/** Sender id → unique recipients of the current UTC day. */
	private readonly quotas = new Map<string, { day: string; recipients: Set<string> }>();

	constructor(
		private readonly clock: SandboxClock,
		private readonly senders: SenderStore,
		private readonly blacklist: BlacklistModule,
		private readonly dispatcher: CallbackDispatcher,
		private readonly media: MediaFetcher,
		private readonly rules: () => MessageRules,
	) {}

	reset(): void {
		this.messages = [];
		this.inbound = [];
		this.windows.clear();
		this.rates.reset();
		this.quotas.clear();
	}

	all(): ChatappMessage[] {
		return this.messages.map((m) => structuredClone(m));
	}

	inboundMessages(): InboundMessage[] {
		return this.inbound.map((m) => ({ ...m }));
	}

	/**
	 * Records a message from `user` (E.164) to the sender at `senderAddress`, opening a 24-hour
	 * window.
	 */
	receive(user: unknown, senderAddress: unknown): InboundMessage {
		const from = requiredString(user, 'from', ' (the user, E.164)');
		if (!E164.test(from))
			throw badRequest(
				`from must be an E.164 phone number: "+" then ${PHONE_DIGITS_RULE}, no spaces (got ${show(from)})`,
			);
		const to = requiredString(senderAddress, 'to', ' (the sender address)');
		if (!PHONE.test(to))
			throw badRequest(
				`to must be a sender address: an optional "+" then ${PHONE_DIGITS_RULE} (got ${show(to)})`,
			);
		const digits = digitsOnly(to);
		if (!this.senders.byAddress(digits)) throw unknownSender(digits);
		const now = this.clock.nowMs();
		this.windows.set(windowKey(digits, from), now);
		const message = {
			from,
			to: digits,
			date: new Date(now).toISOString(),
			windowExpiresAt: new Date(now + CONVERSATION_WINDOW_MS).toISOString(),
		};
		this.inbound.push(message);
		return { ...message };
	}

	/**
	 * POST /chatapp/messages: body checks (400), then unknown sender (404), sender not ACTIVE (403),
	 * conversation window (403), rate limit (429), blacklist (accepted as BLACKLISTED), daily
	 * quota (429, or accepted as QUOTA_EXCEEDED).
	 */
	send(body: unknown): MessageAccepted {
		const parsed = parseMessage(body);
		const { from, to } = parsed;
		const sender = this.senders.byAddress(from);
		if (!sender) throw unknownSender(from);
		// Sandbox choice (spec: not shown): a sender not ACTIVE is 403 SENDER_NOT_ACTIVE.
		if (sender.state !== 'ACTIVE') throw senderNotActive(sender, from);
		const now = this.clock.nowMs();
		// Sandbox choice (spec: not shown): the window is per (sender, user) and closed at exactly
		// 24 h; outside it, 403 OUTSIDE_CONVERSATION_WINDOW (template messages are not emulated).
		const opened = this.windows.get(windowKey(from, to));
		if (opened === undefined || now - opened >= CONVERSATION_WINDOW_MS) throw outsideWindow(to);
		const rules = this.rules();
		const limit: RateLimitContext = {
			rateLimit: sender.rateLimit,
			window: rules.rateLimitWindow,
			burst: rules.rateLimitBurst,
		};
		const waitMs = this.rates.waitMs(sender.id, now, limit);
		if (waitMs > 0) throw rateLimited(from, limit, waitMs);

		// Sandbox choice (spec: not shown): a blacklisted recipient's message is accepted with
		// status BLACKLISTED and not sent; over the daily quota (unique recipients per UTC day of
		// the clock) a new recipient is 429 QUOTA_EXCEEDED with Retry-After until 00:00 UTC, or
		// accepted as QUOTA_EXCEEDED.
		let status: AcceptedStatus = 'QUEUE';
		if (this.blacklist.isChatappBlacklisted(from, to)) status = 'BLACKLISTED';
		else {
			const day = new Date(now).toISOString().slice(0, 10);
			let quota = this.quotas.get(sender.id);
			if (!quota || quota.day !== day)
				this.quotas.set(sender.id, (quota = { day, recipients: new Set() }));
			if (!quota.recipients.has(to) && quota.recipients.size >= sender.dailyQuota) {
				if (this.rules().quotaExceeded === 'reject')
					throw quotaExceeded(sender, from, to, day, now);
				status = 'QUOTA_EXCEEDED';
			} else quota.recipients.add(to);
		}
		// Only accepted messages take a slot (BLACKLISTED and QUOTA_EXCEEDED ones included).
		this.rates.record(sender.id, now, limit);

		const date = new Date(now).toISOString();
		const history: StatusEntry[] =
			status === 'QUEUE'
				? [{ status, date }]
				: [
						{ status: 'QUEUE', date },
						{ status, date },
					];
		const message: ChatappMessage = {
			id: `msg_${randomBytes(8).toString('hex')}`,
			senderId: sender.id,
			from,
			to,
			type: parsed.type,
			externalId: parsed.externalId ?? null,
			callbacks: parsed.callbacks,
			status,
			history,
			createdAt: date,
			request: structuredClone(body),
			media: null,
		};
		this.messages.push(message);
		// Sandbox choice (spec: not shown): with mediaFetch on, a media message accepted as QUEUE has
		// its URL fetched once in the background (chatapp-media.tsx); the answer does not wait for it
		// and its outcome changes neither the status path nor the callbacks.
		if (rules.mediaFetch && status === 'QUEUE' && isMediaType(parsed.type)) {
			const url = (body as { body: string }).body.trim();
			this.media.start(message.id, parsed.type, url, (media) => (message.media = media));
		}
		const later = status === 'QUEUE' ? this.rules().callbackStatuses.slice(1) : [];
		this.dispatcher.track(message, history, later, (entry) => {
			message.history.push(entry);
			message.status = entry.status;
		});
		return {
			id: message.id,
			status,
			from,
			to,
			type: parsed.type,
			...(parsed.externalId !== undefined && { externalId: parsed.externalId }),
		};
	}
}

const windowKey = (senderDigits: string, user: string) => JSON.stringify([senderDigits, user]);
