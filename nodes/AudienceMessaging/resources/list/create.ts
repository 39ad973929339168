/** List › Create: POST /lists, its JSON body built from the parameters and schema-checked. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, identifiedObjectResponse } from '../../../../src/http';
import {
	createListBody,
	createListRequestSchema,
	DEFAULT_COLUMN_TYPE,
	simplifyList,
} from '../../../../src/platform';
import { previewOptions, readSimplify, simplifyField } from '../../runner/descriptions';
import { runPerItem } from '../../runner/execute';
import { fieldLabels } from '../../runner/labels';
import { parameterReader } from '../../runner/parameters';
import type { Operation } from '../../runner/operation';

const UNDOCUMENTED_TYPE = "Not in the platform's documentation: your account may refuse it";

export async function createList(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const read = parameterReader(this);
	return await runPerItem(this, {
		labels: fieldLabels(createListFields),
		prepare: (itemIndex) => ({
			body: createListRequestSchema.parse(
				createListBody({
					name: read('name', itemIndex, ''),
					columns: read('columns', itemIndex, {}),
					rows: read('rows', itemIndex, '[]'),
				}),
			),
			simplify: readSimplify(this, itemIndex),
		}),
		send: async ({ body, simplify }, itemIndex) => {
			const { data } = await apiRequest(this, {
				base: 'lists',
				method: 'POST',
				path: '/lists',
				body,
				itemIndex,
				action: `create the list "${body.name}"`,
				expect: identifiedObjectResponse,
			});
			return simplify ? simplifyList(data) : data;
		},
	});
}

const createListFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Newsletter 2026',
		description: 'Name of the new list',
	},
	{
		displayName: 'Columns',
		name: 'columns',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Column',
		default: {},
		description:
			'Columns of the list, besides the automatic ID, email, mobile, devices and devices_type; a column named like one of those replaces it',
		options: [
			{
				displayName: 'Column',
				name: 'column',
				values: [
					{
						displayName: 'Default Value',
						name: 'defaultValue',
						type: 'string',
						default: '',
						description: 'Value given to subscribers added without one, leave empty for none',
					},
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. firstName',
						description: 'Column name; rows use it as key',
					},
					{
						displayName: 'Required',
						name: 'required',
						type: 'boolean',
						default: false,
						description: 'Whether every subscriber must have a value in this column',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						// Also the type of a column saved without one; emptied by an
						// expression, it is an error naming the column.
						default: DEFAULT_COLUMN_TYPE,
						// The spec shows STRING only; the others are marked undocumented.
						options: [
							{ name: 'Boolean', value: 'BOOLEAN', description: UNDOCUMENTED_TYPE },
							{ name: 'Date', value: 'DATE', description: UNDOCUMENTED_TYPE },
							{ name: 'Number', value: 'NUMBER', description: UNDOCUMENTED_TYPE },
							{ name: 'String', value: 'STRING', description: 'The type the platform documents' },
						],
						description: 'Data type of the column; the platform documents only String',
					},
					{
						displayName: 'Unique',
						name: 'unique',
						type: 'boolean',
						default: false,
						description: 'Whether values in this column cannot repeat',
					},
				],
			},
		],
	},
	{
		displayName: 'Rows (JSON)',
		name: 'rows',
		type: 'json',
		default: '[]',
		description:
			'Subscribers to add when the list is created: a JSON array of objects keyed by column name, e.g. [{"email": "ada@example.com", "firstName": "Ada"}]',
	},
	simplifyField(),
	previewOptions(),
];

export const operation: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create a list',
		description: 'Create a list with typed columns and, optionally, its first subscribers',
	},
	fields: createListFields,
	run: createList,
};
