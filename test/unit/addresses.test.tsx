import { blacklistAddBody, blacklistLookupQuery } from '../../src/mapping/blacklist';
import { toE164, toEmail } from '../../src/mapping/addresses';
import { blacklistAddRequestSchema } from '../../src/schemas/blacklist';

describe('toE164', () => {
	it.each([
		['+33 6 12 34 56 78', '+33612345678'],
		['0033 612-345-678', '+33612345678'],
		['+1 (555) 010-0100', '+15550100100'],
		['+44.7700.900123', '+447700900123'],
		[' +4915112345678 ', '+4915112345678'],
		// E.164 has a maximum length, no minimum: Niue's numbers are 4 digits after +683.
		['+683 4002', '+6834002'],
		['+1234567', '+1234567'],
	])('writes %s as %s', (input, expected) => {
		expect(toE164(input, 'to')).toBe(expected);
	});

	it.each([
		['', /a phone number is required/],
		['06 12 34 56 78', /has no country code/],
		['+33 6 CALL ME', /contains letters/],
		['+0 123 456 789', /not a valid international phone number/],
		['+1234567890123456', /not a valid international phone number/],
	])('refuses %j', (input, message) => {
		expect(() => toE164(input, 'to')).toThrow(message);
	});
});

describe('toEmail', () => {
	it('trims and keeps the spelling', () => expect(toEmail(' Ada@Example.com ', 'to')).toBe('Ada@Example.com'));
	it('refuses what is not an address', () => expect(() => toEmail('ada@', 'to')).toThrow(/not an e-mail address/));
});

describe('blacklist mapping', () => {
	it('builds the add body with listType BLACK and a custom reason', () => {
		const body = blacklistAddBody({ channel: 'CHATAPP', from: ' 33612345678 ', to: '+33 7 00 00 00 01', reason: 'custom', customReason: ' COMPLAINT ' });
		expect(body).toEqual({ to: '+33700000001', reason: 'COMPLAINT', type: 'CHATAPP', from: '33612345678', listType: 'BLACK' });
		expect(blacklistAddRequestSchema.parse(body)).toEqual(body);
	});

	it('builds the lookup query in the order of the spec', () => {
		expect(Object.entries(blacklistLookupQuery({ channel: 'EMAIL', from: 'news@example.com', to: 'a@b.co' }))).toEqual([
			['type', 'EMAIL'],
			['from', 'news@example.com'],
			['listType', 'BLACK'],
			['to', 'a@b.co'],
		]);
	});
});
