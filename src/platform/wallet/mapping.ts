/** Wallet: parameters and input items to passes, template queries, the batch's outcomes. */
import type { Pass } from './schema';
import { entries, kind, oneOf, rawText, requiredText, text } from '../../base/coerce';
import { InputError, quoted } from '../../base/input-errors';
import { platformMessage } from '../error-message';

const SORT_FIELD = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** The Sort rules to the spec's `sort` query: comma-separated fields, each prefixed + or -. */
export function templateSort(rules: unknown): string | undefined {
	const terms: string[] = [];
	entries({ rule: rules }, 'sort', 'rule').forEach((rule, index) => {
		const field = text(rule.field, `sort.${index}.field`);
		if (!field) return;
		if (!SORT_FIELD.test(field))
			throw new InputError(
				`sort.${index}.field`,
				`${quoted(field)} is not a field name (letters, digits and _ only)`,
			);
		const direction =
			rule.direction === undefined
				? 'ascending'
				: oneOf(rule.direction, `sort.${index}.direction`, ['ascending', 'descending'] as const);
		terms.push(`${direction === 'descending' ? '-' : '+'}${field}`);
	});
	return terms.length ? terms.join(',') : undefined;
}

/** The chosen template fields to the spec's `select` query. */
export function templateSelect(fields: string[]): string | undefined {
	return fields.length ? fields.join(',') : undefined;
}

/** A pass field's place: the one picked, or the custom one typed when Custom is picked. */
function fieldPlace(field: Record<string, unknown>, path: string): string {
	const place = text(field.place, `${path}.place`);
	return place === 'custom' ? text(field.customPlace, `${path}.place`) : place;
}

/** An input item's parameters to a pass of the batch body; fields are per pass (`fixed: false`). */
export function passFromParameters(recipientId: unknown, fields: unknown): Record<string, unknown> {
	return {
		recipientId: text(recipientId, 'recipientId'),
		uniqueValues: {
			fields: entries({ field: fields }, 'uniqueValues.fields', 'field').map((field, index) => {
				const path = `uniqueValues.fields.${index}`;
				const place = fieldPlace(field, path);
				const label = rawText(field.label, `${path}.label`);
				return {
					place,
					...(label !== '' ? { label } : {}),
					fixed: false,
					value: rawText(field.value, `${path}.value`),
				};
			}),
		},
	};
}

/** A pass field of "From Input Item Fields": its place, label, and the input field of its value. */
interface PassFieldSource {
	place: string;
	label?: string;
	inputField: string;
}

/** The Fields of "From Input Item Fields" (the `field` entries), checked once for the run. */
export function passFieldSources(fields: unknown): PassFieldSource[] {
	return entries({ field: fields }, 'uniqueValues.fields', 'field').map((field, index) => {
		const path = `uniqueValues.fields.${index}`;
		const place = fieldPlace(field, path);
		if (!place)
			throw new InputError(`${path}.place`, 'every field needs a place, for example BACK');
		const label = rawText(field.label, `${path}.label`);
		const inputField = requiredText(
			field.inputField,
			`${path}.inputField`,
			'the name of the input field holding the value',
		);
		return { place, ...(label !== '' ? { label } : {}), inputField };
	});
}

/** An item field as text (a number or true/false too); missing, empty or an object: an error. */
function itemText(json: Record<string, unknown>, name: string, field: string): string {
	const value = json[name];
	if (value === undefined || value === null)
		throw new InputError(field, `the input item has no field "${name}"`);
	if (typeof value === 'object' || (typeof value === 'number' && !Number.isFinite(value))) {
		throw new InputError(
			field,
			`the input item's field "${name}" holds ${kind(value)}; text, a number or true/false was expected`,
		);
	}
	const result = String(value);
	if (!result.trim()) throw new InputError(field, `the input item's field "${name}" is empty`);
	return result;
}

/** An input item to a pass of the batch body, read by field name: no expression per item. */
export function passFromItem(
	json: Record<string, unknown>,
	recipientField: string,
	sources: PassFieldSource[],
): Pass {
	return {
		recipientId: itemText(json, recipientField, 'recipientIdField').trim(),
		uniqueValues: {
			fields: sources.map((source, index) => ({
				place: source.place,
				...(source.label !== undefined ? { label: source.label } : {}),
				fixed: false,
				value: itemText(json, source.inputField, `uniqueValues.fields.${index}.inputField`),
			})),
		},
	};
}

interface PassOutcome {
	url?: string;
	error?: string;
	details?: unknown;
}

/**
 * Matches the batch answer to the passes sent by recipientId, never by position. A pass missing
 * from `items` failed, with the message of an `errors` entry or its item's `error` when given.
 */
export function passOutcomes(
	passes: Pass[],
	body: { items: Array<Record<string, unknown>>; errors: unknown[] },
): Map<string, PassOutcome> {
	const outcomes = new Map<string, PassOutcome>();
	for (const item of body.items) {
		const recipientId = String(item.recipientId);
		const failure = item.error ?? item.errors;
		if (typeof item.url === 'string' && item.url && !failure)
			outcomes.set(recipientId, { url: item.url });
		else if (failure)
			outcomes.set(recipientId, {
				error: platformMessage({ error: failure }) ?? 'the platform refused this pass',
				details: item,
			});
	}
	for (const entry of body.errors) {
		const recipientId = (entry as Record<string, unknown> | null)?.recipientId;
		if (recipientId === undefined || outcomes.get(String(recipientId))?.url) continue;
		outcomes.set(String(recipientId), {
			error: platformMessage(entry) ?? 'the platform refused this pass',
			details: entry,
		});
	}
	for (const pass of passes) {
		if (!outcomes.has(pass.recipientId))
			outcomes.set(pass.recipientId, { error: 'the platform returned no pass for this recipient' });
	}
	return outcomes;
}
