/**
 * Send and Wait for Response: the message's text with its links, and when the wait ends.
 */
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import {
	messageWithLinks,
	waitTill,
} from '../../../../../../../nodes/AudienceMessaging/resources/message/sendAndWait/links';
import { InputError } from '../../../../../../../src/base/input-errors';

describe('messageWithLinks', () => {
	it('puts each link under its label, below the message, and the attribution last', () => {
		expect(
			messageWithLinks(
				'  Publish?  ',
				[
					{ label: '✓ Approve', url: 'https://n8n.example/a?approved=true' },
					{ label: '✗ Decline', url: 'https://n8n.example/a?approved=false' },
				],
				true,
			),
		).toBe(
			'Publish?\n\n✓ Approve:\nhttps://n8n.example/a?approved=true\n\n✗ Decline:\nhttps://n8n.example/a?approved=false\n\nThis message was sent automatically with n8n',
		);
		expect(messageWithLinks('Q', [{ label: 'Respond', url: 'https://x/y' }], false)).toBe(
			'Q\n\nRespond:\nhttps://x/y',
		);
	});
});

describe('waitTill', () => {
	const now = Date.parse('2026-11-26T10:00:00Z');
	const limit = (values: Record<string, unknown>) => ({ limitWaitTime: { values } });

	it('waits indefinitely without a limit', () => {
		expect(waitTill({}, now)).toBe(WAIT_INDEFINITELY);
		expect(WAIT_INDEFINITELY.toISOString()).toBe('3000-01-01T00:00:00.000Z');
	});

	it('after a time interval, in minutes, hours or days', () => {
		const after = (resumeAmount: number, resumeUnit: string) =>
			waitTill(limit({ limitType: 'afterTimeInterval', resumeAmount, resumeUnit }), now).getTime() -
			now;
		expect(after(0.05, 'minutes')).toBe(3000);
		expect(after(2, 'hours')).toBe(7_200_000);
		expect(after(1.5, 'days')).toBe(129_600_000);
	});

	it('at a specified time', () => {
		expect(
			waitTill(
				limit({ limitType: 'atSpecifiedTime', maxDateAndTime: '2026-12-01T08:30:00Z' }),
				now,
			),
		).toEqual(new Date('2026-12-01T08:30:00Z'));
	});

	it.each<[string, Record<string, unknown>, RegExp]>([
		['a date that is not one', { limitType: 'atSpecifiedTime', maxDateAndTime: 'soon' }, /date/],
		['a negative amount', { limitType: 'afterTimeInterval', resumeAmount: -1 }, /Amount/],
		['an amount as text', { limitType: 'afterTimeInterval', resumeAmount: 'x' }, /Amount/],
		[
			'an unknown unit',
			{ limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'weeks' },
			/Unit/,
		],
	])('refuses %s as a field error', (_name, values, message) => {
		let error: unknown;
		try {
			waitTill(limit(values), now);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(InputError);
		expect((error as InputError).field).toBe('limitWaitTime');
		expect((error as Error).message).toMatch(message);
	});
});
