/** The lists service: lists, their subscribers and CSV imports, and their routes. */
import { csvColumns, parseJsonColumns, withAutomaticColumns } from './columns';
import { csvRows, normalizeHeader, readCsvUpload } from './csv-upload';
import {
	HttpError,
	badRequest,
	data,
	isPlainObject,
	notFound,
	paginate,
	queryBoolean,
	queryValue,
	type Reply,
} from './http';
import { ListStore, type ListData, type SubscriberList } from './list-store';
import type { RequestContext, Router } from './router';
import { importRows, type ImportResult } from './subscriber-import';

export const LISTS_PREFIX = '/audience/v3';

/** Input of seedList: the JSON create body, with columns and rows optional. */
export interface ListInput {
	name: string;
	columns?: unknown[];
	rows?: unknown[];
}

/**
 * Sandbox choice (spec: not shown): defaults of the CSV query flags; values other than true/false
 * (any case) are a 400.
 */
export const CSV_FLAG_DEFAULTS = {
	usesAutoColumns: true,
	caseSensitive: false,
	usesGeneratedData: false,
	trackLastActivity: false,
};

/** POST /lists and bulk add answer the list plus per-row failures of the rows in the request. */
type CreatedList = ListData & { subscribersError: ImportResult['subscribersError'] };

export class ListsModule {
	readonly store = new ListStore();

	constructor(private readonly config: { csvMaxBytes: number }) {}

	register(router: Router): void {
		const lists = `${LISTS_PREFIX}/lists`;
		router
			.add('GET', lists, (ctx) => this.listLists(ctx))
			.add('POST', lists, (ctx) => this.createList(ctx))
			.add('GET', `${lists}/:listId`, (ctx) => data(this.requireList(ctx).toData()))
			.add('DELETE', `${lists}/:listId`, (ctx) => this.deleteList(ctx))
			.add('POST', `${lists}/:listId/subscribers/bulk`, (ctx) => this.bulkAdd(ctx))
			.add('GET', `${lists}/:listId/subscribers`, (ctx) => this.listSubscribers(ctx))
			.add('DELETE', `${lists}/:listId/subscribers/:subscriberId`, (ctx) =>
				this.deleteSubscriber(ctx),
			);
	}

	reset(): void {
		this.store.reset();
	}

	/** JSON variant of POST /lists; also used by Sandbox.seedList. */
	createFromJson(body: unknown): CreatedList {
		if (!isPlainObject(body))
			throw badRequest('Body must be a JSON object with name, columns and rows');
		const name = requireName(body.name, 'name');
		const created = parseJsonColumns(body.columns);
		if (!Array.isArray(body.rows))
			throw badRequest('rows is required (an array of objects keyed by column name, may be empty)');
		const list = this.store.create({
			name,
			columns: withAutomaticColumns(created),
			key: 'id',
			autoId: !created.some((c) => c.name === 'id'),
			usesAutoColumns: true,
			caseSensitive: true,
			usesGeneratedData: false,
			trackLastActivity: false,
		});
		const result = importRows(
			list,
			body.rows.map((row, index) => ({ index, row })),
			'json',
		);
		return { ...list.toData(), subscribersError: result.subscribersError };
	}

	private async createList(ctx: RequestContext): Promise<Reply> {
		if (ctx.body.isMultipart()) return data(await this.createFromCsv(ctx));
		if (ctx.body.isJson()) return data(this.createFromJson(await ctx.body.json()));
		throw unsupportedType(ctx);
	}

	private async createFromCsv(ctx: RequestContext): Promise<CreatedList> {
		const name = requireName(queryValue(ctx.query, 'name'), 'Query parameter name');
		const flag = (flagName: keyof typeof CSV_FLAG_DEFAULTS) =>
			queryBoolean(ctx.query, flagName, CSV_FLAG_DEFAULTS[flagName]);
		const settings = {
			usesAutoColumns: flag('usesAutoColumns'),
			caseSensitive: flag('caseSensitive'),
			usesGeneratedData: flag('usesGeneratedData'),
			trackLastActivity: flag('trackLastActivity'),
		};
		const upload = await readCsvUpload(ctx.body, this.config.csvMaxBytes);
		const header = normalizeHeader(upload.header, settings.caseSensitive);
		const keyParam = queryValue(ctx.query, 'key')?.trim();
		const key = keyParam ? (settings.caseSensitive ? keyParam : keyParam.toLowerCase()) : 'id';
		// Sandbox choice (spec: not shown): a key must name a column of the header; that column becomes
		// unique and matches rows.
		if (!header.includes(key) && key !== 'id')
			throw badRequest(`Query parameter key "${key}" is not a column of the CSV header`);
		const list = this.store.create({
			name,
			columns: csvColumns(
				header,
				upload.records.map((r) => r.cells),
				{ usesAutoColumns: settings.usesAutoColumns, key },
			),
			key,
			autoId: !header.includes('id'),
			...settings,
		});
		const result = importRows(list, csvRows(header, upload.records), 'csv');
		return { ...list.toData(), subscribersError: result.subscribersError };
	}

	/**
	 * GET /lists: Sandbox choice (spec: not shown): the whole endpoint (for the node's list picker),
	 * paginated like GET .../subscribers.
	 */
	private listLists(ctx: RequestContext): Reply {
		const filter = queryValue(ctx.query, 'name')?.toLowerCase();
		const lists = this.store
			.all()
			.filter((list) => !filter || list.settings.name.toLowerCase().includes(filter));
		const page = paginate(lists, ctx.query);
		return {
			status: 200,
			body: { items: page.items.map((list) => list.toData()), pagination: page.pagination },
		};
	}

	private deleteList(ctx: RequestContext): Reply {
		const list = this.requireList(ctx);
		this.store.delete(list.id);
		return data({ id: list.id, deleted: true });
	}

	private async bulkAdd(ctx: RequestContext): Promise<Reply> {
		const list = this.requireList(ctx);
		if (ctx.body.isMultipart()) {
			const upload = await readCsvUpload(ctx.body, this.config.csvMaxBytes);
			const header = normalizeHeader(upload.header, list.settings.caseSensitive);
			return data(importRows(list, csvRows(header, upload.records), 'csv'));
		}
		if (!ctx.body.isJson()) throw unsupportedType(ctx);
		const rows = await ctx.body.json();
		if (!Array.isArray(rows))
			throw badRequest('Body must be a JSON array of subscriber objects keyed by column name');
		return data(
			importRows(
				list,
				rows.map((row, index) => ({ index, row })),
				'json',
			),
		);
	}

	private listSubscribers(ctx: RequestContext): Reply {
		const page = paginate(this.requireList(ctx).records(), ctx.query);
		return { status: 200, body: { items: page.items, pagination: page.pagination } };
	}

	private deleteSubscriber(ctx: RequestContext): Reply {
		const list = this.requireList(ctx);
		const id = ctx.params.subscriberId;
		if (!list.remove(id))
			throw notFound(`Subscriber ${id} not found in list ${list.id}`, 'SUBSCRIBER_NOT_FOUND');
		list.touch();
		return data({ id, deleted: true });
	}

	private requireList(ctx: RequestContext): SubscriberList {
		const raw = ctx.params.listId;
		// Sandbox choice (spec: not shown): a listId that is not a positive integer is 400
		// INVALID_LIST_ID, not 404.
		if (!/^[1-9]\d{0,15}$/.test(raw))
			throw badRequest(`listId must be a positive integer (got "${raw}")`, 'INVALID_LIST_ID');
		const list = this.store.get(Number(raw));
		if (!list) throw notFound(`List ${raw} not found`, 'LIST_NOT_FOUND');
		return list;
	}
}

function requireName(value: unknown, what: string): string {
	if (typeof value !== 'string' || value.trim() === '')
		throw badRequest(`${what} is required (non-empty string)`);
	return value;
}

/** Sandbox choice (spec: not shown): a body neither JSON nor multipart is 415. */
const unsupportedType = (ctx: RequestContext) =>
	new HttpError(
		415,
		'UNSUPPORTED_MEDIA_TYPE',
		`${ctx.method} ${ctx.path} expects application/json or multipart/form-data (got ${ctx.body.contentType ?? 'no content type'})`,
	);
