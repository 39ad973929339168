import { text as readText } from '../coerce';
import { InputError } from '../errors';

const SEPARATORS = /[\s().\-/]/g;

/** ITU-T E.164: + then at most 15 digits, the country code not starting with 0. */
export const E164 = /^\+[1-9]\d{0,14}$/;

/**
 * A phone number in a common written form ("+33 6 12 34 56 78", "0033 612-345-678",
 * "+1 (555) 010-0100", "+683 4002") as E.164: + then 1 to 15 digits, the first not 0 (ITU-T
 * E.164 sets a maximum, no minimum). A number without its country code (+ or 00) cannot be made
 * E.164 and is refused, as are letters.
 */
export function toE164(value: unknown, field: string): string {
	const text = readText(value, field);
	if (!text) throw new InputError(field, 'a phone number is required');
	if (/[a-z]/i.test(text)) throw new InputError(field, `"${text}" is not a phone number: it contains letters`);
	let compact = text.replace(SEPARATORS, '');
	if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
	if (!compact.startsWith('+')) {
		throw new InputError(field, `"${text}" has no country code: write it in international form, e.g. +33612345678`);
	}
	if (!E164.test(compact)) {
		throw new InputError(field, `"${text}" is not a valid international phone number (+, then up to 15 digits, the first not 0)`);
	}
	return compact;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function toEmail(value: unknown, field: string): string {
	const text = readText(value, field);
	if (!text) throw new InputError(field, 'an e-mail address is required');
	if (!EMAIL.test(text)) throw new InputError(field, `"${text}" is not an e-mail address`);
	return text;
}
