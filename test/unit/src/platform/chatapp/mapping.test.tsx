import { InputError } from '../../../../../src/base/input-errors';
import {
	callbacksValue,
	contactFromParameters,
	mediaContentTypeFits,
	senderDigits,
} from '../../../../../src/platform/chatapp/mapping';
import { messageBody, messageSchema } from '../../../../../src/platform/chatapp/message';
import type { MessageParameters } from '../../../../../src/platform/chatapp/message';
import { retryAfterMs } from '../../../../../src/http/retry';

const base = { from: '+1 555-010-0100', to: '+33 6 12 34 56 78' };
const issues = (parameters: MessageParameters) => {
	const result = messageSchema.safeParse(messageBody(parameters));
	return result.success
		? []
		: result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('senderDigits', () => {
	it.each([
		['+1 555-010-0100', '15550100100'],
		['0033 6 12 34 56 78', '33612345678'],
		['15550100100', '15550100100'],
	])('%s → %s', (input, digits) => expect(senderDigits(input, 'from')).toBe(digits));

	it('refuses letters and short numbers', () => {
		expect(() => senderDigits('ACME', 'from')).toThrow(/contains letters/);
		expect(() => senderDigits('+0 555', 'from')).toThrow(/up to 15 digits, the first not 0/);
		expect(() => senderDigits('+1 555 0100 0100 0100 1', 'from')).toThrow(/15 digits/);
		expect(senderDigits('+683 4002', 'from')).toBe('6834002');
	});
});

describe('the phone rule in a message (7 to 15 digits with the country code, the first not 0)', () => {
	it('refuses a recipient of fewer than 7 digits while mapping, naming the value', () => {
		expect(() => messageBody({ ...base, type: 'text', text: 'Hi', to: '+3361' })).toThrow(
			'"+3361" has 4 digits; a phone number has 7 to 15 digits including the country code',
		);
	});
	it('the message schema refuses a sender or recipient outside the rule, whatever built the body', () => {
		const body = { from: '15550100100', to: '+33612345678', type: 'text', body: 'Hi' };
		const problems = (fields: Record<string, unknown>) => {
			const result = messageSchema.safeParse({ ...body, ...fields });
			return result.success
				? []
				: result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
		};
		expect(problems({})).toEqual([]);
		expect(problems({ from: '6834002', to: '+6834002' })).toEqual([]);
		expect(problems({ from: '1234' })).toEqual([
			'from: "1234" has 4 digits; a phone number has 7 to 15 digits including the country code',
		]);
		expect(problems({ from: '0155501001' })).toEqual([
			'from: "0155501001" is not a valid international phone number (+, then up to 15 digits, the first not 0)',
		]);
		expect(problems({ to: '+1234' })).toEqual([
			'to: "+1234" has 4 digits; a phone number has 7 to 15 digits including the country code',
		]);
		expect(problems({ to: '+1234567890123456' })).toEqual([
			'to: "+1234567890123456" has 16 digits; a phone number has 7 to 15 digits including the country code',
		]);
		expect(problems({ to: '33612345678' })).toEqual([
			'to: "33612345678" is not an E.164 number: + then the country code',
		]);
	});
	it('sends a full-width or Arabic-Indic recipient as ASCII E.164', () => {
		expect(
			messageBody({ ...base, type: 'text', text: 'Hi', to: '＋３３　６１２３４５６７８' }).to,
		).toBe('+33612345678');
		expect(messageBody({ ...base, type: 'text', text: 'Hi', to: '+٣٣٦١٢٣٤٥٦٧٨' }).to).toBe(
			'+33612345678',
		);
	});
});

describe('messageBody', () => {
	it('text: digits-only from, E.164 to, body, and only the options given', () => {
		expect(
			messageBody({ ...base, type: 'text', text: 'Hello', externalId: ' ref42 ', callbacks: '' }),
		).toEqual({
			from: '15550100100',
			to: '+33612345678',
			type: 'text',
			externalId: 'ref42',
			body: 'Hello',
		});
	});

	it('media: the http(s) URL is the body, whatever its ending; other schemes are refused', () => {
		expect(
			messageBody({ ...base, type: 'image', mediaUrl: 'https://x.io/a/photo.JPG?size=2' }).body,
		).toBe('https://x.io/a/photo.JPG?size=2');
		expect(
			messageBody({ ...base, type: 'document', mediaUrl: 'https://x.io/download?id=3' }).body,
		).toBe('https://x.io/download?id=3');
		expect(
			messageBody({ ...base, type: 'image', mediaUrl: 'https://example.com/render.php?id=42' })
				.body,
		).toBe('https://example.com/render.php?id=42');
		for (const url of [
			'ftp://x.io/a.png',
			'javascript:alert(1)',
			'file:///etc/passwd',
			'data:image/png;base64,AAAA',
		]) {
			expect(() => messageBody({ ...base, type: 'image', mediaUrl: url })).toThrow(
				/must start with http:\/\/ or https:\/\//,
			);
		}
		expect(() => messageBody({ ...base, type: 'video', mediaUrl: '' })).toThrow(InputError);
	});

	it('contacts: plural fields as arrays, empty fields left out', () => {
		const contact = contactFromParameters({
			formattedName: 'Ada Lovelace',
			firstName: 'Ada',
			lastName: '',
			birthday: '1815-12-10',
			company: 'Analytical Engines',
			phones: {
				phone: [
					{ phone: '+44 20 0000 0000', type: 'WORK' },
					{ phone: '', type: 'HOME' },
				],
			},
			emails: { email: [{ email: 'ada@example.com', type: 'HOME' }] },
		});
		expect(contact).toEqual({
			name: { formatted_name: 'Ada Lovelace', first_name: 'Ada' },
			birthday: '1815-12-10',
			org: { company: 'Analytical Engines' },
			phones: [{ phone: '+44 20 0000 0000', type: 'WORK' }, { type: 'HOME' }],
			emails: [{ email: 'ada@example.com', type: 'HOME' }],
		});
	});

	it('contacts: a formatted name alone, a bad birthday or no contact are refused by the schema', () => {
		expect(
			issues({ ...base, type: 'contacts', contacts: { contact: [{ formattedName: 'Ada' }] } }),
		).toEqual([
			'contacts.0.name.first_name: a contact needs a first or last name besides its formatted name',
		]);
		expect(
			issues({ ...base, type: 'contacts', contacts: { contact: [{ firstName: 'Ada' }] } }),
		).toEqual(['contacts.0.name.formatted_name: the formatted name is required']);
		expect(
			issues({
				...base,
				type: 'contacts',
				contacts: { contact: [{ formattedName: 'A L', lastName: 'L', birthday: '1815-02-30' }] },
			}),
		).toEqual(['contacts.0.birthday: the birthday is not a real date']);
		expect(issues({ ...base, type: 'contacts', contacts: {} })).toEqual([
			'contacts: a contacts message needs at least one contact',
		]);
	});

	it('location: ranges checked, an address needs a name', () => {
		expect(
			issues({
				...base,
				type: 'location',
				latitude: 48.85,
				longitude: 2.35,
				locationName: 'Paris',
			}),
		).toEqual([]);
		expect(issues({ ...base, type: 'location', latitude: 91, longitude: 2.35 })).toEqual([
			'location.latitude: the latitude must be between -90 and 90',
		]);
		expect(issues({ ...base, type: 'location', latitude: 1, longitude: -181 })).toEqual([
			'location.longitude: the longitude must be between -180 and 180',
		]);
		expect(
			issues({
				...base,
				type: 'location',
				latitude: 1,
				longitude: 1,
				locationAddress: '1 Main St',
			}),
		).toEqual([
			'location.name: an address is only displayed together with a name: add a name, or leave the address out',
		]);
	});

	it('interactive: reply buttons with the provider limits', () => {
		const buttons = (...list: Array<[string, string]>) => ({
			button: list.map(([id, title]) => ({ id, title })),
		});
		expect(
			messageBody({
				...base,
				type: 'interactive',
				bodyText: 'Pick one',
				buttons: buttons(['yes', 'Yes']),
			}).interactive,
		).toEqual({
			type: 'button',
			body: { text: 'Pick one' },
			action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }] },
		});
		expect(issues({ ...base, type: 'interactive', bodyText: 'x', buttons: buttons() })).toEqual([
			'interactive.action.buttons: an interactive message needs at least one reply button',
		]);
		expect(
			issues({
				...base,
				type: 'interactive',
				bodyText: 'x',
				buttons: buttons(['a', 'A'], ['a', 'B']),
			}),
		).toEqual([
			'interactive.action.buttons.1.reply.id: the button ID "a" is used twice; IDs must be unique',
		]);
		expect(
			issues({
				...base,
				type: 'interactive',
				bodyText: 'x',
				buttons: buttons(['a', 'A'], ['b', 'B'], ['c', 'C'], ['d', 'D']),
			}),
		).toEqual([
			"interactive.action.buttons: an interactive message has at most 3 reply buttons (the chat-app provider's limit)",
		]);
		expect(
			issues({
				...base,
				type: 'interactive',
				bodyText: 'x',
				buttons: buttons(['a', 'A title that is too long']),
			}),
		).toEqual([
			"interactive.action.buttons.0.reply.title: a button title has at most 20 characters (the chat-app provider's limit)",
		]);
	});
});

describe('callbacksValue', () => {
	it('accepts several URLs separated by commas', () => {
		expect(callbacksValue(' https://a.io/hook , http://b.io/x?y=1 ', 'callbacks')).toBe(
			'https://a.io/hook,http://b.io/x?y=1',
		);
		expect(callbacksValue('', 'callbacks')).toBeUndefined();
	});
	it('names the URL that is not one', () => {
		expect(() => callbacksValue('https://a.io, not a url', 'callbacks')).toThrow(
			'"not a url" is not a URL',
		);
		expect(() => callbacksValue('ftp://a.io', 'callbacks')).toThrow(/must start with http/);
	});
});

describe('mediaContentTypeFits', () => {
	it('follows the spec table, codecs included', () => {
		expect(mediaContentTypeFits('image', 'image/png')).toBe(true);
		expect(mediaContentTypeFits('image', 'image/gif')).toBe(false);
		expect(mediaContentTypeFits('audio', 'audio/ogg; codecs=opus')).toBe(true);
		expect(mediaContentTypeFits('audio', 'audio/ogg')).toBe(false);
		expect(mediaContentTypeFits('document', 'application/pdf')).toBe(true);
	});
});

describe('retryAfterMs', () => {
	it('reads seconds and HTTP dates', () => {
		expect(retryAfterMs('2')).toBe(2000);
		expect(retryAfterMs('0.5')).toBe(500);
		expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
		expect(retryAfterMs(undefined)).toBeUndefined();
		expect(retryAfterMs('soon')).toBeUndefined();
	});
});
