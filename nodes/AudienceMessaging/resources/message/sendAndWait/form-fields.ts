/** The fields that define a custom form (n8n's chat nodes' Define Form, Form Fields). */
import type { INodeProperties } from 'n8n-workflow';

export function formDefinitionFields(): INodeProperties[] {
	const forCustom = { responseType: ['customForm'] };
	return [
		{
			displayName: 'Define Form',
			name: 'defineForm',
			type: 'options',
			noDataExpression: true,
			default: 'fields',
			options: [
				{ name: 'Using Fields Below', value: 'fields' },
				{ name: 'Using JSON', value: 'json' },
			],
			displayOptions: { show: forCustom },
		},
		{
			displayName: 'Form Fields',
			name: 'jsonOutput',
			type: 'json',
			typeOptions: { rows: 5 },
			default:
				'[\n  {\n    "fieldLabel": "Name",\n    "placeholder": "enter your name",\n    "requiredField": true\n  },\n  {\n    "fieldLabel": "Reason",\n    "fieldType": "dropdown",\n    "fieldOptions": { "values": [{ "option": "Price" }, { "option": "Timing" }] }\n  }\n]',
			description:
				'A JSON array of fields: fieldLabel, fieldType (date, dropdown, email, number, password, text, textarea), placeholder, requiredField, fieldOptions and multiselect for a dropdown',
			displayOptions: { show: { ...forCustom, defineForm: ['json'] } },
		},
		{
			displayName: 'Form Fields',
			name: 'formFields',
			placeholder: 'Add Form Field',
			type: 'fixedCollection',
			default: {},
			typeOptions: { multipleValues: true, sortable: true },
			displayOptions: { show: { ...forCustom, defineForm: ['fields'] } },
			options: [
				{
					displayName: 'Values',
					name: 'values',
					values: [
						{
							displayName: 'Element Type',
							name: 'fieldType',
							type: 'options',
							default: 'text',
							description: 'The type of field to add to the form',
							options: [
								{ name: 'Date', value: 'date' },
								{ name: 'Dropdown List', value: 'dropdown' },
								{ name: 'Email', value: 'email' },
								{ name: 'Number', value: 'number' },
								{ name: 'Password', value: 'password' },
								{ name: 'Text', value: 'text' },
								{ name: 'Textarea', value: 'textarea' },
							],
						},
						{
							displayName: 'Field Name',
							name: 'fieldLabel',
							type: 'string',
							default: '',
							placeholder: 'e.g. What is your name?',
							description: 'Label that appears above the input field; the key of its answer',
							required: true,
						},
						{
							displayName: 'Field Options',
							name: 'fieldOptions',
							placeholder: 'Add Field Option',
							description: 'List of options that can be selected from the dropdown',
							type: 'fixedCollection',
							default: { values: [{ option: '' }] },
							required: true,
							displayOptions: { show: { fieldType: ['dropdown'] } },
							typeOptions: { multipleValues: true, sortable: true },
							options: [
								{
									displayName: 'Values',
									name: 'values',
									values: [
										{
											displayName: 'Option',
											name: 'option',
											type: 'string',
											default: '',
										},
									],
								},
							],
						},
						{
							displayName: 'Multiple Choice',
							name: 'multiselect',
							type: 'boolean',
							default: false,
							description:
								'Whether to allow the user to select multiple options from the dropdown list',
							displayOptions: { show: { fieldType: ['dropdown'] } },
						},
						{
							displayName: 'Placeholder',
							name: 'placeholder',
							type: 'string',
							default: '',
							description: 'Sample text to display inside the field',
							displayOptions: { hide: { fieldType: ['dropdown', 'date'] } },
						},
						{
							displayName: 'Required Field',
							name: 'requiredField',
							type: 'boolean',
							default: false,
							description:
								'Whether to require the user to enter a value for this field before submitting the form',
						},
					],
				},
			],
		},
	];
}
