/** Phone numbers (E.164) and e-mail addresses: the package's rules for both, and reading them. */
import { text as readText } from './coerce';
import { InputError, quoted } from './input-errors';

/**
 * The package's one phone-number rule, ITU-T E.164: at most 15 digits with the country code, the
 * first never 0, and at least 7 (none in use is shorter: Niue +683 4002), so a typo, short code or
 * missing country code is refused. test/sandbox/checks.tsx repeats these; a unit test checks it.
 */
export const E164_MIN_DIGITS = 7;
export const E164_MAX_DIGITS = 15;
export const E164_RULE = `a phone number has ${E164_MIN_DIGITS} to ${E164_MAX_DIGITS} digits including the country code`;
/** E.164 as sent to the platform: + then 7 to 15 digits, the first not 0. */
export const E164 = new RegExp(`^\\+[1-9]\\d{${E164_MIN_DIGITS - 1},${E164_MAX_DIGITS - 1}}$`);
/** The same number without its + (how a sender is named in a message's `from`). */
export const E164_DIGITS = new RegExp(`^[1-9]\\d{${E164_MIN_DIGITS - 1},${E164_MAX_DIGITS - 1}}$`);

/** Why `digits` (no +) break the rule, as an error naming `shown`; undefined when they don't. */
export function e164DigitsProblem(digits: string, shown: string): string | undefined {
	const said = quoted(shown, JSON.stringify);
	if (!/^\d*$/.test(digits))
		return `${said} is not a phone number: it contains ${JSON.stringify(/\D/.exec(digits)?.[0])}`;
	if (digits.startsWith('0'))
		return `${said} is not a valid international phone number (+, then up to ${E164_MAX_DIGITS} digits, the first not 0)`;
	if (digits.length < E164_MIN_DIGITS || digits.length > E164_MAX_DIGITS) {
		return `${said} has ${digits.length} digit${digits.length === 1 ? '' : 's'}; ${E164_RULE}`;
	}
	return undefined;
}

const DECIMAL_DIGIT = /\p{Nd}/u;

/** A decimal digit's value in any script: Unicode keeps each script's 0-9 contiguous (stable). */
function digitValue(digit: string): string {
	const code = digit.codePointAt(0) ?? 0;
	let start = code;
	while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
	return String((code - start) % 10);
}

/**
 * Phone text in ASCII: NFKC maps full-width forms (CJK input); other scripts' decimal digits
 * (Arabic-Indic…), which NFKC keeps, are read by value, as libphonenumber does. Letters stay.
 */
export function asciiPhoneText(text: string): string {
	return text
		.normalize('NFKC')
		.replace(/\p{Nd}/gu, (digit) => (digit >= '0' && digit <= '9' ? digit : digitValue(digit)));
}

/** Spaces, parentheses, dots, slashes, dashes (any) and minus signs between a number's digits. */
const SEPARATORS = /[\s()./\p{Pd}\u2212]/gu;
const LETTER = /\p{L}/u;

/** A written phone number ("+33 6 12 34 56 78", "0033 612-345-678") as E.164; needs + or 00. */
export function toE164(value: unknown, field: string): string {
	return `+${phoneDigits(value, field, 'a phone number is required', true)}`;
}

/** A `from` number: E.164 digits without +; always international, so + (or 00) is optional. */
export function toE164Digits(
	value: unknown,
	field: string,
	required = 'a phone number is required',
): string {
	return phoneDigits(value, field, required, false);
}

/** A phone number's digits after + or 00 (`international`: one is needed); `required`: if empty. */
function phoneDigits(
	value: unknown,
	field: string,
	required: string,
	international: boolean,
): string {
	const text = readText(value, field);
	if (!text) throw new InputError(field, required);
	const ascii = asciiPhoneText(text);
	if (LETTER.test(ascii))
		throw new InputError(field, `${quoted(text)} is not a phone number: it contains letters`);
	const compact = ascii.replace(SEPARATORS, '');
	const digits = compact.replace(/^(\+|00)/, '');
	if (international && digits === compact) {
		throw new InputError(
			field,
			`${quoted(text)} has no country code: write it in international form, e.g. +33612345678`,
		);
	}
	const problem = e164DigitsProblem(digits, text);
	if (problem) throw new InputError(field, problem);
	return digits;
}

/** Any whitespace (cells often end in a line break or no-break space) and zero-width characters. */
const AROUND_EMAIL = /^[\s\u200B-\u200D\u2060\uFEFF]+|[\s\u200B-\u200D\u2060\uFEFF]+$/g;

/** An e-mail value without the whitespace around it (text of any other type is left as it is). */
export function trimEmail<T>(value: T): T {
	return (typeof value === 'string' ? value.replace(AROUND_EMAIL, '') : value) as T;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An e-mail address, trimmed of the whitespace around it; whitespace inside stays an error. */
export function toEmail(value: unknown, field: string): string {
	const text = trimEmail(readText(value, field));
	if (!text) throw new InputError(field, 'an e-mail address is required');
	if (!EMAIL.test(text) || /[\u200B-\u200D\u2060\uFEFF]/.test(text))
		throw new InputError(field, `${quoted(text)} is not an e-mail address`);
	return text;
}
