/** Quiet Hours: each message sent only inside its recipient's daytime, else held for later. */
import type { INodeProperties } from 'n8n-workflow';

import { InputError, record } from '../../../../../src/base';
import type { Message } from '../../../../../src/platform';
import { QuietSchedule, WEEKDAYS, quietWindow, recipientZones } from '../../../../../src/quiet';
import type { QuietWindow } from '../../../../../src/quiet';

const PATH = 'options.quietHours';

const windowFields: INodeProperties[] = [
	{
		displayName: 'Send From',
		name: 'from',
		type: 'string',
		default: '09:00',
		placeholder: 'e.g. 09:00',
		description: "When the window opens, in the recipient's local time (HH:MM, 24-hour)",
	},
	{
		displayName: 'Send Until',
		name: 'until',
		type: 'string',
		default: '20:00',
		placeholder: 'e.g. 20:00',
		description: 'When it closes; earlier than Send From: on the next day',
	},
	{
		displayName: 'Days',
		name: 'days',
		type: 'multiOptions',
		default: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
		description: "The days it opens on, in the recipient's calendar",
		options: WEEKDAYS.map((day) => ({ name: day[0].toUpperCase() + day.slice(1), value: day })),
	},
	{
		displayName: 'Recipient Time Zone',
		name: 'timeZone',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.timezone }}',
		description:
			"An IANA name such as Europe/Paris. Empty: the zone of the number's prefix (+1 212: New York); where it has several, the window open in all of them at once.",
	},
];

export const quietHoursOption: INodeProperties = {
	displayName: 'Quiet Hours',
	name: 'quietHours',
	type: 'fixedCollection',
	placeholder: 'Add Quiet Hours',
	default: { window: {} },
	description:
		"Send only in the recipient's daytime. A message outside it is not sent: its item comes out held, with the time the window opens (sendAfter).",
	options: [{ displayName: 'Window', name: 'window', values: windowFields }],
};

/** A message whose window closed before it went out (RunQuietHours.check): held, `notSent`. */
class QuietHold extends Error {
	readonly outcome = 'notSent';
	constructor(readonly held: { status: 'held'; sendAfter?: string }) {
		super('Held: outside its Quiet Hours');
	}
}

export const isQuietHold = (error: unknown): error is QuietHold => error instanceof QuietHold;

interface Plan {
	window: QuietWindow;
	zones: readonly string[];
	/** The minute its next opening was asked for, and the answer: the same all that minute. */
	minute?: number;
	next?: number;
}

const WINDOW_PATHS = { from: `${PATH}.from`, until: `${PATH}.until`, days: `${PATH}.days` };
const ZONE_PATHS = { timeZone: `${PATH}.timeZone`, to: 'to' };
const DEFAULTS = new Map(windowFields.map((field) => [field.name, field.default as unknown]));
const isText = (value: unknown) => typeof value === 'string';
const textArray = (value: unknown) => Array.isArray(value) && value.every(isText);

/**
 * A run's quiet hours: each message's window and zones, checked once its item is read. Items of
 * the same window and zones share one plan (most of a run's do), and its answer for the minute:
 * the window read once, its opening looked up once a minute, not once per item.
 */
export class RunQuietHours {
	private readonly schedule = new QuietSchedule();
	private readonly plans = new WeakMap<Message, Plan>();
	private readonly shared = new Map<string, Plan>();

	/** Reads the item's Quiet Hours; refuses a window that is never open in all its zones. */
	read(options: Record<string, unknown>, message: Message): void {
		if (options.quietHours === undefined) return;
		const set = record(record(options.quietHours, PATH).window ?? {}, PATH);
		const value = (name: string) => set[name] ?? DEFAULTS.get(name);
		const [from, until, days] = [value('from'), value('until'), value('days')];
		const zones = recipientZones(value('timeZone'), message.to, ZONE_PATHS);
		// Only plain texts make a key: another value is read (and refused) as given.
		const plain = isText(from) && isText(until) && (isText(days) || textArray(days));
		const key = plain ? `${from}\n${until}\n${days}\n${zones}` : undefined;
		let plan = key === undefined ? undefined : this.shared.get(key);
		if (!plan) {
			plan = { window: quietWindow({ from, until, days }, WINDOW_PATHS), zones };
			if (key !== undefined) this.shared.set(key, plan);
		}
		if (this.next(plan, Date.now()) === undefined)
			throw new InputError(
				`${PATH}.timeZone`,
				`no moment of the week is inside the window in every time zone ${message.to} may be in (${zones.length}, ${zones[0]} to ${zones[zones.length - 1]}) at once: give the recipient's own zone here`,
			);
		this.plans.set(message, plan);
	}

	/** The plan's next opening from `now` (`now` itself while open), asked once a minute. */
	private next(plan: Plan, now: number): number | undefined {
		const minute = Math.floor(now / 60_000);
		if (plan.minute !== minute) {
			plan.minute = minute;
			plan.next = this.schedule.next(plan.window, plan.zones, now);
		}
		return plan.next === undefined || plan.next > now ? plan.next : now;
	}

	/**
	 * `held` and when the window opens (none within a week: no sendAfter), or undefined when the
	 * message may go now.
	 */
	outside(message: Message, now = Date.now()): QuietHold['held'] | undefined {
		const plan = this.plans.get(message);
		if (!plan) return undefined;
		const next = this.next(plan, now);
		if (next === undefined) return { status: 'held' };
		return next <= now ? undefined : { status: 'held', sendAfter: new Date(next).toISOString() };
	}

	/** Throws a QuietHold when the message may not go now: the check right before each try. */
	check(message: Message): void {
		const held = this.outside(message);
		if (held) throw new QuietHold(held);
	}
}
