/**
 * Shapes of the platform's answers, checked where they enter (spec §1).
 *
 * Tolerant where the spec shows no shape; what does not fit is refused, never turned into items.
 */
import { isRecord } from '../base';
import type { IDataObject } from 'n8n-workflow';
import { z } from 'zod';

export type JsonRecord = IDataObject;

export { isRecord };

const describe = (value: unknown): string => {
	if (value === null || value === undefined || value === '') return 'an empty body';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string')
		return `text (${JSON.stringify(value.slice(0, 60))}${value.length > 60 ? '…' : ''})`;
	return `a ${typeof value}`;
};

/** The answer does not fit: its issue is `message` (what a transform gives then). */
function refused(ctx: z.RefinementCtx, message: string): never {
	ctx.addIssue({ code: z.ZodIssueCode.custom, message });
	return z.NEVER;
}

/** A single object: `data` when present, otherwise the body itself without `meta`. */
export const objectResponse = z.unknown().transform((body, ctx): JsonRecord => {
	if (!isRecord(body))
		return refused(ctx, `a JSON object was expected, the answer was ${describe(body)}`);
	if ('data' in body) {
		if (isRecord(body.data)) return body.data;
		return refused(ctx, `"data" should be an object, it was ${describe(body.data)}`);
	}
	const rest = { ...body };
	delete rest.meta;
	return rest;
});

/** An answer whose body the spec does not show (delete, send): empty, or as objectResponse. */
export const optionalObjectResponse = z.unknown().transform((body, ctx): JsonRecord => {
	if (body === undefined || body === null || body === '') return {};
	const parsed = objectResponse.safeParse(body);
	if (parsed.success) return parsed.data;
	return refused(ctx, parsed.error.issues[0].message);
});

/** An object that must carry an identifier (a created or read list, a blacklist entry). */
export const identifiedObjectResponse = objectResponse.superRefine((data, ctx) => {
	if (typeof data.id !== 'number' && (typeof data.id !== 'string' || !data.id.trim()))
		refused(ctx, 'the object has no "id"');
});

export interface Page {
	items: JsonRecord[];
	pagination?: { page: number; pages: number };
}

/** A collection: `items`, `data` or a bare array of objects, and an optional `pagination`. */
export const collectionResponse = z.unknown().transform((body, ctx): Page => {
	const listed = isRecord(body) ? [body.items, body.data].find(Array.isArray) : undefined;
	const items = Array.isArray(body) ? body : listed;
	if (!Array.isArray(items))
		return refused(
			ctx,
			`a collection ("items": [...]) was expected, the answer was ${isRecord(body) ? 'an object without "items"' : describe(body)}`,
		);
	const bad = items.findIndex((item) => !isRecord(item));
	if (bad >= 0)
		return refused(ctx, `entry ${bad} of the collection is ${describe(items[bad])}, not an object`);
	const raw = isRecord(body) && isRecord(body.pagination) ? body.pagination : undefined;
	const page = Number(raw?.page);
	const pages = Number(raw?.pages);
	const pagination =
		raw && Number.isFinite(page) && Number.isFinite(pages) ? { page, pages } : undefined;
	return { items: items as JsonRecord[], ...(pagination ? { pagination } : {}) };
});
