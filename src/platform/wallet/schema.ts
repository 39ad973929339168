/** Zod schemas and plain checks of the wallet service: template serials, passes, batches. */
import { isPlainRecord, isRecord, pathSegmentSchema } from '../../base';
import { z } from 'zod';

/** A pass field's place; the spec names only BACK (the back side), and says there are four. */
export const PASS_PLACE_BACK = 'BACK';

export const templateSerialSchema = pathSegmentSchema(
	'a wallet template serial is text, for example tpl-gold-member',
	'a wallet template serial is required',
	'a template serial',
);

const passFieldSchema = z.object({
	place: z
		.string({ required_error: 'every field needs a place, for example BACK' })
		.trim()
		.min(1, 'every field needs a place, for example BACK'),
	label: z.string().optional(),
	fixed: z.boolean(),
	// Sent exactly as given: it may hold an HTML anchor the wallet renders as a link.
	value: z
		.string({
			required_error: 'every field needs a value',
			invalid_type_error: 'a field value must be text',
		})
		.refine((value) => value.trim().length > 0, 'every field needs a value'),
});

export const passSchema = z.object({
	recipientId: z
		.string({
			required_error: 'a pass needs a recipient ID',
			invalid_type_error: 'a recipient ID must be text',
		})
		.trim()
		.min(1, 'a pass needs a recipient ID'),
	uniqueValues: z.object({ fields: z.array(passFieldSchema) }),
});

/** The pass batch's answer (spec §4), loose where the spec shows no per-pass failure. */
const passBatchResultSchema = z
	.object({
		items: z.array(
			z
				.object({
					recipientId: z.union([z.string(), z.number()]).transform(String),
					url: z.string().optional().catch(undefined),
				})
				.passthrough(),
		),
		errors: z
			.array(z.unknown())
			.nullish()
			.catch(undefined)
			.transform((value) => value ?? []),
	})
	.passthrough();

/** The batch answer in one plain pass, no copies; passBatchResultSchema only words a misfit. */
export function readPassBatchResult(
	body: unknown,
):
	| { success: true; data: { items: Array<Record<string, unknown>>; errors: unknown[] } }
	| { success: false; message: string } {
	const items = isRecord(body) ? body.items : undefined;
	const fits =
		Array.isArray(items) &&
		items.every(
			(item) =>
				isRecord(item) &&
				(typeof item.recipientId === 'string' || typeof item.recipientId === 'number'),
		);
	if (!fits)
		return {
			success: false,
			message:
				passBatchResultSchema.safeParse(body).error?.issues[0]?.message ?? 'unexpected shape',
		};
	const errors = (body as Record<string, unknown>).errors;
	return {
		success: true,
		data: {
			items: items as Array<Record<string, unknown>>,
			errors: Array.isArray(errors) ? errors : [],
		},
	};
}

const filled = (value: unknown): value is string =>
	typeof value === 'string' && value.trim().length > 0;

/**
 * One pass checked as passSchema does, zod only for a misfit (its error): zod is slow per pass.
 * The result is passSchema's: ID and places trimmed, unknown keys dropped, keys in its order.
 */
export function parsePass(value: unknown): Pass {
	const uniqueValues = isPlainRecord(value) ? value.uniqueValues : undefined;
	const fields = isPlainRecord(uniqueValues) ? uniqueValues.fields : undefined;
	const fits =
		isPlainRecord(value) &&
		filled(value.recipientId) &&
		Array.isArray(fields) &&
		fields.every(
			(field) =>
				isPlainRecord(field) &&
				filled(field.place) &&
				(field.label === undefined || typeof field.label === 'string') &&
				typeof field.fixed === 'boolean' &&
				filled(field.value),
		);
	if (!fits) return passSchema.parse(value);
	return {
		recipientId: (value.recipientId as string).trim(),
		uniqueValues: {
			fields: (fields as Array<Record<string, unknown>>).map((field) => ({
				place: (field.place as string).trim(),
				// zod keeps an optional key that is present, even when undefined.
				...('label' in field ? { label: field.label as string | undefined } : {}),
				fixed: field.fixed as boolean,
				value: field.value as string,
			})),
		},
	};
}

export type PassField = z.infer<typeof passFieldSchema>;
export type Pass = z.infer<typeof passSchema>;
