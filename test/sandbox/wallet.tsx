import { badRequest, fileReply, isPlainObject, paginate, queryValue, type Reply } from './http';
import { parseHeaderValue } from './multipart';
import type { RequestContext, Router } from './router';
import {
	PassStore,
	alreadyHasPassMessage,
	invalidPlaceIndex,
	invalidPlaceMessage,
	parseBatch,
	parseFields,
	passFile,
	passFileName,
	passNotFound,
	requireRecipientId,
	templateNotFound,
	unsupportedPassBody,
	type PassError,
	type PassField,
	type PassResult,
	type WalletPass,
} from './wallet-passes';

export const WALLET_PREFIX = '/wallet';

/** Template fields in the order the sandbox writes them. */
export const TEMPLATE_FIELDS = [
	'serial',
	'name',
	'description',
	'walletPayCompatible',
	'creationDate',
] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

export interface WalletTemplate {
	serial: string;
	name: string;
	description: string;
	walletPayCompatible: boolean;
	/** ISO 8601 UTC with milliseconds and `Z`. */
	creationDate: string;
}

/**
 * Input of seedTemplate and of the `templates` option: serial and name required, the rest
 * defaulted.
 */
export interface WalletTemplateInput {
	serial: string;
	name: string;
	/** Default ''. */
	description?: string;
	/** Default false. */
	walletPayCompatible?: boolean;
	/** Any date string `Date` parses; stored as ISO 8601 UTC. Default: now. */
	creationDate?: string;
}

export const DEFAULT_TEMPLATES: readonly WalletTemplate[] = [
	{
		serial: 'tpl-gold-member',
		name: 'Gold member card',
		description: 'Loyalty card of the Gold tier: priority support and 10% off',
		walletPayCompatible: true,
		creationDate: '2024-03-04T09:15:00.000Z',
	},
	{
		serial: 'tpl-silver-member',
		name: 'Silver member card',
		description: 'Loyalty card of the Silver tier: 5% off',
		walletPayCompatible: false,
		creationDate: '2023-11-20T16:40:30.000Z',
	},
	{
		serial: 'tpl-classic-member',
		name: 'Classic member card',
		description: 'Basic membership card with the member number as barcode',
		walletPayCompatible: true,
		creationDate: '2024-07-01T08:00:00.250Z',
	},
];

/**
 * Sandbox choice (spec: not shown): `limit` 1 to 100, default 20 (the spec: an integer, 1 returns
 * one template), and a 1-based `page` (not in the spec).
 */
export const TEMPLATE_LIMITS = { defaultLimit: 20, maxLimit: 100 };

interface SortKey {
	field: TemplateField;
	direction: 1 | -1;
}

export class WalletModule {
	private templates: WalletTemplate[] = [];
	private readonly initial: WalletTemplate[];
	private readonly passes = new PassStore();
	/** Origin for pass URLs when a request has no Host header; set by the core once listening. */
	origin = 'http://127.0.0.1';

	/**
	 * Validates the start-time templates (throws HttpError on invalid input); reset() returns to
	 * them.
	 */
	constructor(initial: readonly WalletTemplateInput[] = DEFAULT_TEMPLATES) {
		this.initial = [];
		for (const input of initial) this.initial.push(toTemplate(input, this.initial));
		this.reset();
	}

	register(router: Router): void {
		const templates = `${WALLET_PREFIX}/v2/wallet/templates`;
		router
			.add('GET', templates, (ctx) => this.listTemplates(ctx))
			.add('POST', `${templates}/:serial/passes/batch`, (ctx) => this.createPasses(ctx))
			.add('GET', `${templates}/:serial/passes/:recipientId/download`, (ctx) => this.download(ctx));
	}

	reset(): void {
		this.templates = this.initial.map((t) => ({ ...t }));
		this.passes.reset();
	}

	/**
	 * Stored passes (fields exactly as received), in creation order; only those of `serial` when
	 * given.
	 */
	allPasses(serial?: string): WalletPass[] {
		return this.passes.all(serial);
	}

	/**
	 * Creates a pass without HTTP and without recording, with the field rules of the batch request.
	 * Throws HttpError: 404 unknown template, 400 invalid input, unknown place or a recipient that
	 * already has a pass of the template.
	 */
	seedPass(serial: string, recipientId: string, fields: unknown = []): WalletPass {
		this.requireTemplate(serial);
		requireRecipientId(recipientId, 'recipientId');
		const parsed = parseFields(fields, 'fields');
		const bad = invalidPlaceIndex(parsed);
		if (bad >= 0)
			throw badRequest(invalidPlaceMessage(`fields[${bad}]`, parsed[bad].place), 'INVALID_PLACE');
		if (this.passes.has(serial, recipientId))
			throw badRequest(alreadyHasPassMessage(recipientId, serial), 'RECIPIENT_ALREADY_HAS_PASS');
		this.passes.add(serial, recipientId, structuredClone(parsed));
		return this.passes.get(serial, recipientId)!;
	}

	private requireTemplate(serial: string): WalletTemplate {
		const template = this.templates.find((t) => t.serial === serial);
		if (!template) throw templateNotFound(serial);
		return template;
	}

	/**
	 * POST /v2/wallet/templates/{serial}/passes/batch: 404 before the body is read, then 415,
	 * then the whole body is validated (400), then each pass is created or refused on its own.
	 */
	private async createPasses(ctx: RequestContext): Promise<Reply> {
		const { serial } = ctx.params;
		this.requireTemplate(serial);
		// Sandbox choice (spec: not shown): the spec's Content-Type is required: application/json,
		// charset UTF-8 when given (else 415).
		const contentType = ctx.headers['content-type'];
		const { value, params } = parseHeaderValue(contentType ?? '');
		if (
			value !== 'application/json' ||
			(params.charset !== undefined && params.charset.toLowerCase() !== 'utf-8')
		) {
			throw unsupportedPassBody(contentType);
		}
		const requests = parseBatch(await ctx.body.json());
		const origin = ctx.headers.host ? `http://${ctx.headers.host}` : this.origin;
		const items: PassResult[] = [];
		const createdAt = new Date().toISOString();
		const errors: PassError[] = [];
		for (const { index, recipientId, fields } of requests) {
			const refuse = (code: PassError['code'], message: string) =>
				errors.push({ recipientId, code, message });
			const bad = invalidPlaceIndex(fields);
			// Sandbox choice (spec: not shown): one pass per recipient and template, across requests; a
			// refused pass does not stop the others.
			if (this.passes.has(serial, recipientId))
				refuse('RECIPIENT_ALREADY_HAS_PASS', alreadyHasPassMessage(recipientId, serial));
			else if (bad >= 0)
				refuse(
					'INVALID_PLACE',
					invalidPlaceMessage(`items[${index}].uniqueValues.fields[${bad}]`, fields[bad].place),
				);
			else {
				this.passes.add(serial, recipientId, fields as PassField[], createdAt);
				items.push({ recipientId, url: `${origin}${passPath(serial, recipientId)}` });
			}
		}
		return { status: 200, body: { items, errors } };
	}

	/** GET .../passes/{recipientId}/download: the pass file (not JSON, no meta). */
	private download(ctx: RequestContext): Reply {
		const { serial, recipientId } = ctx.params;
		this.requireTemplate(serial);
		const pass = this.passes.get(serial, recipientId);
		if (!pass) throw passNotFound(serial, recipientId);
		return fileReply('application/vnd.apple.pkpass', passFile(pass), passFileName(pass));
	}

	/** Adds a template without HTTP; throws HttpError on invalid input or a serial already in use. */
	seed(input: WalletTemplateInput): WalletTemplate {
		const template = toTemplate(input, this.templates);
		this.templates.push(template);
		return { ...template };
	}

	all(): WalletTemplate[] {
		return this.templates.map((t) => ({ ...t }));
	}

	private listTemplates(ctx: RequestContext): Reply {
		const sort = parseSort(queryValue(ctx.query, 'sort'));
		const select = parseSelect(queryValue(ctx.query, 'select'));
		const sorted = sort.length
			? [...this.templates].sort((a, b) => compareBy(a, b, sort))
			: this.templates;
		const page = paginate(sorted, ctx.query, TEMPLATE_LIMITS);
		return {
			status: 200,
			body: { pagination: page.pagination, items: page.items.map((t) => pick(t, select)) },
		};
	}
}

/** Path of a pass download under the server root (serial and recipientId percent-encoded). */
export const passPath = (serial: string, recipientId: string) =>
	`${WALLET_PREFIX}/v2/wallet/templates/${encodeURIComponent(serial)}/passes/${encodeURIComponent(recipientId)}/download`;

const isField = (name: string): name is TemplateField =>
	(TEMPLATE_FIELDS as readonly string[]).includes(name);

/**
 * Splits a comma-separated parameter. Sandbox choice (spec: not shown): an empty element (`a,,b`,
 * trailing comma) is a 400.
 */
function terms(value: string, parameter: string): string[] {
	const parts = value.split(',').map((part) => part.trim());
	if (parts.some((part) => part === ''))
		throw badRequest(`Query parameter ${parameter} contains an empty field name (got "${value}")`);
	return parts;
}

/**
 * `-field` descending, `+field` or `field` ascending. A `+` sent unencoded in the query string
 * arrives as a space; terms are trimmed, so a leading space also means ascending.
 * Sandbox choice (spec: not shown): any of the five template fields, case-sensitive; an unknown one
 * is a 400 (so is one in `select`).
 */
export function parseSort(value: string | undefined): SortKey[] {
	if (value === undefined || value.trim() === '') return [];
	return terms(value, 'sort').map((term) => {
		const direction = term.startsWith('-') ? -1 : 1;
		const field = term.startsWith('-') || term.startsWith('+') ? term.slice(1) : term;
		if (!isField(field))
			throw badRequest(
				`Query parameter sort: unknown field "${field}" (allowed: ${TEMPLATE_FIELDS.join(', ')})`,
			);
		return { field, direction };
	});
}

export function parseSelect(value: string | undefined): TemplateField[] {
	if (value === undefined || value.trim() === '') return [...TEMPLATE_FIELDS];
	const names = terms(value, 'select');
	for (const name of names) {
		if (!isField(name))
			throw badRequest(
				`Query parameter select: unknown field "${name}" (allowed: ${TEMPLATE_FIELDS.join(', ')})`,
			);
	}
	return TEMPLATE_FIELDS.filter((field) => names.includes(field));
}

function compareValues(a: WalletTemplate[TemplateField], b: WalletTemplate[TemplateField]): number {
	if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
	return a < b ? -1 : a > b ? 1 : 0;
}

/** Array.prototype.sort is stable, so equal keys keep the stored (seed) order. */
function compareBy(a: WalletTemplate, b: WalletTemplate, keys: SortKey[]): number {
	for (const { field, direction } of keys) {
		const order =
			field === 'creationDate'
				? Date.parse(a[field]) - Date.parse(b[field])
				: compareValues(a[field], b[field]);
		if (order !== 0) return order * direction;
	}
	return 0;
}

function pick(template: WalletTemplate, fields: TemplateField[]): Partial<WalletTemplate> {
	const item: Record<string, unknown> = {};
	for (const field of fields) item[field] = template[field];
	return item as Partial<WalletTemplate>;
}

function toTemplate(input: unknown, existing: WalletTemplate[]): WalletTemplate {
	if (!isPlainObject(input))
		throw badRequest('A wallet template must be an object with serial and name');
	const unknown = Object.keys(input).filter((key) => !isField(key));
	if (unknown.length)
		throw badRequest(
			`Wallet template: unknown field(s) ${unknown.join(', ')} (allowed: ${TEMPLATE_FIELDS.join(', ')})`,
		);
	const { serial, name, description = '', walletPayCompatible = false, creationDate } = input;
	if (typeof serial !== 'string' || serial.trim() === '')
		throw badRequest('Wallet template: serial is required (non-empty string)');
	if (existing.some((t) => t.serial === serial))
		throw badRequest(`Wallet template: serial "${serial}" already exists`);
	if (typeof name !== 'string' || name.trim() === '')
		throw badRequest(`Wallet template ${serial}: name is required (non-empty string)`);
	if (typeof description !== 'string')
		throw badRequest(`Wallet template ${serial}: description must be a string`);
	if (typeof walletPayCompatible !== 'boolean')
		throw badRequest(`Wallet template ${serial}: walletPayCompatible must be a boolean`);
	let date = new Date();
	if (creationDate !== undefined) {
		date = new Date(typeof creationDate === 'string' ? creationDate : NaN);
		if (Number.isNaN(date.getTime()))
			throw badRequest(
				`Wallet template ${serial}: creationDate must be a date string (got ${JSON.stringify(creationDate)})`,
			);
	}
	return { serial, name, description, walletPayCompatible, creationDate: date.toISOString() };
}
