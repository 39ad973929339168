/** The blacklist service: blocked numbers per sender and type, and their routes. */
import { randomUUID } from 'node:crypto';
import { E164, PHONE_DIGITS_RULE } from './checks';
import {
	badRequest,
	data,
	isPlainObject,
	notFound,
	queryValue,
	type Query,
	type Reply,
} from './http';
import type { RequestContext, Router } from './router';
import type { SandboxClock } from './clock';

export const MESSAGING_PREFIX = '/messaging';

export const BLACKLIST_TYPES = ['SMS', 'EMAIL', 'CHATAPP', 'RCS'] as const;
export type BlacklistType = (typeof BLACKLIST_TYPES)[number];
export const LIST_TYPES = ['BLACK'] as const;

/** What POST /subscribers answers in `data`. */
export interface BlacklistEntryData {
	id: string;
	to: string;
	reason: string;
	/**
	 * ISO 8601 UTC with milliseconds and `Z`: when the recipient was first blacklisted by this
	 * sender.
	 */
	date: string;
}

/** What GET /subscribers answers in `data`, and what blacklistEntries() returns. */
export interface BlacklistEntry extends BlacklistEntryData {
	type: BlacklistType;
	from: string;
	listType: 'BLACK';
}

/** Body of POST /subscribers, also the input of Sandbox.seedBlacklist. */
export interface BlacklistInput {
	to: string;
	reason: string;
	type: string;
	from: string;
	listType?: string;
}

/** Sandbox choice (spec: not shown): what an e-mail address is (local@domain.tld, no spaces). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Per-sender blacklists: one entry per (from, type, to); e-mail addresses match case-insensitively.
 */
export class BlacklistModule {
	private readonly entries = new Map<string, BlacklistEntry>();

	/** Entry dates come from the sandbox clock when one is given. */
	constructor(private readonly clock?: SandboxClock) {}

	register(router: Router): void {
		router
			.add('POST', `${MESSAGING_PREFIX}/subscribers`, (ctx) => this.add(ctx))
			.add('GET', `${MESSAGING_PREFIX}/subscribers`, (ctx) => this.find(ctx));
	}

	reset(): void {
		this.entries.clear();
	}

	/**
	 * POST /subscribers rules without HTTP. Sandbox choice (spec: not shown): adding an existing
	 * (from, type, to) again keeps its id, `to` and date and replaces the reason; fields blank
	 * after trimming are refused.
	 */
	upsert(body: unknown): BlacklistEntry {
		if (!isPlainObject(body))
			throw badRequest('Body must be a JSON object with to, reason, type and from');
		for (const field of ['to', 'reason', 'type', 'from'] as const) {
			const value = body[field];
			if (value === undefined || value === null || value === '')
				throw badRequest(`${field} is required`);
			if (typeof value !== 'string')
				throw badRequest(`${field} must be a string (got ${JSON.stringify(value)})`);
			if (value.trim() === '') throw badRequest(`${field} must not be blank`);
		}
		const { to, reason, from } = body as Record<'to' | 'reason' | 'from', string>;
		const type = checkType(body.type as string);
		if (body.listType !== undefined && body.listType !== null) checkListType(body.listType);
		checkRecipient(type, to);

		const key = entryKey(from, type, to);
		const existing = this.entries.get(key);
		if (existing) {
			existing.reason = reason;
			return { ...existing };
		}
		const entry: BlacklistEntry = {
			id: randomUUID(),
			to,
			reason,
			date: (this.clock?.now() ?? new Date()).toISOString(),
			type,
			from,
			listType: 'BLACK',
		};
		this.entries.set(key, entry);
		return { ...entry };
	}

	isBlacklisted(from: string, type: string, to: string): boolean {
		return this.entries.has(entryKey(from, type, to));
	}

	/**
	 * Whether a chat-app message from the sender with these digits to `to` is stopped.
	 * Sandbox choice (spec: not shown): a CHATAPP entry whose `from` is the same number once `+`,
	 * spaces, dots, dashes and parentheses are dropped (`+15550100` and `15550100` match), and
	 * whose `to` is exactly `to`.
	 */
	isChatappBlacklisted(senderDigits: string, to: string): boolean {
		for (const entry of this.entries.values()) {
			if (
				entry.type === 'CHATAPP' &&
				entry.to === to &&
				entry.from.replace(/[\s().+-]/g, '') === senderDigits
			)
				return true;
		}
		return false;
	}

	all(): BlacklistEntry[] {
		return [...this.entries.values()].map((entry) => ({ ...entry }));
	}

	private async add(ctx: RequestContext): Promise<Reply> {
		const { id, to, reason, date } = this.upsert(await ctx.body.json());
		return data({ id, to, reason, date });
	}

	private find(ctx: RequestContext): Reply {
		const param = (name: string) => requiredQuery(ctx.query, name);
		const type = checkType(param('type'));
		const from = param('from');
		checkListType(param('listType'));
		const to = param('to');
		checkRecipient(type, to);
		const entry = this.entries.get(entryKey(from, type, to));
		if (!entry) throw notFound(`${to} is not blacklisted by sender ${from} on ${type}`);
		return data({ ...entry });
	}
}

/**
 * Sandbox choice (spec: not shown): e-mail addresses compare case-insensitively; phone numbers and
 * senders exactly.
 */
const entryKey = (from: string, type: string, to: string) =>
	JSON.stringify([from, type, type === 'EMAIL' ? to.toLowerCase() : to]);

function requiredQuery(query: Query, name: string): string {
	const value = queryValue(query, name);
	if (value === undefined || value === '') throw badRequest(`Query parameter ${name} is required`);
	return value;
}

/**
 * Sandbox choice (spec: not shown): the channel exactly as the spec writes it (`sms` is refused).
 */
function checkType(value: string): BlacklistType {
	if (!(BLACKLIST_TYPES as readonly string[]).includes(value)) {
		throw badRequest(
			`type must be one of ${BLACKLIST_TYPES.join(', ')} (got ${JSON.stringify(value)})`,
		);
	}
	return value as BlacklistType;
}

/**
 * Sandbox choice (spec: not shown): absent or null is BLACK; anything else but exactly BLACK (`''`
 * too) is refused.
 */
function checkListType(value: unknown): void {
	if (!(LIST_TYPES as readonly unknown[]).includes(value)) {
		throw badRequest(
			`listType must be one of ${LIST_TYPES.join(', ')} (got ${JSON.stringify(value)})`,
		);
	}
}

/**
 * Sandbox choice (spec: not shown): the spec says "phone number" or "e-mail address"; the sandbox
 * wants a phone number in E.164 (as chat-app recipients are), not normalised, and does not repair a
 * `+` that arrived as a space in a query string.
 */
function checkRecipient(type: BlacklistType, to: string): void {
	if (type === 'EMAIL') {
		if (!EMAIL.test(to))
			throw badRequest(`to must be an e-mail address for type EMAIL (got ${JSON.stringify(to)})`);
		return;
	}
	if (!E164.test(to)) {
		const hint = /^ \d/.test(to) ? '; a "+" in a query string must be sent as %2B' : '';
		throw badRequest(
			`to must be an E.164 phone number ("+" then ${PHONE_DIGITS_RULE}) for type ${type} (got ${JSON.stringify(to)})${hint}`,
		);
	}
}
