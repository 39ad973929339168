import type { INodeProperties } from 'n8n-workflow';

import { fieldLabels } from '../../../../../nodes/AudienceMessaging/runner/labels';
import { fieldName } from '../../../../../src/base/input-errors';

const show = { show: { resource: ['demo'] } };

const fields: INodeProperties[] = [
	{ displayName: 'A notice', name: 'notice', type: 'notice', default: '', displayOptions: show },
	{ displayName: 'Recipient', name: 'to', type: 'string', default: '', displayOptions: show },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		default: {},
		displayOptions: show,
		options: [
			{ displayName: 'Batch Size', name: 'batchSize', type: 'number', default: 1 },
			// Same name as a top-level field: the top-level one keeps the bare name.
			{ displayName: 'Other Recipient', name: 'to', type: 'string', default: '' },
		],
	},
	{
		displayName: 'Contacts',
		name: 'contacts',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		displayOptions: show,
		options: [
			{
				displayName: 'Contact',
				name: 'contact',
				values: [
					{ displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
					{ displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
					{
						displayName: 'Emails',
						name: 'emails',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true },
						default: {},
						// The group and its value share a name: the value wins the short path.
						options: [
							{
								displayName: 'Email',
								name: 'email',
								values: [{ displayName: 'Address', name: 'email', type: 'string', default: '' }],
							},
						],
					},
				],
			},
		],
	},
	{
		displayName: 'Rules',
		name: 'rules',
		type: 'fixedCollection',
		default: {},
		displayOptions: show,
		options: [
			{
				displayName: 'Include',
				name: 'include',
				values: [{ displayName: 'Pattern', name: 'pattern', type: 'string', default: '' }],
			},
			{
				displayName: 'Exclude',
				name: 'exclude',
				values: [{ displayName: 'Pattern', name: 'pattern', type: 'string', default: '' }],
			},
		],
	},
	// Shown under another condition, same name: the first field names the path.
	{
		displayName: 'Recipient (Other Mode)',
		name: 'to',
		type: 'string',
		default: '',
		displayOptions: { show: { resource: ['other'] } },
	},
];

describe('fieldLabels: how errors name fields, read from the fields', () => {
	const labels = fieldLabels(fields);

	it('names a top-level field by its displayName, and a notice not at all', () => {
		expect(labels.to).toBe('Recipient');
		expect(labels.notice).toBeUndefined();
	});

	it('names a collection option by its path and by its own name, the top-level field keeping a shared name', () => {
		expect(labels.options).toBe('Options');
		expect(labels['options.batchSize']).toBe('Options › Batch Size');
		expect(labels.batchSize).toBe('Options › Batch Size');
		expect(labels['options.to']).toBe('Options › Other Recipient');
	});

	it('leaves the only group of a fixed collection out of the label, and finds its values with or without it in the path', () => {
		expect(labels['contacts.firstName']).toBe('Contacts › First Name');
		expect(labels['contacts.contact.firstName']).toBe('Contacts › First Name');
		expect(labels['contacts.contact']).toBe('Contacts');
		expect(labels['contacts.emails.email']).toBe('Contacts › Emails › Address');
		expect(labels['contacts.contact.emails.email.email']).toBe('Contacts › Emails › Address');
	});

	it('names the group of a fixed collection with several groups', () => {
		expect(labels['rules.include.pattern']).toBe('Rules › Include › Pattern');
		expect(labels['rules.exclude.pattern']).toBe('Rules › Exclude › Pattern');
		expect(labels['rules.pattern']).toBeUndefined();
	});

	it('gives an alias the label of its field and of everything below it, a longer alias overriding a shorter one', () => {
		const aliased = fieldLabels(fields, {
			person: 'contacts',
			'person.mail': 'contacts.emails',
			'': 'to',
			'person.family': 'contacts.lastName',
		});
		expect(aliased['']).toBe('Recipient');
		expect(aliased.person).toBe('Contacts');
		expect(aliased['person.firstName']).toBe('Contacts › First Name');
		expect(aliased['person.mail.email']).toBe('Contacts › Emails › Address');
		expect(aliased['person.family']).toBe('Contacts › Last Name');
		expect(fieldName(['person', '1', 'mail', '0', 'email'], aliased)).toBe(
			'Contacts › Emails › Address #2',
		);
	});

	it('names a rule across fields by all of them, their common parents once', () => {
		expect(fieldLabels(fields, { name: ['contacts.firstName', 'contacts.lastName'] }).name).toBe(
			'Contacts › First Name or Last Name',
		);
		expect(fieldLabels(fields, { scope: ['to', 'options.batchSize'] }).scope).toBe(
			'Recipient or Options › Batch Size',
		);
	});

	it('refuses an alias to a field the operation does not have (a renamed field name), rather than naming nothing', () => {
		expect(() => fieldLabels(fields, { body: 'text' })).toThrow(
			'The alias "body" names the field "text", which the operation\'s fields do not have',
		);
		expect(() =>
			fieldLabels(fields, { name: ['contacts.firstName', 'contacts.middleName'] }),
		).toThrow('"contacts.middleName"');
	});

	it('reads the fields when called: a renamed field is named by its new name', () => {
		const copy = structuredClone(fields);
		copy[1].displayName = 'Phone To';
		(copy[2].options as INodeProperties[])[0].displayName = 'Rows per Request';
		const renamed = fieldLabels(copy, { '': 'to' });
		expect(renamed.to).toBe('Phone To');
		expect(renamed['']).toBe('Phone To');
		expect(renamed.batchSize).toBe('Options › Rows per Request');
	});
});
