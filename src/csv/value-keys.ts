import { e164DigitsProblem } from '../values/addresses';
import { asciiValueHash } from './repeats';

const EMAIL = /^[^\s@,;"<>]+@[^\s@,;"<>]+\.[^\s@,;"<>]+$/;
const PHONE_SEPARATORS = /[\s().-]/g;

const PLAIN_E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A problem of one value (a value that passes gives the form in which repeats are compared
 * instead).
 */
export interface ValueProblem {
	problem: string;
}

/** An e-mail value as compared for repeats (as written), or its problem. */
export const emailKey = (value: string): string | ValueProblem =>
	EMAIL.test(value) ? value : { problem: `"${value}" is not an e-mail address` };

/**
 * A mobile value as compared for repeats (international form: + and its digits, so that
 * "+33 6 12…" and "0033612…" are one number), or its problem: it must be international (+ or 00,
 * then the country code), as the platform's E.164.
 */
export function mobileKey(value: string): string | ValueProblem {
	if (PLAIN_E164.test(value)) return value;
	let compact = value.replace(PHONE_SEPARATORS, '');
	if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
	if (!compact.startsWith('+'))
		return {
			problem: /[a-z]/i.test(compact)
				? `"${value}" is not a phone number`
				: `"${value}" has no country code: write it in international form, e.g. +33612345678`,
		};
	const problem = e164DigitsProblem(compact.slice(1), value);
	return problem ? { problem } : compact;
}

/**
 * A field's value as compared for repeats: without the spaces around it, then in the form `key`
 * gives (emailKey, mobileKey), or its problem; '' when it is empty.
 */
export function comparedValue(
	field: string,
	key?: (value: string) => string | ValueProblem,
): string | ValueProblem {
	// trim() only when there is something to trim: it copies the value.
	const value =
		field.length && (field.charCodeAt(0) <= 32 || field.charCodeAt(field.length - 1) <= 32)
			? field.trim()
			: field;
	return value && key ? key(value) : value;
}

/**
 * How keyInText finds a value: nothing there; its value as compared as written, its hashes in
 * HASH; or to be read as a string (comparedValue decides).
 */
export const NO_VALUE = 0;
export const HASHED = 1;
export const AS_STRING = 2;

/** A table of the ASCII codes refused (1) among `codes`, or among all but `codes`. */
function refusedCodes(codes: string, allBut = false): Uint8Array {
	const table = new Uint8Array(128).fill(allBut ? 1 : 0);
	for (const char of codes) table[char.charCodeAt(0)] = allBut ? 0 : 1;
	return table;
}

/** What an e-mail may not hold (the EMAIL pattern's \s , ; " < >), '@' apart. */
const NOT_IN_EMAIL = refusedCodes('\t\n\v\f\r ,;"<>');
const NOT_IN_MOBILE = refusedCodes('+0123456789', true);
const NOTHING = refusedCodes('');

/**
 * Whether `text` from `start` to `end` (not empty, no space at either end) is an e-mail as EMAIL
 * takes one, in ASCII (false for the others: EMAIL decides), hashed if so: one '@' after a
 * character, then a dot with a character on each side.
 */
function emailHashed(text: string, start: number, end: number): boolean {
	const at = text.indexOf('@', start);
	if (at <= start || at >= end || text.lastIndexOf('@', end - 1) !== at) return false;
	const dot = text.indexOf('.', at + 2);
	if (dot === -1 || dot >= end - 1) return false;
	return asciiValueHash(text, start, end, NOT_IN_EMAIL);
}

/** Whether `text` from `start` to `end` is a mobile as PLAIN_E164 takes one, hashed if so. */
function plainE164Hashed(text: string, start: number, end: number): boolean {
	const length = end - start;
	if (length < 8 || length > 16 || text.charCodeAt(start) !== 43) return false;
	const first = text.charCodeAt(start + 1);
	if (first < 49 || first > 57 || text.lastIndexOf('+', end - 1) !== start) return false;
	return asciiValueHash(text, start, end, NOT_IN_MOBILE);
}

/**
 * A unique column's value read where it is in the file's text, without a string made for it (the
 * check's fast way, issue 50): HASHED when the text is, in ASCII, its value as compared (no spaces
 * to trim; an e-mail EMAIL takes, a mobile PLAIN_E164 takes, or any value of a plain column), its
 * hashes then in HASH; NO_VALUE when there is nothing; AS_STRING otherwise (spaces around it, a
 * problem, a mobile to put in international form, a character past ASCII): comparedValue decides.
 * Both ways give a value the same hashes.
 */
export function keyInText(
	text: string,
	start: number,
	end: number,
	kind: 'email' | 'mobile' | 'plain',
): number {
	if (start === end) return NO_VALUE;
	if (text.charCodeAt(start) <= 32 || text.charCodeAt(end - 1) <= 32) return AS_STRING;
	const hashed =
		kind === 'email'
			? emailHashed(text, start, end)
			: kind === 'mobile'
				? plainE164Hashed(text, start, end)
				: asciiValueHash(text, start, end, NOTHING);
	return hashed ? HASHED : AS_STRING;
}
