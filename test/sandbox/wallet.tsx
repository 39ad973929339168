/** The wallet module: templates state and seeding, and the routes of templates and passes. */
import { badRequest, fileReply, paginate, queryValue, type Reply } from './http';
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
import {
	DEFAULT_TEMPLATES,
	TEMPLATE_LIMITS,
	compareBy,
	parseSelect,
	parseSort,
	pick,
	toTemplate,
	type WalletTemplate,
	type WalletTemplateInput,
} from './wallet-templates';

export const WALLET_PREFIX = '/wallet';

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
