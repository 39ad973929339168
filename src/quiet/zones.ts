/** A recipient's time zones: the one given, or those of the phone number's prefix. */
import { getCountry, getTimezone } from 'countries-and-timezones';
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
const LONGEST_PREFIX = Math.max(...[...PREFIX_ZONES.keys()].map((prefix) => prefix.length));

/** The zones Google's libphonenumber gives the number's longest known prefix. */
function prefixZones(digits: string): readonly string[] | undefined {
	for (let length = Math.min(digits.length, LONGEST_PREFIX); length > 0; length--) {
		const zones = PREFIX_ZONES.get(digits.slice(0, length));
		if (zones) return zones;
	}
	return undefined;
}

/** A zone's canonical name: Europe/Amsterdam and Europe/Brussels keep one clock since 1970. */
const canonical = (zone: string) => getTimezone(zone)?.aliasOf ?? zone;

/**
 * The zones a recipient may be in: `timeZone` when given (an IANA name, such as Europe/Paris),
 * else the zones of the number's prefix in Google's libphonenumber data: +1 212 is New York's,
 * +1 907 Alaska's two. Where the prefix gives several, only those of the number's own country
 * (a +1 number of an area code the data lacks: its country's zones, not all of +1's 42); where it
 * gives none, every zone of the number's country. A number of neither one zone nor a known country
 * is refused.
 */
export function recipientZones(
	timeZone: unknown,
	to: string,
	paths: { timeZone: string; to: string },
): readonly string[] {
	if (timeZone !== undefined && timeZone !== null && timeZone !== '') {
		const zone = typeof timeZone === 'string' ? timeZone.trim() : undefined;
		if (!zone || !IANAZone.isValidZone(zone))
			throw new InputError(
				paths.timeZone,
				`an IANA time zone name such as Europe/Paris was expected, got ${kind(timeZone)}`,
			);
		return [zone];
	}
	const digits = to.replace(/\D/g, '');
	const zones = prefixZones(digits);
	// One zone: the number's country is not needed (reading a number costs as much as the rest).
	if (zones?.length === 1) return zones;
	const country = parsePhoneNumber(`+${digits}`)?.country;
	const countryZones = (country && getCountry(country)?.timezones) || [];
	if (!countryZones.length)
		throw new InputError(
			paths.timeZone,
			`the country of ${to} cannot be told from the number, so its time zone is unknown: give it here`,
		);
	if (!zones) return [...countryZones].sort();
	const own = new Set(countryZones.map(canonical));
	const inCountry = zones.filter((zone) => own.has(canonical(zone)));
	return inCountry.length ? inCountry : zones;
}
