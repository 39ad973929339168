import { blacklistAddBody, blacklistLookupQuery } from '../../../../src/platform/blacklist/mapping';
import {
	E164,
	E164_DIGITS,
	E164_MAX_DIGITS,
	E164_MIN_DIGITS,
	asciiPhoneText,
	toE164,
	toE164Digits,
	toEmail,
	trimEmail,
} from '../../../../src/base/addresses';
import { blacklistAddRequestSchema } from '../../../../src/platform/blacklist/schema';
import {
	E164 as SANDBOX_E164,
	PHONE as SANDBOX_PHONE,
	PHONE_MAX_DIGITS,
	PHONE_MIN_DIGITS,
} from '../../../sandbox/checks';

describe('toE164', () => {
	it.each([
		['+33 6 12 34 56 78', '+33612345678'],
		['0033 612-345-678', '+33612345678'],
		['+1 (555) 010-0100', '+15550100100'],
		['+44.7700.900123', '+447700900123'],
		[' +4915112345678 ', '+4915112345678'],
		// E.164 sets no minimum; the shortest numbers in use have 7 digits: Niue's are 4 after +683.
		['+683 4002', '+6834002'],
		['+1234567', '+1234567'],
		['+123 456 789 012 345', '+123456789012345'],
		// Full-width digits, plus and spaces (a CJK input method) become ASCII (NFKC).
		['＋３３\u3000６１２３４５６７８', '+33612345678'],
		['+３３６１２３４５６７８', '+33612345678'],
		['（＋１）５５５－０１０－０１００', '+15550100100'],
		// Digits of other scripts are read by their value (NFKC leaves them): Arabic-Indic, Persian,
		// Devanagari.
		['+٣٣٦١٢٣٤٥٦٧٨', '+33612345678'],
		['۰۰۹۸ ۹۱۲ ۳۴۵ ۶۷۸۹', '+989123456789'],
		['+९१ ९८७६५ ४३२१०', '+919876543210'],
		// Any dash between digits: en dash, non-breaking hyphen, minus sign.
		['+33 6\u201312\u201134\u221256 78', '+33612345678'],
	])('writes %s as %s', (input, expected) => {
		expect(toE164(input, 'to')).toBe(expected);
	});

	it.each([
		['', /a phone number is required/],
		['06 12 34 56 78', /has no country code/],
		['+33 6 CALL ME', /contains letters/],
		['+33 6 ΑΒΓ', /contains letters/],
		['+0 123 456 789', /not a valid international phone number/],
		['+33 6 12 34 56 78 #2', /^"\+33 6 12 34 56 78 #2" is not a phone number: it contains "#"$/],
		[
			'+1234',
			/^"\+1234" has 4 digits; a phone number has 7 to 15 digits including the country code$/,
		],
		[
			'+3361',
			/^"\+3361" has 4 digits; a phone number has 7 to 15 digits including the country code$/,
		],
		['+683 400', /^"\+683 400" has 6 digits; /],
		['+1', /^"\+1" has 1 digit; /],
		[
			'+1234567890123456',
			/^"\+1234567890123456" has 16 digits; a phone number has 7 to 15 digits including the country code$/,
		],
		['＋１２３４', /^"＋１２３４" has 4 digits; /],
	])('refuses %j', (input, message) => {
		expect(() => toE164(input, 'to')).toThrow(message);
	});

	it('the regex sent numbers are checked with says the same', () => {
		expect(['+6834002', '+123456789012345'].map((value) => E164.test(value))).toEqual([true, true]);
		expect(
			['+683400', '+1234567890123456', '+0123456789', '6834002'].map((value) => E164.test(value)),
		).toEqual([false, false, false, false]);
	});
});

describe('toE164Digits (a sender number: digits, + optional)', () => {
	it.each([
		['+1 555-010-0100', '15550100100'],
		['0033 6 12 34 56 78', '33612345678'],
		['15550100100', '15550100100'],
		['+683 4002', '6834002'],
		['１５５５０１００１００', '15550100100'],
	])('%s → %s', (input, digits) => expect(toE164Digits(input, 'from')).toBe(digits));

	it.each([
		['ACME', /contains letters/],
		['+0 555 0100', /the first not 0/],
		[
			'+1234',
			/^"\+1234" has 4 digits; a phone number has 7 to 15 digits including the country code$/,
		],
		['+1 555 0100 0100 0100 1', /has 17 digits/],
	])('refuses %j', (input, message) => expect(() => toE164Digits(input, 'from')).toThrow(message));

	it('E164_DIGITS is E164 without the +', () => {
		expect(
			['6834002', '123456789012345', '683400', '0123456789'].map((value) =>
				E164_DIGITS.test(value),
			),
		).toEqual([true, true, false, false]);
	});
});

describe('asciiPhoneText', () => {
	it("keeps ASCII as it is and converts every script's decimal digits", () => {
		expect(asciiPhoneText('+33 (0)6 12-34')).toBe('+33 (0)6 12-34');
		// Digits 0-9 of Thai, Bengali, Myanmar, Adlam (outside the BMP) and mathematical bold (NFKC).
		expect(asciiPhoneText('๐๑๒๓๔๕๖๗๘๙ ০১২৩৪৫৬৭৮৯ ၀၁၂၃၄၅၆၇၈၉ 𞥐𞥑𞥒𞥓𞥔𞥕𞥖𞥗𞥘𞥙 𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗')).toBe(
			'0123456789 0123456789 0123456789 0123456789 0123456789',
		);
	});
});

describe('the sandbox applies the same phone rule (it imports nothing from src)', () => {
	it('has the same digit counts', () => {
		expect([PHONE_MIN_DIGITS, PHONE_MAX_DIGITS]).toEqual([E164_MIN_DIGITS, E164_MAX_DIGITS]);
	});
	it('accepts and refuses the same numbers', () => {
		const numbers = [
			'+6834002',
			'+683400',
			'+123456789012345',
			'+1234567890123456',
			'+0123456789',
			'+33612345678',
			'33612345678',
			'+33 612345678',
		];
		expect(numbers.map((value) => SANDBOX_E164.test(value))).toEqual(
			numbers.map((value) => E164.test(value)),
		);
		expect(numbers.map((value) => SANDBOX_PHONE.test(value))).toEqual(
			numbers.map((value) => E164.test(value.startsWith('+') ? value : `+${value}`)),
		);
	});
});

describe('toEmail', () => {
	it('trims and keeps the spelling', () =>
		expect(toEmail(' Ada@Example.com ', 'to')).toBe('Ada@Example.com'));
	it.each([
		['a line break', 'ada@example.com\n'],
		['CRLF', 'ada@example.com\r\n'],
		['a tab', '\tada@example.com'],
		['no-break spaces', '\u00a0ada@example.com\u00a0'],
		['a zero-width space', '\u200bada@example.com\u200b'],
		['a byte-order mark', '\ufeffada@example.com'],
	])('trims %s around the address', (_, input) =>
		expect(toEmail(input, 'to')).toBe('ada@example.com'),
	);
	it('refuses what is not an address', () =>
		expect(() => toEmail('ada@', 'to')).toThrow(/not an e-mail address/));
	it.each([
		'ada @example.com',
		'ada@exa\nmple.com',
		'ada\u00a0lovelace@example.com',
		'ada\u200b@example.com',
	])('refuses whitespace inside: %j', (input) => {
		expect(() => toEmail(input, 'to')).toThrow(/is not an e-mail address$/);
	});
	it('trimEmail leaves what is not text alone', () => {
		expect([trimEmail(null), trimEmail(3), trimEmail(' a@b.co\n')]).toEqual([null, 3, 'a@b.co']);
	});
});

describe('blacklist mapping', () => {
	it('builds the add body with listType BLACK and a custom reason', () => {
		const body = blacklistAddBody({
			channel: 'CHATAPP',
			from: ' 33612345678 ',
			to: '+33 7 00 00 00 01',
			reason: 'custom',
			customReason: ' COMPLAINT ',
		});
		expect(body).toEqual({
			to: '+33700000001',
			reason: 'COMPLAINT',
			type: 'CHATAPP',
			from: '33612345678',
			listType: 'BLACK',
		});
		expect(blacklistAddRequestSchema.parse(body)).toEqual(body);
	});

	it('builds the lookup query in the order of the spec', () => {
		expect(
			Object.entries(
				blacklistLookupQuery({ channel: 'EMAIL', from: 'news@example.com', to: 'a@b.co' }),
			),
		).toEqual([
			['type', 'EMAIL'],
			['from', 'news@example.com'],
			['listType', 'BLACK'],
			['to', 'a@b.co'],
		]);
	});
});
