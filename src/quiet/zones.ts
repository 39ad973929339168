/** A recipient's time zones: the one given, or those of the phone number's prefix. */
import { getAllCountries, getCountry, getTimezone } from 'countries-and-timezones';
import parsePhoneNumber from 'libphonenumber-js/min';
import { IANAZone } from 'luxon';

import { InputError, kind } from '../base';
import phoneZones from './phone-zones.json';

/**
 * Google libphonenumber's zones of each prefix (the country code and the first digits, 1212 for
 * New York): phone-zones.json, which `node scripts/phone-zones.mjs` renews; bundled by the build.
 */
const PREFIX_ZONES = new Map<string, readonly string[]>(
	phoneZones.sets.flatMap(([zones, prefixes]) => {
		const list = zones.split(' ');
		return prefixes.split(' ').map((prefix) => [prefix, list] as const);
	}),
);
/** Every shorter start of a known prefix (1 and 12 of 1212): a longer prefix may follow them. */
const STARTS = new Set(
	[...PREFIX_ZONES.keys()].flatMap((prefix) =>
		Array.from(prefix.slice(1), (_, end) => prefix.slice(0, end + 1)),
	),
);

/** The zones Google's libphonenumber gives the number's longest known prefix. */
function prefixZones(digits: string): readonly string[] | undefined {
	let zones: readonly string[] | undefined;
	for (let length = 1; length <= digits.length; length++) {
		const start = digits.slice(0, length);
		zones = PREFIX_ZONES.get(start) ?? zones;
		if (!STARTS.has(start)) break;
	}
	return zones;
}

/** A zone's canonical name: Europe/Amsterdam and Europe/Brussels keep one clock since 1970. */
const canonical = (zone: string) => getTimezone(zone)?.aliasOf ?? zone;

/** Each country's zones by their canonical names; read once, when first needed. */
let countryClocks: Array<Set<string>> | undefined;

/**
 * Whether the number's country cannot narrow a prefix's zones: every country keeps either all of
 * them or none (+1 907: Adak and Anchorage, both of the US only). Worked out once per set of zones.
 */
const whole = new Map<readonly string[], boolean>();
function isWhole(zones: readonly string[]): boolean {
	let answer = whole.get(zones);
	if (answer === undefined) {
		countryClocks ??= Object.values(getAllCountries()).map(
			(country) => new Set(country.timezones.map(canonical)),
		);
		const clocks = zones.map(canonical);
		answer = countryClocks.every((own) => {
			const kept = clocks.filter((zone) => own.has(zone)).length;
			return kept === 0 || kept === clocks.length;
		});
		whole.set(zones, answer);
	}
	return answer;
}

/**
 * The answers kept, so that the same zones come as the same list (Quiet Hours shares a plan per
 * window and list): a given zone's, and a prefix's narrowed to a country.
 */
const givenZones = new Map<string, readonly string[]>();
const narrowed = new Map<readonly string[] | undefined, Map<string, readonly string[]>>();

/**
 * The zones a recipient may be in: `timeZone` when given (an IANA name, such as Europe/Paris),
 * else the zones of the number's prefix in Google's libphonenumber data: +1 212 is New York's,
 * +1 907 Alaska's two. Where the prefix gives several, only those of the number's own country
 * (a +1 number of an area code the data lacks: its country's zones, not all of +1's 42); where it
 * gives none, every zone of the number's country. A number whose zones depend on a country the
 * number does not tell is refused. The same zones come as the same list.
 */
export function recipientZones(
	timeZone: unknown,
	to: string,
	paths: { timeZone: string; to: string },
): readonly string[] {
	if (timeZone !== undefined && timeZone !== null && timeZone !== '') {
		const zone = typeof timeZone === 'string' ? timeZone.trim() : undefined;
		const given = zone && givenZones.get(zone);
		if (given) return given;
		if (!zone || !IANAZone.isValidZone(zone))
			throw new InputError(
				paths.timeZone,
				`an IANA time zone name such as Europe/Paris was expected, got ${kind(timeZone)}`,
			);
		givenZones.set(zone, [zone]);
		return givenZones.get(zone)!;
	}
	const digits = to.replace(/\D/g, '');
	const zones = prefixZones(digits);
	// Reading a number (its country) costs more than the rest: only where the country matters.
	if (zones && (zones.length === 1 || isWhole(zones))) return zones;
	const country = parsePhoneNumber(`+${digits}`)?.country;
	const countryZones = (country && getCountry(country)?.timezones) || [];
	if (!country || !countryZones.length)
		throw new InputError(
			paths.timeZone,
			`the country of ${to} cannot be told from the number, so its time zone is unknown: give it here`,
		);
	let byCountry = narrowed.get(zones);
	if (!byCountry) narrowed.set(zones, (byCountry = new Map()));
	let list = byCountry.get(country);
	if (!list) {
		const own = new Set(countryZones.map(canonical));
		const inCountry = zones?.filter((zone) => own.has(canonical(zone)));
		list = !zones ? [...countryZones].sort() : inCountry?.length ? inCountry : zones;
		byCountry.set(country, list);
	}
	return list;
}
