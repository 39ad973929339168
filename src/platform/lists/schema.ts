/** Zod schemas of the lists service: IDs, subscriber rows, list creation, bulk answers. */
import { z } from 'zod';

import { pathSegmentSchema, trimEmail } from '../../base';

const listIdMessage = 'a list ID is a whole number, for example 42';
export const listIdSchema = z
	.union([z.number(), z.string()], { errorMap: () => ({ message: listIdMessage }) })
	.transform((value) => String(value).trim())
	.pipe(z.string().regex(/^\d+$/, listIdMessage));

export const subscriberIdSchema = pathSegmentSchema(
	'a subscriber ID is text, for example 5f1c2a',
	'a subscriber ID is required',
	'a subscriber ID',
);

const columnValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()], {
	errorMap: () => ({ message: 'a column value must be text, a number, true/false or null' }),
});

/** The automatic e-mail column of every list (spec §2). */
export const EMAIL_COLUMN = 'email';

/** The row with its `email` trimmed at the ends: a trailing "\n" would make a second subscriber. */
function withTrimmedEmail<T extends Record<string, unknown>>(row: T): T {
	const email = row[EMAIL_COLUMN];
	if (typeof email !== 'string') return row;
	const trimmed = trimEmail(email);
	return trimmed === email ? row : { ...row, [EMAIL_COLUMN]: trimmed };
}

/** One subscriber: an object keyed by column name (spec §4), its e-mail trimmed. */
export const subscriberRowSchema = z
	.record(z.string().min(1, 'a column name cannot be empty'), columnValueSchema, {
		errorMap: (issue, ctx) =>
			issue.code === 'invalid_type'
				? { message: 'each subscriber must be an object keyed by column name' }
				: { message: ctx.defaultError },
	})
	.transform(withTrimmedEmail);

const columnSchema = z.object({
	name: z.string().trim().min(1, 'every column needs a name'),
	type: z.string().trim().min(1, 'every column needs a type, for example STRING'),
	unique: z.boolean().optional(),
	required: z.boolean().optional(),
	defaultValue: columnValueSchema.optional(),
});

export const createListRequestSchema = z
	.object({
		name: z.string().trim().min(1, 'the list needs a name'),
		columns: z.array(columnSchema),
		rows: z.array(subscriberRowSchema),
	})
	.superRefine((request, ctx) => {
		const seen = new Set<string>();
		request.columns.forEach((column, index) => {
			if (seen.has(column.name)) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['columns', index, 'name'],
					message: `the column "${column.name}" is defined twice`,
				});
			}
			seen.add(column.name);
		});
	});

export const csvImportQuerySchema = z.object({
	name: z.string().trim().min(1, 'the list needs a name'),
	key: z.string().trim().optional(),
	usesAutoColumns: z.boolean().optional(),
	caseSensitive: z.boolean().optional(),
	usesGeneratedData: z.boolean().optional(),
	trackLastActivity: z.boolean().optional(),
});

export const bulkSubscribersRequestSchema = z.array(subscriberRowSchema);

/** A row checked as subscriberRowSchema does; zod, slow per row, runs only on a misfit. */
export function parseSubscriberRow(value: unknown): SubscriberRow {
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
		let fits = true;
		for (const key in value) {
			if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
			const column = (value as Record<string, unknown>)[key];
			const type = typeof column;
			if (
				key === '' ||
				!(
					column === null ||
					type === 'string' ||
					type === 'boolean' ||
					(type === 'number' && !Number.isNaN(column))
				)
			) {
				fits = false;
				break;
			}
		}
		if (fits) return withTrimmedEmail(value as SubscriberRow);
	}
	return subscriberRowSchema.parse(value);
}

const count = z.number().int().nonnegative().optional().catch(undefined);

/** The bulk answer's `data`, read leniently: the rows were accepted, so odd fields mean unknown. */
export const bulkSubscribersResultSchema = z
	.object({
		subscriberUpdated: count,
		subscriberAdded: count,
		subscribersError: z
			.array(z.unknown())
			.nullish()
			.catch(undefined)
			.transform((value) => value ?? []),
	})
	.passthrough();

export type Column = z.infer<typeof columnSchema>;
export type SubscriberRow = z.infer<typeof subscriberRowSchema>;
export type BulkSubscribersResult = z.infer<typeof bulkSubscribersResultSchema>;
