import { text as readText } from './coerce';
import { InputError } from './input-errors';

/**
 * The phone-number rule, one for the whole package: ITU-T E.164, a country code then the
 * subscriber number, at most 15 digits in all, the first (the country code's) never 0.
 * E.164 sets no minimum; the shortest numbers in real use have 7 digits with their country
 * code (Niue +683 4002, Tokelau +690 3xxx), so fewer than 7 digits is a typo, a short code or a
 * number without its country code, and is refused before anything is sent. The sandbox
 * (test/sandbox/checks.tsx) applies the same numbers; a unit test keeps them equal.
 */
export const E164_MIN_DIGITS = 7;
export const E164_MAX_DIGITS = 15;
/** The rule as the errors state it. */
export const E164_RULE = `a phone number has ${E164_MIN_DIGITS} to ${E164_MAX_DIGITS} digits including the country code`;
/** E.164 as sent to the platform: + then 7 to 15 digits, the first not 0. */
export const E164 = new RegExp(`^\\+[1-9]\\d{${E164_MIN_DIGITS - 1},${E164_MAX_DIGITS - 1}}$`);
/** The same number without its + (how a sender is named in a message's `from`). */
export const E164_DIGITS = new RegExp(`^[1-9]\\d{${E164_MIN_DIGITS - 1},${E164_MAX_DIGITS - 1}}$`);

/**
 * Why `digits` (digits only, no +) break the rule, as an error naming `shown`; undefined when they
 * follow it.
 */
export function e164DigitsProblem(digits: string, shown: string): string | undefined {
	const quoted = JSON.stringify(shown);
	if (!/^\d*$/.test(digits))
		return `${quoted} is not a phone number: it contains ${JSON.stringify(/\D/.exec(digits)?.[0])}`;
	if (digits.startsWith('0'))
		return `${quoted} is not a valid international phone number (+, then up to ${E164_MAX_DIGITS} digits, the first not 0)`;
	if (digits.length < E164_MIN_DIGITS || digits.length > E164_MAX_DIGITS) {
		return `${quoted} has ${digits.length} digit${digits.length === 1 ? '' : 's'}; ${E164_RULE}`;
	}
	return undefined;
}

const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * The value of a decimal digit of any script. Unicode encodes every script's decimal digits as
 * a contiguous run from 0 to 9 (a stability guarantee), so the value is the distance from the
 * start of the run, modulo 10 for runs holding several sets.
 */
function digitValue(digit: string): string {
	const code = digit.codePointAt(0) ?? 0;
	let start = code;
	while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
	return String((code - start) % 10);
}

/**
 * Phone text in ASCII before it is read. NFKC turns full-width digits, plus, parentheses and
 * spaces ("＋３３ ６１２…", typed with a CJK input method) into ASCII. Decimal digits of other
 * scripts (Arabic-Indic "٣٣", Persian, Devanagari…), which NFKC leaves as they are, are read by
 * their digit value, as libphonenumber does: a decimal digit means the same number whatever its
 * script, so the number sent is the one the user wrote. Letters of any script stay letters.
 */
export function asciiPhoneText(text: string): string {
	return text
		.normalize('NFKC')
		.replace(/\p{Nd}/gu, (digit) => (digit >= '0' && digit <= '9' ? digit : digitValue(digit)));
}

/**
 * Spaces (any), parentheses, dots, slashes, dashes (any) and the minus sign between the digits of a
 * written number.
 */
const SEPARATORS = /[\s()./\p{Pd}\u2212]/gu;
const LETTER = /\p{L}/u;

/**
 * A phone number in a common written form ("+33 6 12 34 56 78", "0033 612-345-678",
 * "+1 (555) 010-0100", "+683 4002", full-width or Arabic-Indic digits) as E.164: + then 7 to 15
 * digits, the first not 0 (see E164_MIN_DIGITS). A number without its country code (+ or 00)
 * cannot be made E.164 and is refused, as are letters.
 */
export function toE164(value: unknown, field: string): string {
	const text = readText(value, field);
	if (!text) throw new InputError(field, 'a phone number is required');
	const ascii = asciiPhoneText(text);
	if (LETTER.test(ascii))
		throw new InputError(field, `"${text}" is not a phone number: it contains letters`);
	let compact = ascii.replace(SEPARATORS, '');
	if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
	if (!compact.startsWith('+')) {
		throw new InputError(
			field,
			`"${text}" has no country code: write it in international form, e.g. +33612345678`,
		);
	}
	const problem = e164DigitsProblem(compact.slice(1), text);
	if (problem) throw new InputError(field, problem);
	return compact;
}

/**
 * A sender's number as a message's `from` takes it: the E.164 digits without +. The number is
 * always international here, so the + (or 00) is optional; the rule is the one of toE164.
 */
export function toE164Digits(
	value: unknown,
	field: string,
	required = 'a phone number is required',
): string {
	const text = readText(value, field);
	if (!text) throw new InputError(field, required);
	const ascii = asciiPhoneText(text);
	if (LETTER.test(ascii))
		throw new InputError(field, `"${text}" is not a phone number: it contains letters`);
	const digits = ascii.replace(SEPARATORS, '').replace(/^(\+|00)/, '');
	const problem = e164DigitsProblem(digits, text);
	if (problem) throw new InputError(field, problem);
	return digits;
}

/**
 * Whitespace of any kind (line breaks, tabs, no-break spaces: what a spreadsheet cell or a form
 * field often ends with) and invisible zero-width characters around an e-mail address.
 */
const AROUND_EMAIL = /^[\s\u200B-\u200D\u2060\uFEFF]+|[\s\u200B-\u200D\u2060\uFEFF]+$/g;

/** An e-mail value without the whitespace around it (text of any other type is left as it is). */
export function trimEmail<T>(value: T): T {
	return (typeof value === 'string' ? value.replace(AROUND_EMAIL, '') : value) as T;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * An e-mail address, trimmed of the whitespace around it ("ada@example.com\n"); whitespace inside
 * stays an error.
 */
export function toEmail(value: unknown, field: string): string {
	const text = trimEmail(readText(value, field));
	if (!text) throw new InputError(field, 'an e-mail address is required');
	if (!EMAIL.test(text) || /[\u200B-\u200D\u2060\uFEFF]/.test(text))
		throw new InputError(field, `"${text}" is not an e-mail address`);
	return text;
}
