/** Quiet Hours: each message sent only inside its recipient's daytime, else held for later. */
import { InputError, record } from '../../../../../src/base';
import type { Message } from '../../../../../src/platform';
import { QuietSchedule, quietWindow, recipientZones } from '../../../../../src/quiet';
import type { QuietWindow } from '../../../../../src/quiet';
import { windowFields } from './fields/quiet-hours';

const PATH = 'options.quietHours';

/** A message whose window closed before it went out (RunQuietHours.check): held, `notSent`. */
class QuietHold extends Error {
	readonly outcome = 'notSent';
	constructor(readonly held: { status: 'held'; sendAfter?: string }) {
		super('Held: outside its Quiet Hours');
	}
}

export const isQuietHold = (error: unknown): error is QuietHold => error instanceof QuietHold;

/** A message's window and zones, shared by the run's messages of the same window and zones. */
export interface QuietPlan {
	window: QuietWindow;
	zones: readonly string[];
	/** The minute its next opening was asked for, and the answer: the same all that minute. */
	minute?: number;
	next?: number;
}

const WINDOW_PATHS = { from: `${PATH}.from`, until: `${PATH}.until`, days: `${PATH}.days` };
const ZONE_PATHS = { timeZone: `${PATH}.timeZone`, to: 'to' };
const DEFAULTS = Object.fromEntries(windowFields.map((field) => [field.name, field.default]));
const isText = (value: unknown) => typeof value === 'string';
const textArray = (value: unknown) => Array.isArray(value) && value.every(isText);
/** Two Days values alike: the same text, or texts. */
const sameDays = (a: unknown, b: unknown) =>
	a === b ||
	(Array.isArray(a) &&
		Array.isArray(b) &&
		a.length === b.length &&
		a.every((day, index) => day === b[index]));

/** Each window's next opening in each set of zones, for the minute: the same for every run. */
const schedule = new QuietSchedule();

/**
 * A run's quiet hours: each message's window and zones, checked once its item is read. Items of
 * the same window and zones share one plan (most of a run's do), and its answer for the minute:
 * the window read once, its opening looked up once a minute, not once per item. recipientZones
 * gives the same zones as the same list, so a window's plans are found by their list.
 */
export class RunQuietHours {
	/** The windows read, by their texts, each with its plans by zones; the last one read. */
	private readonly windows = new Map<string, Map<readonly string[], QuietPlan>>();
	private last?: {
		from: unknown;
		until: unknown;
		days: unknown;
		plans: Map<readonly string[], QuietPlan>;
	};

	/**
	 * The item's Quiet Hours (undefined: none), its plan kept in the message's record; refuses a
	 * window that is never open in all its zones.
	 */
	read(options: Record<string, unknown>, message: Message): QuietPlan | undefined {
		if (options.quietHours === undefined) return undefined;
		const set = record(record(options.quietHours, PATH).window ?? {}, PATH);
		const from = set.from ?? DEFAULTS.from;
		const until = set.until ?? DEFAULTS.until;
		const days = set.days ?? DEFAULTS.days;
		const zones = recipientZones(set.timeZone ?? DEFAULTS.timeZone, message.to, ZONE_PATHS);
		const plans = this.plansOf(from, until, days);
		let plan = plans?.get(zones);
		if (!plan) {
			plan = { window: quietWindow({ from, until, days }, WINDOW_PATHS), zones };
			plans?.set(zones, plan);
		}
		if (this.next(plan, Date.now()) === undefined)
			throw new InputError(
				`${PATH}.timeZone`,
				`no moment of the week is inside the window in every time zone ${message.to} may be in (${zones.length}, ${zones[0]} to ${zones[zones.length - 1]}) at once: give the recipient's own zone here`,
			);
		return plan;
	}

	/**
	 * The plans of a window given as plain texts (another value is read, and refused, as given):
	 * most runs have one, compared with the last one before any key is made.
	 */
	private plansOf(from: unknown, until: unknown, days: unknown) {
		const last = this.last;
		if (last && last.from === from && last.until === until && sameDays(last.days, days))
			return last.plans;
		if (!isText(from) || !isText(until) || !(isText(days) || textArray(days))) return undefined;
		const key = `${from as string}\n${until as string}\n${String(days)}`;
		let plans = this.windows.get(key);
		if (!plans) this.windows.set(key, (plans = new Map()));
		this.last = { from, until, days, plans };
		return plans;
	}

	/** The plan's next opening from `now` (`now` itself while open), asked once a minute. */
	private next(plan: QuietPlan, now: number): number | undefined {
		const minute = Math.floor(now / 60_000);
		if (plan.minute !== minute) {
			plan.minute = minute;
			plan.next = schedule.next(plan.window, plan.zones, minute * 60_000);
		}
		return plan.next === undefined || plan.next > now ? plan.next : now;
	}

	/**
	 * `held` and when the window opens (none within a week: no sendAfter), or undefined when the
	 * message may go now.
	 */
	outside(plan: QuietPlan | undefined, now = Date.now()): QuietHold['held'] | undefined {
		if (!plan) return undefined;
		const next = this.next(plan, now);
		if (next === undefined) return { status: 'held' };
		return next <= now ? undefined : { status: 'held', sendAfter: new Date(next).toISOString() };
	}

	/** Throws a QuietHold when the message may not go now: the check right before each try. */
	check(plan: QuietPlan | undefined): void {
		const held = this.outside(plan);
		if (held) throw new QuietHold(held);
	}
}
