/** The wallet passes: a batch's checks, its per-pass results and their store. */
import { HttpError, badRequest, isPlainObject, notFound } from './http';

/**
 * Sandbox choice (spec: not shown): field placements. The spec names only BACK ("one of 4 kinds
 * depending on pass type"); the other four are the Apple Wallet field groups. The sandbox accepts
 * all five, exact uppercase, for every template; an unknown place refuses that pass alone.
 */
export const PASS_PLACES = ['HEADER', 'PRIMARY', 'SECONDARY', 'AUXILIARY', 'BACK'] as const;
export type PassPlace = (typeof PASS_PLACES)[number];

/**
 * Sandbox choice (spec: not shown): most passes one POST .../passes/batch may hold. The spec shows
 * no limit; the node does not assume this one (its Batch Size goes to 10,000, default 100).
 */
export const PASS_BATCH_MAX = 500;

/** A field object of `uniqueValues.fields`, stored exactly as received (extra keys included). */
export interface PassField {
	place: string;
	label?: string;
	fixed: boolean;
	value: string;
	[key: string]: unknown;
}

/** A stored pass, as Sandbox.walletPasses() returns it. */
export interface WalletPass {
	serial: string;
	recipientId: string;
	/** Exactly as received (deep copy). */
	fields: PassField[];
	/** ISO 8601 UTC with milliseconds and `Z`. */
	createdAt: string;
}

/** Element of `items` in the batch answer (the spec's Wallet pass result). */
export interface PassResult {
	recipientId: string;
	url: string;
}

export type PassErrorCode = 'RECIPIENT_ALREADY_HAS_PASS' | 'INVALID_PLACE';

/** Element of `errors` in the batch answer: a pass that was refused (the others are created). */
export interface PassError {
	recipientId: string;
	code: PassErrorCode;
	message: string;
}

/** One validated element of `items`. */
export interface PassRequest {
	index: number;
	recipientId: string;
	fields: PassField[];
}

/** Passes of every template, keyed by (serial, recipientId), in creation order. */
export class PassStore {
	private readonly passes = new Map<string, WalletPass>();

	reset(): void {
		this.passes.clear();
	}

	has(serial: string, recipientId: string): boolean {
		return this.passes.has(passKey(serial, recipientId));
	}

	get(serial: string, recipientId: string): WalletPass | undefined {
		const pass = this.passes.get(passKey(serial, recipientId));
		return pass && copy(pass);
	}

	/**
	 * Stores `fields` itself, not a copy: the caller hands them over (a request's freshly parsed
	 * body, or a copy it made). Two deep copies per pass cost the batch endpoint as much as the rest
	 * of its work (60 of 160 ms per 10,000 passes), which a benchmark then charged to the node.
	 */
	add(
		serial: string,
		recipientId: string,
		fields: PassField[],
		createdAt = new Date().toISOString(),
	): void {
		this.passes.set(passKey(serial, recipientId), { serial, recipientId, fields, createdAt });
	}

	all(serial?: string): WalletPass[] {
		return [...this.passes.values()]
			.filter((pass) => serial === undefined || pass.serial === serial)
			.map(copy);
	}
}

const passKey = (serial: string, recipientId: string) => JSON.stringify([serial, recipientId]);
const copy = (pass: WalletPass): WalletPass => structuredClone(pass);
const show = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));

/**
 * Validates the whole batch body; the first problem is a 400 naming its JSON path. Place values
 * are only checked to be non-empty strings here: an unknown place refuses that pass alone.
 */
export function parseBatch(body: unknown): PassRequest[] {
	if (!isPlainObject(body)) throw badRequest('Body must be a JSON object with items');
	const { items } = body;
	if (items === undefined || items === null) throw badRequest('items is required');
	if (!Array.isArray(items)) throw badRequest(`items must be an array (got ${show(items)})`);
	// Sandbox choice (spec: not shown): an empty items array is refused, as are more than
	// PASS_BATCH_MAX.
	if (items.length === 0) throw badRequest('items must not be empty');
	if (items.length > PASS_BATCH_MAX)
		throw badRequest(`items must hold at most ${PASS_BATCH_MAX} passes (got ${items.length})`);

	const seen = new Map<string, number>();
	return items.map((item, index) => {
		const path = `items[${index}]`;
		if (!isPlainObject(item))
			throw badRequest(`${path} must be an object with recipientId and uniqueValues`);
		const recipientId = requireRecipientId(item.recipientId, `${path}.recipientId`);
		const first = seen.get(recipientId);
		if (first !== undefined) {
			// Sandbox choice (spec: not shown): a repeat refuses the whole request (the rule itself is
			// spec §8).
			throw badRequest(
				`${path}.recipientId ${JSON.stringify(recipientId)} repeats items[${first}].recipientId; recipientId must be different for each pass`,
			);
		}
		seen.set(recipientId, index);
		const { uniqueValues } = item;
		if (uniqueValues === undefined || uniqueValues === null)
			throw badRequest(`${path}.uniqueValues is required`);
		if (!isPlainObject(uniqueValues))
			throw badRequest(`${path}.uniqueValues must be an object (got ${show(uniqueValues)})`);
		const fields = parseFields(uniqueValues.fields, `${path}.uniqueValues.fields`);
		return { index, recipientId, fields };
	});
}

/** Sandbox choice (spec: not shown): a recipientId of spaces only is refused. */
export function requireRecipientId(value: unknown, path: string): string {
	if (value === undefined || value === null || value === '')
		throw badRequest(`${path} is required`);
	if (typeof value !== 'string') throw badRequest(`${path} must be a string (got ${show(value)})`);
	if (value.trim() === '') throw badRequest(`${path} must not be blank`);
	return value;
}

/**
 * `fields` must be an array of field objects; `value` is kept byte for byte.
 * Sandbox choice (spec: not shown): `fields` may be empty, `label` must be a string when present
 * (null refused), `value` may be ''.
 */
export function parseFields(fields: unknown, path: string): PassField[] {
	if (fields === undefined || fields === null) throw badRequest(`${path} is required`);
	if (!Array.isArray(fields)) throw badRequest(`${path} must be an array (got ${show(fields)})`);
	fields.forEach((field, j) => {
		const at = `${path}[${j}]`;
		if (!isPlainObject(field))
			throw badRequest(`${at} must be an object with place, fixed and value`);
		if (field.place === undefined || field.place === null || field.place === '')
			throw badRequest(`${at}.place is required`);
		if (typeof field.place !== 'string')
			throw badRequest(`${at}.place must be a string (got ${show(field.place)})`);
		if (field.label !== undefined && typeof field.label !== 'string')
			throw badRequest(`${at}.label must be a string when given (got ${show(field.label)})`);
		if (field.fixed === undefined || field.fixed === null)
			throw badRequest(`${at}.fixed is required`);
		if (typeof field.fixed !== 'boolean')
			throw badRequest(`${at}.fixed must be a boolean (got ${show(field.fixed)})`);
		if (field.value === undefined || field.value === null)
			throw badRequest(`${at}.value is required`);
		if (typeof field.value !== 'string')
			throw badRequest(`${at}.value must be a string (got ${show(field.value)})`);
	});
	return fields as PassField[];
}

/** Index of the first field whose place is not one of PASS_PLACES, or -1. */
export const invalidPlaceIndex = (fields: PassField[]) =>
	fields.findIndex((field) => !(PASS_PLACES as readonly string[]).includes(field.place));

export const invalidPlaceMessage = (path: string, place: string) =>
	`${path}.place ${JSON.stringify(place)} is not one of ${PASS_PLACES.join(', ')}`;

export const alreadyHasPassMessage = (recipientId: string, serial: string) =>
	`Recipient ${recipientId} already has a pass of template ${serial}`;

export const templateNotFound = (serial: string) =>
	notFound(`Wallet template ${serial} not found`, 'TEMPLATE_NOT_FOUND');

export const passNotFound = (serial: string, recipientId: string) =>
	notFound(`No pass of wallet template ${serial} for recipient ${recipientId}`, 'PASS_NOT_FOUND');

/** The download body: a small deterministic JSON text standing in for the .pkpass archive. */
export function passFile(pass: WalletPass): Buffer {
	const { serial, recipientId, createdAt, fields } = pass;
	const content = {
		sandboxPass: true,
		note: 'Sandbox stand-in for a wallet pass: JSON text, not a real .pkpass (zip) archive',
		serial,
		recipientId,
		createdAt,
		fields,
	};
	return Buffer.from(JSON.stringify(content), 'utf8');
}

/**
 * `<serial>-<recipientId>.pkpass` with anything but letters, digits, `.`, `_`, `-` replaced by `_`.
 */
export const passFileName = (pass: WalletPass) =>
	`${`${pass.serial}-${pass.recipientId}`.replace(/[^A-Za-z0-9._-]/g, '_')}.pkpass`;

export const unsupportedPassBody = (contentType: string | undefined) =>
	new HttpError(
		415,
		'UNSUPPORTED_MEDIA_TYPE',
		`Pass creation expects Content-Type application/json;charset=UTF-8 (got ${contentType ?? 'no content type'})`,
	);
