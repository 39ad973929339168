import { e164DigitsProblem } from '../base/addresses';
import { bytesHash, MARKS } from './repeats';

const EMAIL = /^[^\s@,;"<>]+@[^\s@,;"<>]+\.[^\s@,;"<>]+$/;
const PHONE_SEPARATORS = /[\s().-]/g;

const PLAIN_E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A problem of one value (a value that passes gives the form in which repeats are compared
 * instead).
 */
interface ValueProblem {
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

/** A table of the 256 bytes refused (1): those past ASCII, and those of `refused` (or all others). */
function refusing(codes: string, allBut = false): Uint8Array {
	const table = new Uint8Array(256);
	for (let code = 0; code < 256; code++)
		table[code] = code >= 0x80 || codes.includes(String.fromCharCode(code)) !== allBut ? 1 : 0;
	return table;
}

/** What an e-mail may not hold: the EMAIL pattern's \s , ; " < > ('@' is counted). */
const NOT_IN_EMAIL = refusing('\t\n\v\f\r ,;"<>');
const NOT_IN_MOBILE = refusing('+0123456789', true);
const PAST_ASCII = refusing('');
const NO_MARK = -1;

/**
 * An e-mail as EMAIL takes one, in ASCII (false for the others: EMAIL decides): one '@' after a
 * character, then a dot with a character on each side; hashed.
 */
function emailHash(bytes: Uint8Array, start: number, end: number): boolean {
	if (!bytesHash(bytes, start, end, NOT_IN_EMAIL, 0x40)) return false;
	const at = MARKS[1];
	if (MARKS[0] !== 1 || at === start) return false;
	for (let i = at + 2; i < end - 1; i++) if (bytes[i] === 0x2e) return true;
	return false;
}

/** A mobile as PLAIN_E164 takes one: '+', a digit 1 to 9, then digits, 8 to 16 in all; hashed. */
function plainE164Hash(bytes: Uint8Array, start: number, end: number): boolean {
	const length = end - start;
	if (length < 8 || length > 16 || bytes[start + 1] < 0x31 || bytes[start + 1] > 0x39) return false;
	return bytesHash(bytes, start, end, NOT_IN_MOBILE, 0x2b) && MARKS[0] === 1 && MARKS[1] === start;
}

/**
 * A unique column's value read from its bytes in the file (from `start` to `end`: not empty, no
 * space at either end), without a string made for it (the check's fast way): true when
 * the bytes are, in ASCII, its value as compared (an e-mail EMAIL takes, a mobile PLAIN_E164
 * takes, or any value of a plain column), its hashes then in HASH; false otherwise (a problem, a
 * mobile to put in international form, a character past ASCII): comparedValue decides, and gives
 * the value the same hashes.
 */
export type KeyInBytes = (bytes: Uint8Array, start: number, end: number) => boolean;

export const KEY_IN_BYTES: Record<'email' | 'mobile' | 'plain', KeyInBytes> = {
	email: emailHash,
	mobile: plainE164Hash,
	plain: (bytes, start, end) => bytesHash(bytes, start, end, PAST_ASCII, NO_MARK),
};
