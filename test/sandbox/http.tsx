/** HTTP building blocks of the sandbox: errors, replies, queries, pagination. */
import { randomUUID } from 'node:crypto';

/**
 * Thrown anywhere in a handler; the core turns it into `{ meta, error: { status, code, message }
 * }`. Sandbox choice (spec: not shown): the error body, the HTTP status codes and the error codes.
 */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

export const badRequest = (message: string, code = 'VALIDATION_FAILED') =>
	new HttpError(400, code, message);
export const notFound = (message: string, code = 'NOT_FOUND') => new HttpError(404, code, message);

/** What a handler returns; the core adds `meta` to the body. */
export interface Reply {
	status: number;
	body: Record<string, unknown>;
	headers?: Record<string, string>;
	/** A non-JSON answer (a file download): sent as is instead of `body`, without `meta`. */
	file?: { contentType: string; content: Buffer };
}

export const data = (value: unknown, status = 200): Reply => ({ status, body: { data: value } });

/** 200 with a file body; `filename` becomes an attachment Content-Disposition. */
export const fileReply = (contentType: string, content: Buffer, filename?: string): Reply => ({
	status: 200,
	body: {},
	file: { contentType, content },
	headers: filename ? { 'content-disposition': `attachment; filename="${filename}"` } : {},
});

export const errorReply = (error: HttpError): Reply => ({
	status: error.status,
	body: { error: { status: error.status, code: error.code, message: error.message } },
	headers: error.headers,
});

/** `now`: the sandbox clock's time in ms (default the real clock). */
export const meta = (now = Date.now()) => ({ timestamp: now, transactionId: randomUUID() });

export type Query = Record<string, string | string[]>;

export function queryFrom(params: URLSearchParams): Query {
	const query: Query = {};
	for (const [name, value] of params) {
		const prior = query[name];
		query[name] =
			prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
	}
	return query;
}

/** First value of a query parameter. */
export function queryValue(query: Query, name: string): string | undefined {
	const value = query[name];
	return Array.isArray(value) ? value[0] : value;
}

export function queryBoolean(query: Query, name: string, fallback: boolean): boolean {
	const value = queryValue(query, name);
	if (value === undefined || value === '') return fallback;
	const lower = value.toLowerCase();
	if (lower === 'true' || lower === 'false') return lower === 'true';
	throw badRequest(`Query parameter ${name} must be "true" or "false" (got "${value}")`);
}

function queryInteger(
	query: Query,
	name: string,
	fallback: number,
	min: number,
	max: number,
): number {
	const value = queryValue(query, name);
	if (value === undefined || value === '') return fallback;
	const n = Number(value);
	if (!/^\d+$/.test(value) || n < min || n > max) {
		throw badRequest(
			`Query parameter ${name} must be an integer between ${min} and ${max} (got "${value}")`,
		);
	}
	return n;
}

export interface Pagination {
	limit: number;
	page: number;
	pages: number;
	total: number;
}

/**
 * Sandbox choice (spec: not shown): page (1-based) + limit (default 100, max 1000 unless given)
 * over an in-memory collection.
 */
export function paginate<T>(
	all: T[],
	query: Query,
	limits: { defaultLimit: number; maxLimit: number } = { defaultLimit: 100, maxLimit: 1000 },
): { items: T[]; pagination: Pagination } {
	const limit = queryInteger(query, 'limit', limits.defaultLimit, 1, limits.maxLimit);
	const page = queryInteger(query, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
	const start = (page - 1) * limit;
	return {
		items: all.slice(start, start + limit),
		pagination: { limit, page, pages: Math.ceil(all.length / limit), total: all.length },
	};
}

/** ISO 8601 local date-time with milliseconds and no zone, taken from the UTC clock. */
export const localDateTime = (date: Date) => date.toISOString().slice(0, -1);

export function formatBytes(bytes: number): string {
	const units = ['bytes', 'KB', 'MB', 'GB'];
	let value = bytes;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
		value /= 1024;
		unit++;
	}
	return `${value} ${units[unit]}`;
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
