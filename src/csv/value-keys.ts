/** The forms in which a unique column's values are compared for repeats, from text or bytes. */
import { e164DigitsProblem, quoted } from '../base';
import { bytesHash, MARKS } from './repeats';

const EMAIL = /^[^\s@,;"<>]+@[^\s@,;"<>]+\.[^\s@,;"<>]+$/;
const PHONE_SEPARATORS = /[\s().-]/g;

const PLAIN_E164 = /^\+[1-9]\d{6,14}$/;

/** A value's problem (a value that passes gives its form as compared for repeats instead). */
interface ValueProblem {
	problem: string;
}

/** An e-mail value as compared for repeats (as written), or its problem. */
export const emailKey = (value: string): string | ValueProblem =>
	EMAIL.test(value) ? value : { problem: `${quoted(value)} is not an e-mail address` };

/** A mobile as compared for repeats, + and digits ("0033 6 12…" is "+33612…"), or its problem. */
export function mobileKey(value: string): string | ValueProblem {
	if (PLAIN_E164.test(value)) return value;
	let compact = value.replace(PHONE_SEPARATORS, '');
	if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
	if (!compact.startsWith('+'))
		return {
			problem: /[a-z]/i.test(compact)
				? `${quoted(value)} is not a phone number`
				: `${quoted(value)} has no country code: write it in international form, e.g. +33612345678`,
		};
	const problem = e164DigitsProblem(compact.slice(1), value);
	return problem ? { problem } : compact;
}

/** A value as compared for repeats: trimmed, in `key`'s form, or its problem ('' if empty). */
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

/** The 256 bytes, 1 if refused: those past ASCII, and those in `codes` (all others if allBut). */
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

/** An ASCII e-mail EMAIL takes (one '@' after a character, then a dot between two), hashed. */
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
 * A unique column's value read from its bytes (not empty, no space at either end), no string made:
 * true when they are its compared form in ASCII (per EMAIL, PLAIN_E164, or plain), hashes in HASH;
 * false otherwise (a problem, a mobile to reformat, past ASCII): comparedValue decides then.
 */
export type KeyInBytes = (bytes: Uint8Array, start: number, end: number) => boolean;

export const KEY_IN_BYTES: Record<'email' | 'mobile' | 'plain', KeyInBytes> = {
	email: emailHash,
	mobile: plainE164Hash,
	plain: (bytes, start, end) => bytesHash(bytes, start, end, PAST_ASCII, NO_MARK),
};
