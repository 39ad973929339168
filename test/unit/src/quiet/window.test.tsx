/**
 * Quiet hours (src/quiet): the window in the recipient's own time, at fixed moments. Each case is
 * chosen so that reading the window in UTC (the zone ignored) or at a fixed offset (daylight
 * saving ignored) gives another answer.
 */
import type { InputError } from '../../../../src/base';
import { QuietSchedule, WEEKDAYS, quietWindow, recipientZones } from '../../../../src/quiet';

const paths = { from: 'from', until: 'until', days: 'days' };
const window = (from: string, until: string, days: readonly string[] = WEEKDAYS) =>
	quietWindow({ from, until, days }, paths);
const utc = (iso: string) => Date.parse(`${iso}Z`);
const iso = (ms: number | undefined) => (ms === undefined ? 'never' : new Date(ms).toISOString());
/** The next moment the window is open in every zone, from `at` (UTC, ISO without the Z). */
const next = (w: ReturnType<typeof window>, zones: string[], at: string) =>
	iso(new QuietSchedule().next(w, zones, utc(at)));
const daytime = window('09:00', '20:00');

describe("quiet hours in the recipient's time zone", () => {
	it('follows New York across daylight saving time (spring forward and fall back)', () => {
		// 2026-03-08, 12:00 UTC: 08:00 EDT. At EST (no DST) it would open at 14:00; in UTC, be open.
		expect(next(daytime, ['America/New_York'], '2026-03-08T12:00')).toBe(
			'2026-03-08T13:00:00.000Z',
		);
		// 23:30 UTC: 19:30 EDT, still open (closed in UTC).
		expect(next(daytime, ['America/New_York'], '2026-03-08T23:30')).toBe(
			'2026-03-08T23:30:00.000Z',
		);
		// 2026-11-01, 12:00 UTC: 07:00 EST. At EDT it would open at 13:00.
		expect(next(daytime, ['America/New_York'], '2026-11-01T12:00')).toBe(
			'2026-11-01T14:00:00.000Z',
		);
		// 23:30 UTC: 18:30 EST, open (closed in UTC).
		expect(next(daytime, ['America/New_York'], '2026-11-01T23:30')).toBe(
			'2026-11-01T23:30:00.000Z',
		);
	});

	it('follows Paris across daylight saving time', () => {
		// 2026-03-29, 06:00 UTC: 08:00 CEST, opens at 07:00 UTC (08:00 at CET).
		expect(next(daytime, ['Europe/Paris'], '2026-03-29T06:00')).toBe('2026-03-29T07:00:00.000Z');
		// 2026-10-25, 06:00 UTC: 07:00 CET, opens at 08:00 UTC (07:00 at CEST).
		expect(next(daytime, ['Europe/Paris'], '2026-10-25T06:00')).toBe('2026-10-25T08:00:00.000Z');
		// 19:30 UTC on 2026-10-25: 20:30 CET, closed; the next day 08:00 UTC.
		expect(next(daytime, ['Europe/Paris'], '2026-10-25T19:30')).toBe('2026-10-26T08:00:00.000Z');
	});

	it('opens at the jump when the clock skips Send From, and at the first time when it repeats it', () => {
		// New York skips 02:00-03:00 on 2026-03-08: a window from 02:30 opens at 03:00 EDT.
		expect(next(window('02:30', '04:00'), ['America/New_York'], '2026-03-08T05:00')).toBe(
			'2026-03-08T07:00:00.000Z',
		);
		// It shows 01:00-02:00 twice on 2026-11-01: a window from 01:30 opens at the first (EDT).
		expect(next(window('01:30', '03:00'), ['America/New_York'], '2026-11-01T04:00')).toBe(
			'2026-11-01T05:30:00.000Z',
		);
	});

	it('keeps zones with :30 and :45 offsets to the minute', () => {
		// 03:00 UTC is 08:30 in Kolkata (+05:30) and 08:45 in Kathmandu (+05:45).
		expect(next(daytime, ['Asia/Kolkata'], '2026-06-15T03:00')).toBe('2026-06-15T03:30:00.000Z');
		expect(next(daytime, ['Asia/Kathmandu'], '2026-06-15T03:00')).toBe('2026-06-15T03:15:00.000Z');
		// 14:20 UTC: 19:50 in Kolkata (open), 20:05 in Kathmandu (closed until 03:15 UTC).
		expect(next(daytime, ['Asia/Kolkata'], '2026-06-15T14:20')).toBe('2026-06-15T14:20:00.000Z');
		expect(next(daytime, ['Asia/Kathmandu'], '2026-06-15T14:20')).toBe('2026-06-16T03:15:00.000Z');
	});

	it('crosses midnight: a window opened on a chosen day stays open into the next', () => {
		const night = window('22:00', '06:00', ['friday']);
		// Saturday 2026-11-28 03:00 in Tokyo (Friday 18:00 UTC): opened Friday 22:00, still open.
		expect(next(night, ['Asia/Tokyo'], '2026-11-27T18:00')).toBe('2026-11-27T18:00:00.000Z');
		// Saturday 07:00 in Tokyo: closed until Friday 2026-12-04 22:00 (13:00 UTC).
		expect(next(night, ['Asia/Tokyo'], '2026-11-27T22:00')).toBe('2026-12-04T13:00:00.000Z');
		// Friday 21:00 in Tokyo: opens at 22:00 (13:00 UTC).
		expect(next(night, ['Asia/Tokyo'], '2026-11-27T12:00')).toBe('2026-11-27T13:00:00.000Z');
	});

	it("counts days in the recipient's calendar, not the server's", () => {
		const mondays = window('09:00', '17:00', ['monday']);
		// Sunday 21:00 UTC is Monday 10:00 in Auckland (+13): open there.
		expect(next(mondays, ['Pacific/Auckland'], '2026-11-29T21:00')).toBe(
			'2026-11-29T21:00:00.000Z',
		);
		// Monday 10:00 UTC is Monday 23:00 in Auckland: closed until next Monday 09:00 (20:00 UTC Sun).
		expect(next(mondays, ['Pacific/Auckland'], '2026-11-30T10:00')).toBe(
			'2026-12-06T20:00:00.000Z',
		);
	});

	it('holds in every zone of a country at once, or never', () => {
		// A US toll-free number: Google's data knows no zone for 800, so every US zone of +1's.
		const us = [...recipientZones(undefined, '+18005551234', { timeZone: 'tz', to: 'to' })];
		expect(us).toEqual(expect.arrayContaining(['America/New_York', 'Pacific/Honolulu']));
		// Saturday 09:40 UTC: 04:40 in New York; all US zones are open from 09:00 in Adak (19:00 UTC).
		expect(next(daytime, us, '2026-11-28T09:40')).toBe('2026-11-28T19:00:00.000Z');
		expect(next(daytime, ['America/New_York'], '2026-11-28T09:40')).toBe(
			'2026-11-28T14:00:00.000Z',
		);
		// One hour a day cannot be one hour in New York and in Honolulu at once.
		expect(next(window('09:00', '10:00'), us, '2026-11-28T09:40')).toBe('never');
		// An Alaska number: 09:00 in Adak is 10:00 in Anchorage (19:00 UTC).
		const alaska = [...recipientZones(undefined, '+19075551234', { timeZone: 'tz', to: 'to' })];
		expect(next(daytime, alaska, '2026-11-28T09:40')).toBe('2026-11-28T19:00:00.000Z');
		expect(next(window('09:00', '10:00'), alaska, '2026-11-28T09:40')).toBe('never');
	});

	it('keeps an answer for the minute and moves on with the clock', () => {
		const schedule = new QuietSchedule();
		const zones = ['Europe/Paris'];
		expect(iso(schedule.next(daytime, zones, utc('2026-11-28T06:00')))).toBe(
			'2026-11-28T08:00:00.000Z',
		);
		expect(iso(schedule.next(daytime, zones, utc('2026-11-28T06:00') + 30_000))).toBe(
			'2026-11-28T08:00:00.000Z',
		);
		expect(iso(schedule.next(daytime, zones, utc('2026-11-28T08:00') + 30_000))).toBe(
			'2026-11-28T08:00:30.000Z',
		);
		// One schedule serves every run of a process: a moment earlier in a minute already asked
		// (another run's clock, a clock set back) is open too, not held until the first one asked.
		expect(iso(schedule.next(daytime, zones, utc('2026-11-28T08:00') + 10_000))).toBe(
			'2026-11-28T08:00:10.000Z',
		);
	});
});

describe('the window', () => {
	const refusal = (from: unknown, until: unknown, days: unknown) => {
		try {
			quietWindow({ from, until, days }, paths);
		} catch (error) {
			return `${(error as InputError).field}: ${(error as Error).message}`;
		}
		return 'accepted';
	};

	it('reads times as HH:MM and days as weekday names', () => {
		expect(quietWindow({ from: '9:05', until: '23:59', days: 'Monday, sunday' }, paths)).toEqual({
			from: 545,
			until: 1439,
			days: new Set([1, 7]),
		});
	});

	it('refuses a time, a day or an empty window it cannot read, naming the field', () => {
		expect(refusal('24:00', '20:00', WEEKDAYS)).toBe(
			'from: a time such as 09:00 was expected, got the string "24:00"',
		);
		expect(refusal('09:00', 2000, WEEKDAYS)).toMatch(/^until: .*got the number 2000/);
		expect(refusal('09:00', '09:00', WEEKDAYS)).toMatch(/^until: it is the same time as Send From/);
		expect(refusal('09:00', '20:00', [])).toBe('days: choose at least one day');
		expect(refusal('09:00', '20:00', ['funday'])).toBe(
			'days: a weekday was expected, got the string "funday"',
		);
	});
});
