import { e164DigitsProblem } from '../values/addresses';

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
