import { e164DigitsProblem } from '../values/addresses';
import { asciiBytesHash } from './repeats';

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

/** What an e-mail may not hold (the EMAIL pattern's \s , ; " < >), '@' apart, by ASCII code. */
const NOT_IN_EMAIL = new Uint8Array(128);
for (const char of '\t\n\v\f\r ,;"<>') NOT_IN_EMAIL[char.charCodeAt(0)] = 1;

/**
 * Whether `bytes` from `start` to `end` (not empty, no space at either end) are an e-mail as EMAIL
 * takes one, in ASCII (false for the others: EMAIL decides): one '@' after a character, then a
 * dot with a character on each side.
 */
function asciiEmail(bytes: Uint8Array, start: number, end: number): boolean {
	let at = -1;
	let dot = false;
	for (let i = start; i < end; i++) {
		const code = bytes[i];
		if (code >= 0x80 || NOT_IN_EMAIL[code] === 1) return false;
		if (code === 0x40) {
			if (at !== -1) return false;
			at = i;
		} else if (code === 0x2e && at !== -1 && i > at + 1 && i < end - 1) dot = true;
	}
	return at > start && dot;
}

/** Whether `bytes` from `start` to `end` are a mobile as PLAIN_E164 takes one. */
function plainE164(bytes: Uint8Array, start: number, end: number): boolean {
	const length = end - start;
	if (length < 8 || length > 16 || bytes[start] !== 0x2b) return false;
	if (bytes[start + 1] < 0x31 || bytes[start + 1] > 0x39) return false;
	for (let i = start + 2; i < end; i++) if (bytes[i] < 0x30 || bytes[i] > 0x39) return false;
	return true;
}

/**
 * A unique column's value read from its bytes in the file (from `start` to `end`: not empty, no
 * space at either end), without a string made for it (the check's fast way, issue 50): true when
 * the bytes are, in ASCII, its value as compared (an e-mail EMAIL takes, a mobile PLAIN_E164
 * takes, or any value of a plain column), its hashes then in HASH; false otherwise (a problem, a
 * mobile to put in international form, a character past ASCII): comparedValue decides, and gives
 * the value the same hashes.
 */
export type KeyInBytes = (bytes: Uint8Array, start: number, end: number) => boolean;

export const KEY_IN_BYTES: Record<'email' | 'mobile' | 'plain', KeyInBytes> = {
	email: (bytes, start, end) => asciiEmail(bytes, start, end) && asciiBytesHash(bytes, start, end),
	mobile: (bytes, start, end) => plainE164(bytes, start, end) && asciiBytesHash(bytes, start, end),
	plain: asciiBytesHash,
};
