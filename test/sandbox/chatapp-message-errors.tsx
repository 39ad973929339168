/** The errors that refuse a chat-app message: unknown or inactive sender, closed window, limits. */
import type { Sender } from './chatapp-senders';
import { HttpError } from './http';
import { SLIDING_WINDOW_MS, retryAfterSeconds, type RateLimitContext } from './rate-limit';

/**
 * Sandbox choice (spec: not shown): a sender's rateLimit counts accepted messages per second of the
 * sandbox clock (rateLimitWindow 'second', the default); one more is 429 RATE_LIMITED with this
 * Retry-After, in seconds. The other windows (rate-limit.tsx) answer the wait rounded up, at least
 * 1.
 */
export const RATE_LIMIT_RETRY_AFTER_S = 1;

/** 404 UNKNOWN_SENDER: no sender has this address. */
export const unknownSender = (address: string) =>
	new HttpError(
		404,
		'UNKNOWN_SENDER',
		`No sender with address ${address}: create one with POST /chatapp/senders (from must be its address, digits only)`,
	);

/** 403 SENDER_NOT_ACTIVE: the sender is not ACTIVE. */
export const senderNotActive = (sender: Sender, from: string) =>
	new HttpError(
		403,
		'SENDER_NOT_ACTIVE',
		`Sender ${sender.id} (${from}) is ${sender.state}: it can send messages once the chat-app provider approves the account, which takes about 48 hours`,
	);

/** 403 OUTSIDE_CONVERSATION_WINDOW: the user `to` wrote no message in the last 24 hours. */
export const outsideWindow = (to: string) =>
	new HttpError(
		403,
		'OUTSIDE_CONVERSATION_WINDOW',
		`No message from ${to} in the last 24 hours: outside the conversation window a pre-approved template message is required`,
	);

/** 429 RATE_LIMITED; Retry-After is the wait in seconds, rounded up, at least 1. */
export function rateLimited(from: string, limit: RateLimitContext, waitMs: number): HttpError {
	if (limit.window === 'second') {
		return new HttpError(
			429,
			'RATE_LIMITED',
			`Sender ${from} exceeded its rate limit of ${limit.rateLimit} messages per second; retry after ${RATE_LIMIT_RETRY_AFTER_S} second`,
			{ 'retry-after': String(RATE_LIMIT_RETRY_AFTER_S) },
		);
	}
	const seconds = retryAfterSeconds(waitMs);
	const retry = `retry after ${seconds} second${seconds === 1 ? '' : 's'}`;
	const ms = Math.ceil(waitMs);
	const message =
		limit.window === 'sliding'
			? `Sender ${from} exceeded its rate limit of ${limit.rateLimit} messages in any ${SLIDING_WINDOW_MS} ms (sliding window); a slot frees in ${ms} ms, ${retry}`
			: `Sender ${from} exceeded its rate limit of ${limit.rateLimit} messages per second (token bucket of ${limit.burst ?? limit.rateLimit}, empty); the next token comes in ${ms} ms, ${retry}`;
	return new HttpError(429, 'RATE_LIMITED', message, { 'retry-after': String(seconds) });
}

/**
 * 429 QUOTA_EXCEEDED: `to` would be a new recipient of UTC day `day` over the sender's daily quota;
 * Retry-After until 00:00 UTC of the clock (`nowMs`).
 */
export function quotaExceeded(
	sender: Sender,
	from: string,
	to: string,
	day: string,
	nowMs: number,
): HttpError {
	const retryAfter = secondsUntilNextUtcDay(nowMs);
	return new HttpError(
		429,
		'QUOTA_EXCEEDED',
		`Sender ${from} reached its daily quota of ${sender.dailyQuota} unique recipients for ${day} (UTC) and ${to} would be a new one; retry after 00:00 UTC (in ${retryAfter} s)`,
		{ 'retry-after': String(retryAfter) },
	);
}

/** Whole seconds until the next 00:00 UTC of the clock, at least 1. */
export function secondsUntilNextUtcDay(nowMs: number): number {
	const next = new Date(nowMs);
	next.setUTCHours(24, 0, 0, 0);
	return Math.max(1, Math.ceil((next.getTime() - nowMs) / 1000));
}
