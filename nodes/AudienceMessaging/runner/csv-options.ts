/** Options › When the CSV Has Problems and Other Delimiter, and the policy they set. */
import type { INodeProperties } from 'n8n-workflow';

import { oneOf } from '../../../src/base';

const ON_PROBLEMS = ['refuse', 'leaveOut', 'upload'] as const;
const OTHER_DELIMITER = ['refuse', 'convert'] as const;

/** The CSV check options of the operations that upload a CSV file (`show`: where they apply). */
export function csvCheckOptions(show?: Record<string, string[]>): INodeProperties[] {
	const displayOptions = show ? { displayOptions: { show } } : {};
	return [
		{
			displayName: 'When the CSV Has Problems',
			name: 'csvProblems',
			type: 'options',
			default: 'refuse',
			description:
				'Every row of the file is checked before it is uploaded (quotes, field count, UTF-8, e-mail and mobile values and their repeats, the Key column)',
			options: [
				{
					name: 'Refuse the File',
					value: 'refuse',
					description: 'Upload nothing and list the problems by line and column',
				},
				{
					name: 'Leave Out the Bad Rows',
					value: 'leaveOut',
					description: 'Upload the other rows; the output lists the rows left out',
				},
				{
					name: 'Upload Anyway',
					value: 'upload',
					description: 'Upload the file as it is; the platform reports what it refuses',
				},
			],
			...displayOptions,
		},
		{
			displayName: 'Other Delimiter',
			name: 'csvDelimiter',
			type: 'options',
			default: 'refuse',
			description:
				'What to do with a file whose values are separated by semicolons or tabs (how Excel saves CSV in many languages): the platform reads commas',
			options: [
				{ name: 'Refuse the File', value: 'refuse' },
				{
					name: 'Convert to Commas',
					value: 'convert',
					description: 'Upload the rows written again with commas, quoted where a value needs it',
				},
			],
			...displayOptions,
		},
	];
}

/** How an item's CSV file is checked and what happens to one with problems (from its Options). */
export interface CsvPolicy {
	onProblems: (typeof ON_PROBLEMS)[number];
	otherDelimiter: (typeof OTHER_DELIMITER)[number];
	/** Whether the list has the automatic unique columns (Use Automatic Columns). */
	autoColumns: boolean;
	keyColumn?: string;
}

export function csvPolicyOf(
	options: Record<string, unknown>,
	list: { autoColumns: boolean; keyColumn?: string },
): CsvPolicy {
	return {
		onProblems:
			options.csvProblems === undefined
				? 'refuse'
				: oneOf(options.csvProblems, 'csvProblems', ON_PROBLEMS),
		otherDelimiter:
			options.csvDelimiter === undefined
				? 'refuse'
				: oneOf(options.csvDelimiter, 'csvDelimiter', OTHER_DELIMITER),
		...list,
	};
}
