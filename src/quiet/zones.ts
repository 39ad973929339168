/** A recipient's time zones: the one given, or every zone of the phone number's country. */
import { getCountry } from 'countries-and-timezones';
import parsePhoneNumber from 'libphonenumber-js/min';
import { IANAZone } from 'luxon';

import { InputError, kind } from '../base';

export interface RecipientZones {
	zones: readonly string[];
	/** The number's country (ISO 3166 code) when the zones are its own. */
	country?: string;
}

/**
 * The zones a recipient may be in: `timeZone` when given (an IANA name, such as Europe/Paris),
 * else every zone of the country the number belongs to.
 */
export function recipientZones(
	timeZone: unknown,
	to: string,
	paths: { timeZone: string; to: string },
): RecipientZones {
	if (timeZone !== undefined && timeZone !== null && timeZone !== '') {
		const zone = typeof timeZone === 'string' ? timeZone.trim() : undefined;
		if (!zone || !IANAZone.isValidZone(zone))
			throw new InputError(
				paths.timeZone,
				`an IANA time zone name such as Europe/Paris was expected, got ${kind(timeZone)}`,
			);
		return { zones: [zone] };
	}
	const country = parsePhoneNumber(`+${to.replace(/\D/g, '')}`)?.country;
	const zones = country ? getCountry(country)?.timezones : undefined;
	if (!country || !zones?.length)
		throw new InputError(
			paths.timeZone,
			`the country of ${to} cannot be told from the number, so its time zone is unknown: give it here`,
		);
	return { zones: [...zones].sort(), country };
}
