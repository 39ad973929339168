/** The chat-app message templates: categories, statuses and their store. */
import { randomBytes } from 'node:crypto';
import { isAbsent, maxLength, noUnknownKeys, optionalString, requiredString, show } from './checks';
import type { SenderStore } from './chatapp-senders';
import { badRequest, isPlainObject, queryValue, type Query } from './http';

/** Spec §1, onboarding fact 5, written as the spec writes them. */
export const MESSAGE_TEMPLATE_CATEGORIES = [
	'Appointment Update',
	'Auto Reply',
	'Alert Updates',
	'Account Update',
	'Issue Resolution',
	'Payment Update',
	'Shipping Update',
	'Ticket Update',
	'Reservation Update',
	'Personal Finance Update',
	'Transportation Update',
] as const;
export type MessageTemplateCategory = (typeof MESSAGE_TEMPLATE_CATEGORIES)[number];

/** Sandbox choice (spec: not shown): approval states; APPROVED when seeded without one. */
export const MESSAGE_TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED'] as const;
export const MESSAGE_TEMPLATE_BODY_MAX = 1024;

/** An item of GET /chatapp/templates, in this field order. */
export interface MessageTemplate {
	id: string;
	name: string;
	category: MessageTemplateCategory;
	language: string;
	/** Placeholders written `{{NAME}}`, kept as given. */
	body: string;
	status: (typeof MESSAGE_TEMPLATE_STATUSES)[number];
	senderId: string | null;
	bizAccountId: string | null;
	namespace: string | null;
}

/**
 * Input of Sandbox.seedMessageTemplate and the admin endpoint; senderId and/or bizAccountId
 * required.
 */
export interface MessageTemplateInput {
	/** Default `mtpl_` + random hex. */
	id?: string;
	name: string;
	category: string;
	language: string;
	body: string;
	/** Default APPROVED. */
	status?: string;
	senderId?: string | null;
	bizAccountId?: string | null;
	/** Default: the sender's templateNamespace (null without a sender). */
	namespace?: string | null;
}

const INPUT_KEYS = [
	'id',
	'name',
	'category',
	'language',
	'body',
	'status',
	'senderId',
	'bizAccountId',
	'namespace',
];

export class TemplateStore {
	private templates: MessageTemplate[] = [];

	constructor(private readonly senders: SenderStore) {}

	reset(): void {
		this.templates = [];
	}

	seed(input: unknown): MessageTemplate {
		if (!isPlainObject(input))
			throw badRequest(
				'A message template must be an object with name, category, language, body and senderId or bizAccountId',
			);
		noUnknownKeys(input, INPUT_KEYS, 'Message template');
		const what = (path: string) => `Message template ${path}`;
		const id = isAbsent(input.id)
			? `mtpl_${randomBytes(6).toString('hex')}`
			: requiredString(input.id, what('id'));
		if (this.templates.some((t) => t.id === id))
			throw badRequest(`Message template id "${id}" already exists`);
		const name = requiredString(input.name, what('name'));
		// Sandbox choice (spec: not shown): categories compare case-sensitively; one language per
		// template.
		const category = requiredString(input.category, what('category'));
		if (!(MESSAGE_TEMPLATE_CATEGORIES as readonly string[]).includes(category)) {
			throw badRequest(
				`Message template category must be one of ${MESSAGE_TEMPLATE_CATEGORIES.join(', ')} (got ${show(category)})`,
			);
		}
		const language = requiredString(input.language, what('language'));
		const body = requiredString(input.body, what('body'));
		maxLength(body, what('body'), MESSAGE_TEMPLATE_BODY_MAX);
		const status = isAbsent(input.status)
			? 'APPROVED'
			: requiredString(input.status, what('status'));
		if (!(MESSAGE_TEMPLATE_STATUSES as readonly string[]).includes(status)) {
			throw badRequest(
				`Message template status must be one of ${MESSAGE_TEMPLATE_STATUSES.join(', ')} (got ${show(status)})`,
			);
		}
		const senderId = isAbsent(input.senderId)
			? null
			: requiredString(input.senderId, what('senderId'));
		const bizAccountId = isAbsent(input.bizAccountId)
			? null
			: requiredString(input.bizAccountId, what('bizAccountId'));
		if (senderId === null && bizAccountId === null)
			throw badRequest('Message template needs senderId or bizAccountId (at least one)');
		const sender = senderId === null ? undefined : this.senders.require(senderId);
		const namespace =
			input.namespace === undefined
				? (sender?.templateNamespace ?? null)
				: (optionalString(input.namespace, what('namespace')) ?? null);

		const template: MessageTemplate = {
			id,
			name,
			category: category as MessageTemplateCategory,
			language,
			body,
			status: status as MessageTemplate['status'],
			senderId,
			bizAccountId,
			namespace,
		};
		this.templates.push(template);
		return { ...template };
	}

	all(): MessageTemplate[] {
		return this.templates.map((t) => ({ ...t }));
	}

	/**
	 * GET /chatapp/templates/: senderId and/or bizAccountId; both given → templates matching both.
	 */
	list(query: Query): MessageTemplate[] {
		const senderId = queryValue(query, 'senderId') || undefined;
		const bizAccountId = queryValue(query, 'bizAccountId') || undefined;
		if (!senderId && !bizAccountId)
			throw badRequest('Query parameter senderId or bizAccountId is required (give at least one)');
		// Sandbox choice (spec: not shown): an unknown senderId is 404
		if (senderId) this.senders.require(senderId);
		return this.templates
			.filter(
				(t) =>
					(!senderId || t.senderId === senderId) &&
					(!bizAccountId || t.bizAccountId === bizAccountId),
			)
			.map((t) => ({ ...t }));
	}
}
