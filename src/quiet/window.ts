/** Quiet hours: a daily window in a recipient's local time, and the next moment it is open. */
import { DateTime } from 'luxon';

import { InputError, kind, textList } from '../base';

export const WEEKDAYS = 'monday tuesday wednesday thursday friday saturday sunday'.split(' ');

/** Minutes after local midnight it opens and closes (closes the next day when not later), days. */
export interface QuietWindow {
	from: number;
	until: number;
	/** ISO weekdays, 1 (Monday) to 7: the days it opens on, in the recipient's calendar. */
	days: ReadonlySet<number>;
}

const MINUTE = 60_000;
/** Far enough ahead to meet every weekday after now in every zone. */
const DAYS_AHEAD = 8;

function clockTime(value: unknown, field: string): number {
	const time = typeof value === 'string' ? /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value.trim()) : null;
	if (!time) throw new InputError(field, `a time such as 09:00 was expected, got ${kind(value)}`);
	return Number(time[1]) * 60 + Number(time[2]);
}

/** The window from its fields' values; paths name the fields in errors. */
export function quietWindow(
	values: { from: unknown; until: unknown; days: unknown },
	paths: { from: string; until: string; days: string },
): QuietWindow {
	const from = clockTime(values.from, paths.from);
	const until = clockTime(values.until, paths.until);
	if (from === until)
		throw new InputError(
			paths.until,
			'it is the same time as Send From: the window would be empty',
		);
	const days = textList(values.days, paths.days).map((day) => {
		const index = WEEKDAYS.indexOf(day.toLowerCase());
		if (index < 0) throw new InputError(paths.days, `a weekday was expected, got ${kind(day)}`);
		return index + 1;
	});
	if (!days.length) throw new InputError(paths.days, 'choose at least one day');
	return { from, until, days: new Set(days) };
}

interface LocalDate {
	year: number;
	month: number;
	day: number;
}

/** A zone's moments: when its local clock first shows a time on a date, and what it shows. */
class ZoneClock {
	private readonly firsts = new Map<string, number>();

	constructor(readonly zone: string) {}

	local(at: number): DateTime {
		return DateTime.fromMillis(at, { zone: this.zone });
	}

	/**
	 * The first moment of `date` whose local time is `minutes` or later: the time itself, the
	 * first of two when the clock goes back over it, the jump when the clock skips it.
	 */
	first(date: LocalDate, minutes: number): number {
		const key = `${date.year}-${date.month}-${date.day} ${minutes}`;
		let at = this.firsts.get(key);
		if (at !== undefined) return at;
		const wanted = { ...date, hour: Math.floor(minutes / 60), minute: minutes % 60 };
		at = DateTime.fromObject(wanted, { zone: this.zone }).toMillis();
		const shows = (moment: number) => {
			const local = this.local(moment);
			return local.day === date.day && local.hour * 60 + local.minute === minutes;
		};
		if (!shows(at)) {
			// Skipped: luxon moved the time past the jump, which is the new offset's first minute.
			const offset = this.local(at).offset;
			let [before, after] = [at - 3 * 60 * MINUTE, at];
			while (after - before > MINUTE) {
				const middle = before + Math.floor((after - before) / 2 / MINUTE) * MINUTE;
				if (this.local(middle).offset === offset) after = middle;
				else before = middle;
			}
			at = after;
		} else {
			// Shown twice (the clock went back over it): luxon gave the later one.
			const shown = at;
			for (const back of [30, 60, 120])
				if (shows(shown - back * MINUTE)) at = shown - back * MINUTE;
		}
		// A schedule serves a process's runs: the dates of a few days are kept, not all of them.
		if (this.firsts.size >= 1000) this.firsts.clear();
		this.firsts.set(key, at);
		return at;
	}

	/** When the window opens and closes, from the day before `at`'s local date, for `count` days. */
	*openings(window: QuietWindow, at: number, count: number): Generator<[number, number]> {
		const dateOf = ({ year, month, day }: DateTime): LocalDate => ({ year, month, day });
		let date = this.local(at).startOf('day').minus({ days: 1 });
		for (let index = 0; index <= count; index++, date = date.plus({ days: 1 })) {
			if (!window.days.has(date.weekday)) continue;
			const opens = this.first(dateOf(date), window.from);
			const closesOn = window.until > window.from ? date : date.plus({ days: 1 });
			yield [opens, this.first(dateOf(closesOn), window.until)];
		}
	}

	isOpen(window: QuietWindow, at: number): boolean {
		for (const [opens, closes] of this.openings(window, at, 1))
			if (opens <= at && at < closes) return true;
		return false;
	}
}

/**
 * The moments quiet hours allow: `next` is `at` itself when the window is open in every zone, else
 * the first moment it is open in all of them at once (undefined: none in the next week). Minute by
 * minute the answer cannot change, so it is kept for the minute. One serves every run of a process
 * (Message › Send's): a zone's first look costs milliseconds of luxon's offsets, not paid per run.
 */
export class QuietSchedule {
	private readonly clocks = new Map<string, ZoneClock>();
	private readonly answers = new Map<string, number | undefined>();

	private clock(zone: string): ZoneClock {
		let clock = this.clocks.get(zone);
		if (!clock) this.clocks.set(zone, (clock = new ZoneClock(zone)));
		return clock;
	}

	next(window: QuietWindow, zones: readonly string[], at: number): number | undefined {
		// Worked out from the minute's start (a window opens and closes on a minute, in every zone):
		// the answer kept does not depend on the moment of the minute it was first asked at.
		const start = Math.floor(at / MINUTE) * MINUTE;
		const key = `${window.from} ${window.until} ${[...window.days]} ${zones} ${start}`;
		let answer = this.answers.get(key);
		if (answer === undefined && !this.answers.has(key)) {
			const clocks = zones.map((zone) => this.clock(zone));
			const openInAll = (moment: number) => clocks.every((clock) => clock.isOpen(window, moment));
			// Open now, or the first moment all are open, which is one of them opening.
			answer = openInAll(start)
				? start
				: clocks
						.flatMap((clock) => [...clock.openings(window, start, DAYS_AHEAD)])
						.map(([opens]) => opens)
						.filter((opens) => opens > start)
						.sort((a, b) => a - b)
						.find(openInAll);
			if (this.answers.size > 10_000) this.answers.clear();
			this.answers.set(key, answer);
		}
		return answer === undefined || answer > at ? answer : at;
	}
}
