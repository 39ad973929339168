import type { Pass } from '../schemas/wallet';
import { platformMessage } from '../errors';

export interface SortParameter {
	field?: string;
	direction?: 'ascending' | 'descending';
}

/** The editor's sort rules to the spec's `sort` query: comma-separated fields prefixed + or -. */
export function templateSort(rules: SortParameter[]): string | undefined {
	const terms = rules
		.filter((rule) => rule.field && rule.field.trim())
		.map((rule) => `${rule.direction === 'descending' ? '-' : '+'}${(rule.field as string).trim()}`);
	return terms.length ? terms.join(',') : undefined;
}

/** The chosen template fields to the spec's `select` query. */
export function templateSelect(fields: string[] | undefined): string | undefined {
	return fields && fields.length ? fields.join(',') : undefined;
}

export interface PassFieldParameter {
	place?: string;
	customPlace?: string;
	label?: string;
	value?: unknown;
}

/** One input item's parameters to a pass of the batch body; fields are per-pass (`fixed: false`). */
export function passFromParameters(recipientId: unknown, fields: PassFieldParameter[]): Record<string, unknown> {
	return {
		recipientId: typeof recipientId === 'number' ? String(recipientId) : recipientId,
		uniqueValues: {
			fields: fields.map((field) => {
				const place = field.place === 'custom' ? field.customPlace : field.place;
				return {
					place,
					...(field.label !== undefined && field.label !== '' ? { label: field.label } : {}),
					fixed: false,
					value: typeof field.value === 'number' || typeof field.value === 'boolean' ? String(field.value) : field.value,
				};
			}),
		},
	};
}

export interface PassOutcome {
	url?: string;
	error?: string;
	details?: unknown;
}

/**
 * Matches the batch response to the passes sent, by recipientId (never by position). A pass
 * missing from `items` failed: its message comes from an `errors` entry naming the recipient,
 * or from an `error` on its own item, when the platform gives one.
 */
export function passOutcomes(passes: Pass[], body: { items: Array<Record<string, unknown>>; errors: unknown[] }): Map<string, PassOutcome> {
	const outcomes = new Map<string, PassOutcome>();
	for (const item of body.items) {
		const recipientId = String(item.recipientId);
		const failure = item.error ?? item.errors;
		if (typeof item.url === 'string' && item.url && !failure) outcomes.set(recipientId, { url: item.url });
		else if (failure) outcomes.set(recipientId, { error: platformMessage({ error: failure }) ?? 'the platform refused this pass', details: item });
	}
	for (const entry of body.errors) {
		const recipientId = (entry as Record<string, unknown> | null)?.recipientId;
		if (recipientId === undefined || outcomes.get(String(recipientId))?.url) continue;
		outcomes.set(String(recipientId), { error: platformMessage(entry) ?? 'the platform refused this pass', details: entry });
	}
	for (const pass of passes) {
		if (!outcomes.has(pass.recipientId)) outcomes.set(pass.recipientId, { error: 'the platform returned no pass for this recipient' });
	}
	return outcomes;
}
