/** The Contacts message's fields: names, birthday, organisation, sub-lists sent as arrays. */
import type { INodeProperties } from 'n8n-workflow';

const typeOption = (noun: string): INodeProperties => ({
	displayName: 'Type',
	name: 'type',
	type: 'options',
	default: 'HOME',
	description: `Kind of ${noun}; use an expression for another value`,
	options: [
		{ name: 'Home', value: 'HOME' },
		{ name: 'Work', value: 'WORK' },
	],
});

const subList = (
	displayName: string,
	name: string,
	entry: string,
	values: INodeProperties[],
): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: `Add ${entry}`,
	default: {},
	options: [{ displayName: entry, name: entry.toLowerCase(), values }],
});

export function contactFields(
	displayOptions: INodeProperties['displayOptions'],
): INodeProperties[] {
	return [
		{
			displayName: 'Contacts',
			name: 'contacts',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Contact',
			default: {},
			description: 'Each contact needs a formatted name and a first or last name',
			displayOptions,
			options: [
				{
					displayName: 'Contact',
					name: 'contact',
					values: [
						subList('Addresses', 'addresses', 'Address', [
							{ displayName: 'City', name: 'city', type: 'string', default: '' },
							{ displayName: 'Country', name: 'country', type: 'string', default: '' },
							{
								displayName: 'Country Code',
								name: 'country_code',
								type: 'string',
								default: '',
								placeholder: 'e.g. FR',
							},
							{ displayName: 'State', name: 'state', type: 'string', default: '' },
							{ displayName: 'Street', name: 'street', type: 'string', default: '' },
							typeOption('address'),
							{ displayName: 'ZIP', name: 'zip', type: 'string', default: '' },
						]),
						{
							displayName: 'Birthday',
							name: 'birthday',
							type: 'string',
							default: '',
							placeholder: 'e.g. 1815-12-10',
							description: 'Date as YYYY-MM-DD',
						},
						{ displayName: 'Company', name: 'company', type: 'string', default: '' },
						{ displayName: 'Department', name: 'department', type: 'string', default: '' },
						subList('Emails', 'emails', 'Email', [
							{
								displayName: 'Email',
								name: 'email',
								type: 'string',
								placeholder: 'name@email.com',
								default: '',
							},
							typeOption('e-mail address'),
						]),
						{
							displayName: 'First Name',
							name: 'firstName',
							type: 'string',
							default: '',
							description: 'A first or a last name is needed',
						},
						// Required (n8n flags it empty before a run), yet alphabetical: community
						// checks want a fixedCollection's 5+ values in displayName order.
						{
							displayName: 'Formatted Name',
							name: 'formattedName',
							type: 'string',
							default: '',
							required: true,
							placeholder: 'e.g. Ada Lovelace',
							description: 'Full name as displayed',
						},
						{ displayName: 'Job Title', name: 'title', type: 'string', default: '' },
						{
							displayName: 'Last Name',
							name: 'lastName',
							type: 'string',
							default: '',
							description: 'A first or a last name is needed',
						},
						subList('Phones', 'phones', 'Phone', [
							{ displayName: 'Phone', name: 'phone', type: 'string', default: '' },
							typeOption('phone number'),
						]),
						subList('URLs', 'urls', 'URL', [
							typeOption('web address'),
							{ displayName: 'URL', name: 'url', type: 'string', default: '' },
						]),
					],
				},
			],
		},
	];
}
