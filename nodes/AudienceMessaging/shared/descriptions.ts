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

/** n8n's Return All / Limit pair of a Get Many operation (paging is done by shared/pagination). */
export function returnAllAndLimit(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
			displayOptions: { show },
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			displayOptions: { show: { ...show, returnAll: [false] } },
		},
	];
}
