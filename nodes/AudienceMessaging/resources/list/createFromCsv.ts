/** List › Create From CSV: the CSV binary streamed as the multipart part csvFile of POST /lists. */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, identifiedObjectResponse } from '../../../../src/http';
import { record, text } from '../../../../src/base';
import {
	csvImportOptions,
	csvImportQuery,
	csvImportQuerySchema,
	simplifyList,
} from '../../../../src/platform';
import {
	optionsCollection,
	previewOption,
	rateLimitWaitOption,
	readSimplify,
	simplifyField,
} from '../../runner/descriptions';
import { csvCheckOptions, csvPolicyOf } from '../../runner/csv-options';
import { csvFieldName, csvOutcome, csvUpload, validatedCsvFile } from '../../runner/csv-upload';
import type { CsvFile } from '../../runner/csv-upload';
import { runPerItem } from '../../runner/execute';
import { fieldLabels } from '../../runner/labels';
import { parameterReader } from '../../runner/parameters';
import type { Operation } from '../../runner/operation';

const createListFromCsvFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Imported customers',
		description: 'Name of the new list',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field holding the CSV file (at most 200 MB)',
		description:
			'The CSV file: its header line names the columns, each column type is inferred from its first value',
	},
	simplifyField(),
	optionsCollection([
		{
			displayName: 'Case Sensitive Columns',
			name: 'caseSensitive',
			type: 'boolean',
			default: false,
			description: 'Whether column names are case sensitive',
		},
		{
			displayName: 'Fill Empty Unique Columns',
			name: 'usesGeneratedData',
			type: 'boolean',
			default: false,
			description: 'Whether empty unique columns are filled with generated data',
		},
		{
			displayName: 'Key',
			name: 'key',
			type: 'string',
			default: '',
			description: 'Column used as the list key; leave empty for an auto-generated key',
		},
		{
			displayName: 'Track Last Activity',
			name: 'trackLastActivity',
			type: 'boolean',
			default: false,
			description: 'Whether the list tracks each subscriber last activity',
		},
		{
			displayName: 'Use Automatic Columns',
			name: 'usesAutoColumns',
			type: 'boolean',
			default: true,
			description:
				'Whether the list gets the automatic columns (ID, email, mobile, devices, devices_type)',
		},
		previewOption(),
		rateLimitWaitOption(),
		...csvCheckOptions(),
	]),
];

interface PreparedUpload {
	query: IDataObject;
	file: CsvFile;
	simplify: boolean;
}

async function createListFromCsv(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const read = parameterReader(this);
	return await runPerItem<PreparedUpload>(this, {
		labels: fieldLabels(createListFromCsvFields),
		rateLimitWaitOption: true,
		describe: ({ query }) => ({ name: query.name }),
		prepare: async (itemIndex) => {
			const propertyName = csvFieldName(read, itemIndex);
			const name = text(read('name', itemIndex, ''), 'name');
			const raw = record(read('options', itemIndex, {}), 'options');
			const options = csvImportOptions(raw);
			const query = csvImportQuerySchema.parse(csvImportQuery(name, options));
			const simplify = readSimplify(this, itemIndex);
			const policy = csvPolicyOf(raw, {
				autoColumns: query.usesAutoColumns !== false,
				keyColumn: typeof query.key === 'string' && query.key ? query.key : undefined,
			});
			const file = await validatedCsvFile(this, itemIndex, propertyName, policy);
			return { query: query as IDataObject, file, simplify };
		},
		send: async ({ query, file, simplify }, itemIndex) => {
			const { body, headers, preview } = csvUpload(file);
			const response = await apiRequest(this, {
				base: 'lists',
				method: 'POST',
				path: '/lists',
				qs: query,
				body,
				headers,
				preview,
				itemIndex,
				action: `create the list "${String(query.name)}" from a CSV file`,
				reconcile: `look for a list named "${String(query.name)}" in the platform's web application (the List picker's From List shows it only where the account lists its lists)`,
				expect: identifiedObjectResponse,
			});
			const csv = csvOutcome(file);
			const list = simplify ? simplifyList(response.data) : response.data;
			return Object.keys(csv).length ? { ...list, csvCheck: csv } : list;
		},
	});
}

export const operation: Operation = {
	option: {
		name: 'Create From CSV',
		value: 'createFromCsv',
		action: 'Create a list from a CSV file',
		description: 'Create a list whose columns and subscribers come from a CSV file',
	},
	fields: createListFromCsvFields,
	run: createListFromCsv,
};
