import {
	blacklistAddBody,
	blacklistLookupQuery,
} from '../../../../../src/platform/blacklist/mapping';
import { senderDigits } from '../../../../../src/platform/chatapp/mapping';
import { InputError } from '../../../../../src/base/input-errors';

const TO = '+33700000001';

describe('the blacklist Sender, per channel', () => {
	it.each(['+33 6 12-34-56-78', '0033 (6) 12.34.56.78', '＋３３６１２３４５６７８'])(
		'CHATAPP: %j is sent as the digits Message › Send sends',
		(from) => {
			const sent = senderDigits(from, 'from');
			expect(sent).toBe('33612345678');
			const add = blacklistAddBody({ channel: 'CHATAPP', from, to: TO, reason: 'UNSUBSCRIBED' });
			expect(add.from).toBe(sent);
			expect(blacklistLookupQuery({ channel: 'CHATAPP', from, to: TO }).from).toBe(sent);
		},
	);

	it('CHATAPP: the recipient keeps E.164 with +, as Message › Send sends `to`', () => {
		const query = blacklistLookupQuery({
			channel: 'CHATAPP',
			from: '+1 555 010 0100',
			to: '0033 7 00 00 00 01',
		});
		expect(query).toEqual({ type: 'CHATAPP', from: '15550100100', listType: 'BLACK', to: TO });
	});

	it.each([
		['abc', '"abc" is not a phone number: it contains letters'],
		['ACME Shop', '"ACME Shop" is not a phone number: it contains letters'],
		['+0 555 0100', '"+0 555 0100" is not a valid international phone number'],
		['12345', '"12345" has 5 digits; a phone number has 7 to 15 digits'],
	])('CHATAPP: refuses the Sender %j as a field error on `from`', (from, message) => {
		for (const map of [blacklistAddBody, blacklistLookupQuery]) {
			let error: unknown;
			try {
				map({ channel: 'CHATAPP', from, to: TO });
			} catch (caught) {
				error = caught;
			}
			expect(error).toBeInstanceOf(InputError);
			expect((error as InputError).field).toBe('from');
			expect((error as InputError).message).toContain(message);
		}
	});

	it('SMS, RCS and EMAIL keep the Sender as typed, trimmed; only CHATAPP takes the digits', () => {
		const typed = ['  MyShop ', '+33 6 12-34-56-78', 'news@example.com'];
		const sent = (channel: string) =>
			typed.map((from) => {
				const to = channel === 'EMAIL' ? 'ada@example.com' : TO;
				const added = blacklistAddBody({ channel, from, to, reason: 'UNSUBSCRIBED' }).from;
				expect(blacklistLookupQuery({ channel, from, to }).from).toBe(added);
				return added;
			});
		for (const channel of ['SMS', 'RCS', 'EMAIL'])
			expect(sent(channel)).toEqual(['MyShop', '+33 6 12-34-56-78', 'news@example.com']);
		expect(blacklistAddBody({ channel: 'CHATAPP', from: typed[1], to: TO }).from).toBe(
			'33612345678',
		);
	});
});
