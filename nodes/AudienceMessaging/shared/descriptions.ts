import type { INodeProperties } from 'n8n-workflow';

/** The list picker used by every list-scoped operation: from the account's lists, or by ID. */
export function listLocator(displayOptions: INodeProperties['displayOptions'], extra: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'List',
		name: 'listId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The subscriber list to work on',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a list...',
				typeOptions: { searchListMethod: 'searchLists', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 42',
				validation: [
					{ type: 'regex', properties: { regex: '^\\s*\\d+\\s*$', errorMessage: 'A list ID is a whole number, for example 42' } },
				],
			},
		],
		displayOptions,
		...extra,
	};
}
