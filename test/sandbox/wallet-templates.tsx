/** Wallet templates: the record, its defaults and input rules, and the list's sort and select. */
import { badRequest, isPlainObject } from './http';

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
export function compareBy(a: WalletTemplate, b: WalletTemplate, keys: SortKey[]): number {
	for (const { field, direction } of keys) {
		const order =
			field === 'creationDate'
				? Date.parse(a[field]) - Date.parse(b[field])
				: compareValues(a[field], b[field]);
		if (order !== 0) return order * direction;
	}
	return 0;
}

export function pick(template: WalletTemplate, fields: TemplateField[]): Partial<WalletTemplate> {
	const item: Record<string, unknown> = {};
	for (const field of fields) item[field] = template[field];
	return item as Partial<WalletTemplate>;
}

/** A stored template from seed input; 400 HttpError on an invalid field or a serial in use. */
export function toTemplate(input: unknown, existing: WalletTemplate[]): WalletTemplate {
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
