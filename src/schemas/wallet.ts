import { z } from 'zod';

/** Placement of a pass field; the spec names only BACK (the back side) and says there are four kinds. */
export const PASS_PLACE_BACK = 'BACK';

export const templateSerialSchema = z
	.union([z.string(), z.number()])
	.transform((value) => String(value).trim())
	.pipe(z.string().min(1, 'a wallet template serial is required'));

export const passFieldSchema = z.object({
	place: z.string({ required_error: 'every field needs a place, for example BACK' }).trim().min(1, 'every field needs a place, for example BACK'),
	label: z.string().optional(),
	fixed: z.boolean(),
	// Sent exactly as given: it may hold an HTML anchor the wallet renders as a link.
	value: z
		.string({ required_error: 'every field needs a value', invalid_type_error: 'a field value must be text' })
		.refine((value) => value.trim().length > 0, 'every field needs a value'),
});

export const passSchema = z.object({
	recipientId: z
		.string({ required_error: 'a pass needs a recipient ID', invalid_type_error: 'a recipient ID must be text' })
		.trim()
		.min(1, 'a pass needs a recipient ID'),
	uniqueValues: z.object({ fields: z.array(passFieldSchema) }),
});

/** Response of the pass batch: `items` of created passes; per-pass failures are not shown by the spec, so any extra shape is kept. */
export const passBatchResultSchema = z
	.object({
		items: z.array(z.object({ recipientId: z.string(), url: z.string().optional() }).passthrough()).default([]),
		errors: z.array(z.unknown()).nullish().transform((value) => value ?? []),
	})
	.passthrough();

export type PassField = z.infer<typeof passFieldSchema>;
export type Pass = z.infer<typeof passSchema>;
export type PassBatchResult = z.infer<typeof passBatchResultSchema>;
