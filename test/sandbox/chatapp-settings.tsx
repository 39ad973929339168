/** The chat-app settings: their defaults, and merging a change into them with its 400s. */
import { DEFAULT_CALLBACK_SETTINGS } from './callback-types';
import { isAbsent, noUnknownKeys, show } from './checks';
import { DEFAULT_CALLBACK_STATUSES } from './chatapp-message-records';
import type { QuotaExceededMode } from './chatapp-messages';
import { RATE_LIMIT_WINDOWS, type RateLimitWindow } from './rate-limit';
import { badRequest, isPlainObject } from './http';

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
