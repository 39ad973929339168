/**
 * A recipient's time zones (src/quiet/zones.ts): the zone given, else the zones of the number's
 * prefix in Google's libphonenumber data; and docs/operations.md's table of what a user gets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { IANAZone } from 'luxon';

import { InputError } from '../../../../src/base';
import phoneZones from '../../../../src/quiet/phone-zones.json';
import { QuietSchedule, WEEKDAYS, quietWindow, recipientZones } from '../../../../src/quiet';

const zonePaths = { timeZone: 'options.quietHours.timeZone', to: 'to' };
const window = (from: string, until: string, days: readonly string[] = WEEKDAYS) =>
	quietWindow({ from, until, days }, { from: 'from', until: 'until', days: 'days' });
const utc = (iso: string) => Date.parse(`${iso}Z`);
const MINUTE = 60_000;

describe("the recipient's zones", () => {
	it('come from the number’s prefix when no zone is given, or are the zone given', () => {
		expect(recipientZones('', '+33612345678', zonePaths)).toEqual(['Europe/Paris']);
		expect(recipientZones(' Asia/Kathmandu ', '+33612345678', zonePaths)).toEqual([
			'Asia/Kathmandu',
		]);
		// Google's libphonenumber data, by the number's longest known prefix.
		const zonesOf = (to: string) => recipientZones(undefined, to, zonePaths).join(' ');
		expect(
			Object.fromEntries(
				[
					'+1 212 555 0123',
					'+1 808 555 0123',
					'+1 907 555 0123',
					'+1 416 555 0123',
					'+7 495 123 4567',
					'+7 423 212 3456',
					'+61 2 9123 4567',
					'+61 8 9123 4567',
					'+55 11 91234 5678',
					'+55 92 91234 5678',
					'+52 55 1234 5678',
					'+86 138 1234 5678',
					'+91 98123 45678',
					'+33 6 12 34 56 78',
				].map((to) => [to, zonesOf(to)]),
			),
		).toEqual({
			'+1 212 555 0123': 'America/New_York',
			'+1 808 555 0123': 'Pacific/Honolulu',
			'+1 907 555 0123': 'America/Adak America/Anchorage',
			'+1 416 555 0123': 'America/Toronto',
			'+7 495 123 4567': 'Europe/Moscow',
			'+7 423 212 3456': 'Asia/Vladivostok',
			'+61 2 9123 4567': 'Australia/Sydney',
			// Google gives Western Australia's 08 9 numbers both zones: the window open in both.
			'+61 8 9123 4567': 'Australia/Adelaide Australia/Perth',
			'+55 11 91234 5678': 'America/Sao_Paulo',
			'+55 92 91234 5678': 'America/Manaus',
			'+52 55 1234 5678': 'America/Mexico_City',
			'+86 138 1234 5678': 'Asia/Shanghai',
			// Google's name for Asia/Kolkata (a link in the zone database: the same clock).
			'+91 98123 45678': 'Asia/Calcutta',
			'+33 6 12 34 56 78': 'Europe/Paris',
		});
		// A prefix of several zones keeps those of the number's own country: Russia's 800 (Google:
		// Almaty, Aqtobe and Moscow) is Moscow's; +1 800 (only +1's 42 zones) the 11 of the US.
		expect(zonesOf('+7 800 123 4567')).toBe('Europe/Moscow');
		expect(recipientZones(undefined, '+18005551234', zonePaths)).toEqual([
			'America/Adak',
			'America/Anchorage',
			'America/Boise',
			'America/Chicago',
			'America/Denver',
			'America/Juneau',
			'America/Los_Angeles',
			'America/New_York',
			'America/North_Dakota/Center',
			'America/Phoenix',
			'Pacific/Honolulu',
		]);
	});

	it('read the number only where its country narrows the prefix’s zones, and give the same zones as one list', () => {
		// Adak and Anchorage are the US's alone: no country keeps one without the other, so the
		// number is not read (a number too short to read still gets them). +1's 42 zones need it.
		expect(recipientZones(undefined, '+1 907', zonePaths)).toEqual([
			'America/Adak',
			'America/Anchorage',
		]);
		expect(() => recipientZones(undefined, '+1 555 0100', zonePaths)).toThrow(InputError);
		// Quiet Hours shares a plan per window and list: the same zones must be the same list.
		const list = (zone: unknown, to: string) => recipientZones(zone, to, zonePaths);
		expect(list(undefined, '+1 800 555 1234')).toBe(list(undefined, '+1 800 555 9876'));
		expect(list(undefined, '+7 800 123 4567')).toBe(list(undefined, '+7 800 765 4321'));
		expect(list(undefined, '+1 907 555 0123')).toBe(list(undefined, '+1 907 555 0199'));
		expect(list('Europe/Paris', '+1 212 555 0123')).toBe(list(' Europe/Paris', '+33612345678'));
	});

	it('each zone of Google’s data is one n8n’s Node.js knows, each prefix digits', () => {
		const zones = new Set(phoneZones.sets.flatMap(([names]) => names.split(' ')));
		const prefixes = phoneZones.sets.flatMap(([, digits]) => digits.split(' '));
		expect({ zones: zones.size > 250, prefixes: prefixes.length > 3000 }).toEqual({
			zones: true,
			prefixes: true,
		});
		expect([...zones].filter((zone) => !IANAZone.isValidZone(zone))).toEqual([]);
		expect(prefixes.filter((prefix) => !/^[1-9]\d{0,8}$/.test(prefix))).toEqual([]);
		expect(new Set(prefixes).size).toBe(prefixes.length);
	});

	it('refuse a name that is not an IANA zone, and a number of no known country, naming the field', () => {
		const refusal = (zone: unknown, to = '+33612345678') => {
			try {
				recipientZones(zone, to, zonePaths);
			} catch (error) {
				return error instanceof InputError ? `${error.field}: ${error.message}` : String(error);
			}
			return 'accepted';
		};
		expect(refusal('Europe/Pariss')).toBe(
			'options.quietHours.timeZone: an IANA time zone name such as Europe/Paris was expected, got the string "Europe/Pariss"',
		);
		expect(refusal('Paris')).toMatch(/got the string "Paris"/);
		expect(refusal(3)).toMatch(/got the number 3/);
		expect(refusal(undefined, '+15550100100')).toBe(
			'options.quietHours.timeZone: the country of +15550100100 cannot be told from the number, so its time zone is unknown: give it here',
		);
	});
});

describe("docs/operations.md's Quiet Hours", () => {
	const docs = readFileSync(join(__dirname, '../../../../docs/operations.md'), 'utf8');
	const hhmm = (minute: number) =>
		`${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
	/** The minutes of Monday 30 November 2026 (UTC) the window is open in every zone, as ranges. */
	function openRanges(zones: readonly string[]): { ranges: string; hours: number } {
		const schedule = new QuietSchedule();
		const daytime = window('09:00', '20:00');
		const day = utc('2026-11-30T00:00');
		const open = Array.from(
			{ length: 1440 },
			(_, minute) => schedule.next(daytime, zones, day + minute * MINUTE) === day + minute * MINUTE,
		);
		const runs: Array<[number, number]> = [];
		open.forEach((isOpen, minute) => {
			if (!isOpen) return;
			const last = runs[runs.length - 1];
			if (last && last[1] === minute) last[1] = minute + 1;
			else runs.push([minute, minute + 1]);
		});
		// A window across midnight UTC: its end after the day's start, as one range.
		if (runs.length > 1 && runs[0][0] === 0 && runs[runs.length - 1][1] === 1440)
			runs[0] = [(runs.pop() as [number, number])[0], runs[0][1]];
		return {
			ranges: runs.map(([from, until]) => `${hhmm(from)}–${hhmm(until)}`).join(', '),
			hours: open.filter(Boolean).length / 60,
		};
	}

	it('the table of numbers says the zones and hours the node gives them', () => {
		const rows = [...docs.matchAll(/^\| (\+[\d ]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm)];
		expect(rows.length).toBeGreaterThanOrEqual(15);
		for (const [, number, zonesText, ranges, hours] of rows) {
			const zones = recipientZones(undefined, number, zonePaths);
			const many = /^(\d+) zones, (\S+) to (\S+)$/.exec(zonesText.trim());
			expect([
				number,
				many ? [zones.length, zones[0], zones[zones.length - 1]].join(' ') : zones.join(', '),
			]).toEqual([number, many ? many.slice(1).join(' ') : zonesText.trim()]);
			expect([number, openRanges(zones)]).toEqual([
				number,
				{ ranges: ranges.trim(), hours: Number(hours) },
			]);
		}
	});

	it('its weekdays-only and across-midnight examples are what the schedule gives', () => {
		const schedule = new QuietSchedule();
		const iso = (ms: number | undefined) =>
			ms === undefined ? 'never' : new Date(ms).toISOString();
		const weekdays = window('09:00', '18:00', WEEKDAYS.slice(0, 5));
		const paris = recipientZones(undefined, '+33612345678', zonePaths);
		expect(iso(schedule.next(weekdays, paris, utc('2026-11-28T09:00')))).toBe(
			'2026-11-30T08:00:00.000Z',
		);
		expect(docs).toContain(
			'Saturday 28 November 2026 at 10:00 in Paris is held with `"sendAfter":\n  "2026-11-30T08:00:00.000Z"`',
		);
		const night = window('22:00', '07:00', ['monday']);
		const at = utc('2026-11-30T21:30');
		expect(
			['Europe/Paris', 'Asia/Tokyo', 'Pacific/Auckland'].map((zone) =>
				iso(schedule.next(night, [zone], at)),
			),
		).toEqual([iso(at), iso(at), '2026-12-07T09:00:00.000Z']);
		expect(docs).toContain('(`"sendAfter": "2026-12-07T09:00:00.000Z"`)');
	});
});
