/** Message › Send's aliases: API body paths, named in errors as the fields they came from. */
import type { FieldAliases } from '../../../runner/labels';

/** The editor's fields, or one JSON value (what an AI agent's $fromAI() produces). */
type StructuredInput = 'define' | 'json';

/** How this run's contacts and buttons are given (the choices take no expression: one per run). */
export type StructuredInputs = { contacts: StructuredInput; buttons: StructuredInput };

/**
 * The message schema's paths (the body the API takes) that are not the fields' own: errors name the
 * field the value came from, the JSON field when contacts or buttons come as JSON.
 */
export function messageAliases(input: StructuredInputs): FieldAliases {
	return {
		body: 'text',
		...(input.contacts === 'json'
			? { contacts: 'contactsJson' }
			: {
					'contacts.org.company': 'contacts.company',
					'contacts.org.department': 'contacts.department',
					'contacts.org.title': 'contacts.title',
					'contacts.name.formatted_name': 'contacts.formattedName',
					'contacts.name.last_name': 'contacts.lastName',
					// A contact needs a first or a last name: the rule names both fields.
					'contacts.name.first_name': ['contacts.firstName', 'contacts.lastName'],
				}),
		'location.latitude': 'latitude',
		'location.longitude': 'longitude',
		'location.name': 'locationName',
		'location.address': 'locationAddress',
		'interactive.body.text': 'bodyText',
		'interactive.action.buttons': input.buttons === 'json' ? 'buttonsJson' : 'buttons',
		'interactive.action.buttons.reply': input.buttons === 'json' ? 'buttonsJson' : 'buttons',
	};
}
