/** The chat-app senders: their states, approval, rate limits and daily quotas. */
import { randomBytes } from 'node:crypto';
import {
	PHONE,
	PHONE_DIGITS_RULE,
	digitsOnly,
	integerAtLeast,
	isAbsent,
	noUnknownKeys,
	requiredString,
	show,
} from './checks';
import type { SandboxClock } from './clock';
import { HttpError, badRequest, isPlainObject } from './http';
import { USER_NAME } from './list-store';

export const SENDER_STATES = ['PENDING_IMPLEMENTATION', 'ACTIVE'] as const;
export type SenderState = (typeof SENDER_STATES)[number];

/** Spec §2 Sender, in spec field order. */
export interface Sender {
	id: string;
	providerId: string;
	name: string;
	/** Digits only, no `+`. */
	address: string;
	accountTier: number;
	dailyQuota: number;
	rateLimit: number;
	state: SenderState;
	created_date: string;
	last_updated_date: string;
	owner: string;
	operator: string | null;
	templateNamespace: string | null;
}

/** Body of POST /chatapp/senders, also the input of Sandbox.seedSender. */
export interface SenderInput {
	providerId: string;
	name: string;
	/** E.164 with `+`, or the same digits without it. */
	address: string;
	accountTier: number;
	dailyQuota?: number;
}

/** Optional settings applied by an approval (admin endpoint or Sandbox.approveSender). */
export interface ApproveOptions {
	rateLimit?: number;
	dailyQuota?: number;
	/**
	 * Absent: the current namespace, else `ns-<sender id>`; null sets it to null (the "contact
	 * support" case of the spec).
	 */
	templateNamespace?: string | null;
}

/** Sandbox choice (spec: not shown): messages per second when the sender is created. */
export const DEFAULT_RATE_LIMIT = 80;
/**
 * Sandbox choice (spec: not shown): unique recipients per day by account tier when dailyQuota is
 * not given.
 */
export const TIER_DAILY_QUOTAS: Readonly<Record<number, number>> = {
	1: 1_000,
	2: 10_000,
	3: 100_000,
};
/**
 * Sandbox choice (spec: not shown): tier 4 and above (a stand-in for "unlimited" on chat-app
 * platforms).
 */
export const TOP_TIER_DAILY_QUOTA = 1_000_000;

export const defaultDailyQuota = (tier: number) => TIER_DAILY_QUOTAS[tier] ?? TOP_TIER_DAILY_QUOTA;

const newSenderId = () => `snd_${randomBytes(6).toString('hex')}`;

/** Chat-app senders, keyed by id, each address used once. */
export class SenderStore {
	private readonly senders = new Map<string, Sender>();

	constructor(private readonly clock: SandboxClock) {}

	reset(): void {
		this.senders.clear();
	}

	/**
	 * POST /chatapp/senders rules: 400 on invalid input, 409 on an address already registered.
	 * `id`: the seeded sender's id (the demo's stand-in account), 409 when taken.
	 */
	create(body: unknown, id: string = newSenderId()): Sender {
		if (!isPlainObject(body))
			throw badRequest('Body must be a JSON object with providerId, name, address and accountTier');
		const providerId = requiredString(body.providerId, 'providerId');
		const name = requiredString(body.name, 'name');
		const rawAddress = requiredString(body.address, 'address');
		if (!PHONE.test(rawAddress)) {
			throw badRequest(
				`address must be a phone number: an optional "+" then ${PHONE_DIGITS_RULE}, no spaces (got ${show(rawAddress)})`,
			);
		}
		// Sandbox choice (spec: not shown): dailyQuota, when given, an integer >= 1; one sender per
		// address (409).
		const accountTier = integerAtLeast(body.accountTier, 'accountTier', 1);
		const dailyQuota = isAbsent(body.dailyQuota)
			? defaultDailyQuota(accountTier)
			: integerAtLeast(body.dailyQuota, 'dailyQuota', 1);
		const address = digitsOnly(rawAddress);
		const existing = this.byAddress(address);
		if (existing)
			throw new HttpError(
				409,
				'SENDER_ALREADY_EXISTS',
				`A sender with address ${address} already exists (${existing.id})`,
			);

		if (this.senders.has(id))
			throw new HttpError(409, 'SENDER_ALREADY_EXISTS', `A sender with id ${id} already exists`);
		const now = this.clock.iso();
		const sender: Sender = {
			id,
			providerId,
			name,
			address,
			accountTier,
			dailyQuota,
			rateLimit: DEFAULT_RATE_LIMIT,
			state: 'PENDING_IMPLEMENTATION',
			created_date: now,
			last_updated_date: now,
			owner: USER_NAME,
			operator: null,
			templateNamespace: null,
		};
		this.senders.set(sender.id, sender);
		return { ...sender };
	}

	/** Moves the sender to ACTIVE (again allowed: settings re-applied); 404 for an unknown id. */
	approve(id: string, options: unknown = {}): Sender {
		const sender = this.require(id);
		const opts = isAbsent(options) ? {} : options;
		if (!isPlainObject(opts))
			throw badRequest(
				'Approval options must be a JSON object { rateLimit?, dailyQuota?, templateNamespace? }',
			);
		noUnknownKeys(opts, ['rateLimit', 'dailyQuota', 'templateNamespace'], 'Sender approval');
		const rateLimit = isAbsent(opts.rateLimit)
			? sender.rateLimit
			: integerAtLeast(opts.rateLimit, 'rateLimit', 1);
		const dailyQuota = isAbsent(opts.dailyQuota)
			? sender.dailyQuota
			: integerAtLeast(opts.dailyQuota, 'dailyQuota', 1);
		let templateNamespace: string | null = sender.templateNamespace ?? `ns-${sender.id}`;
		if (opts.templateNamespace === null) templateNamespace = null;
		else if (opts.templateNamespace !== undefined)
			templateNamespace = requiredString(
				opts.templateNamespace,
				'templateNamespace',
				' (a string or null)',
			);
		Object.assign(sender, {
			rateLimit,
			dailyQuota,
			templateNamespace,
			state: 'ACTIVE',
			last_updated_date: this.clock.iso(),
		});
		return { ...sender };
	}

	get(id: string): Sender | undefined {
		const sender = this.senders.get(id);
		return sender && { ...sender };
	}

	/** 404 SENDER_NOT_FOUND naming the id. */
	require(id: string): Sender {
		const sender = this.senders.get(id);
		if (!sender) throw new HttpError(404, 'SENDER_NOT_FOUND', `Sender ${id} not found`);
		return sender;
	}

	/** The stored sender (not a copy) holding these digits. */
	byAddress(digits: string): Sender | undefined {
		for (const sender of this.senders.values()) if (sender.address === digits) return sender;
		return undefined;
	}

	all(): Sender[] {
		return [...this.senders.values()].map((sender) => ({ ...sender }));
	}
}
