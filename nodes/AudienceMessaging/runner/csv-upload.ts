/** A CSV binary checked before upload, and its streamed multipart upload. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { assertCsvSize, checkCsv, csvHeader, rewrittenCsv } from '../../../src/csv';
import { InputError, quoted, requiredText } from '../../../src/base';
import type { ByteSource } from '../../../src/base';
import { multipartFileBody } from '../../../src/http';
import type { CsvCheck, CsvProblem } from '../../../src/csv';
import { binaryFile } from './binary';
import type { Reader } from './parameters';
import type { BinaryFile } from './binary';
import { runsAsTool } from './tool';
import type { CsvPolicy } from './csv-options';

/** A CSV binary checked row by row; the upload sends it as it is, or rewritten (`rewrite`). */
export interface CsvFile extends BinaryFile {
	check: CsvCheck;
	rewrite?: { leaveOut: boolean; convert: boolean; size: number };
}

const DELIMITER_NAMES: Record<string, string> = {
	';': 'semicolons',
	'\t': 'tabs',
	'|': 'vertical bars',
};

const line = (problem: CsvProblem) =>
	`line ${problem.line}${problem.column ? `, column "${problem.column}"` : ''}: ${problem.problem}`;

/** The error refusing a file: its count and first problem, the listed ones in its description. */
function problemsError(fileName: string, check: CsvCheck, advice: string): InputError {
	const { problemCount, badRows, problems } = check.report;
	const count = `${problemCount} problem${problemCount === 1 ? '' : 's'}${badRows > 1 ? ` in ${badRows} rows` : ''}`;
	const listed = problems.map((problem) => `- ${line(problem)}`).join('\n');
	const more =
		problemCount > problems.length ? `\n…and ${problemCount - problems.length} more.` : '';
	return new InputError(
		'binaryPropertyName',
		`the CSV file "${fileName}" has ${count}, the first on ${line(problems[0])}`,
		`${listed}${more}\nNothing was uploaded. ${advice}`,
	);
}

/** The item's Input Binary Field: the name of the binary property that holds its CSV file. */
export function csvFieldName(read: Reader, itemIndex: number): string {
	const name = read('binaryPropertyName', itemIndex, 'data');
	return requiredText(name, 'binaryPropertyName', 'the binary field name');
}

/**
 * An item's CSV binary checked before any request (size, header, every row in one streamed read);
 * a file with problems is refused, rewritten without bad rows, or uploaded, as `policy` says.
 */
export async function validatedCsvFile(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	policy: CsvPolicy,
): Promise<CsvFile> {
	// A tool call hands over arguments, never a file: say what to use instead.
	if (runsAsTool(context.getNode())) {
		throw new NodeOperationError(
			context.getNode(),
			'This operation uploads a CSV file from an earlier node, which a tool call cannot hand over.',
			{
				itemIndex,
				description:
					'Nothing was sent. To create a list with its subscribers, use List › Create with Rows (JSON); to add subscribers, use Subscriber › Add Many with Input Data JSON.',
			},
		);
	}
	const file = await binaryFile(context, itemIndex, propertyName, 'binaryPropertyName');
	assertCsvSize(file.size, 'binaryPropertyName');
	csvHeader(file.head, 'binaryPropertyName');
	const convert = policy.otherDelimiter === 'convert';
	const check = await checkCsv(file.open, file.head, {
		autoColumns: policy.autoColumns,
		keyColumn: policy.keyColumn,
		convert,
		rowSizes: policy.onProblems === 'leaveOut',
	});
	const { report } = check;
	const otherDelimiter = report.delimiter !== ',';
	if (otherDelimiter && !convert) {
		throw new InputError(
			'binaryPropertyName',
			`the values of ${quoted(file.fileName)} are separated by ${DELIMITER_NAMES[report.delimiter] ?? `"${report.delimiter}"`}, and the platform reads commas`,
			'Nothing was uploaded. Save the file with commas ("CSV UTF-8 (comma delimited)"), or set Options › Other Delimiter to Convert to Commas.',
		);
	}
	let leaveOut = false;
	if (report.problemCount) {
		const readable = report.rowsCanBeLeftOut;
		const advice =
			policy.onProblems === 'refuse'
				? 'Fix the file, or set Options › When the CSV Has Problems to Leave Out the Bad Rows or Upload Anyway.'
				: policy.onProblems === 'leaveOut' && !readable
					? 'These problems are not in rows that can be left out (the header, or a place the reading cannot pass): fix the file.'
					: otherDelimiter && !readable
						? 'A file that cannot be read to its end cannot be converted to commas: fix the file.'
						: undefined;
		if (advice) throw problemsError(file.fileName, check, advice);
		leaveOut = policy.onProblems === 'leaveOut';
	}
	const rewritten = (leaveOut && check.badRows.size > 0) || otherDelimiter;
	if (!rewritten) return { ...file, check };
	const size = leaveOut ? check.rewrittenBytes.withoutBadRows : check.rewrittenBytes.withBadRows;
	if (size === undefined)
		throw new NodeOperationError(
			context.getNode(),
			'The size of the CSV file without its bad rows was not counted',
			{ itemIndex },
		);
	return { ...file, check, rewrite: { leaveOut, convert: otherDelimiter, size } };
}

/** The content, opened only when the upload reads it: a preview never opens it. */
function openedWhenRead(open: BinaryFile['open']): ByteSource {
	return {
		async *[Symbol.asyncIterator]() {
			const data = await open();
			if (Buffer.isBuffer(data)) yield data;
			else yield* data;
		},
	};
}

/** What the upload did, in output and preview: rows left out, conversion, warnings (or nothing). */
export function csvOutcome(file: CsvFile): IDataObject {
	const { report } = file.check;
	const leftOut = file.rewrite?.leaveOut ? report.badRows : 0;
	return {
		...(leftOut
			? {
					rowsLeftOut: leftOut,
					problems: report.problems as unknown as IDataObject[],
					problemCount: report.problemCount,
				}
			: {}),
		...(file.rewrite?.convert ? { convertedFrom: report.delimiter } : {}),
		...(report.problemCount && !leftOut
			? {
					uploadedWithProblems: report.problemCount,
					problems: report.problems as unknown as IDataObject[],
				}
			: {}),
		...(report.warnings.length ? { warnings: report.warnings } : {}),
	};
}

/** The streamed upload of a checked file as multipart part `csvFile`, and what a preview shows. */
export function csvUpload(
	file: CsvFile,
): ReturnType<typeof multipartFileBody> & { preview: IDataObject } {
	const { rewrite, check } = file;
	const data = rewrite
		? rewrittenCsv(
				openedWhenRead(file.open),
				check.layout,
				rewrite.leaveOut ? check.badRows : new Set(),
				rewrite.convert,
			)
		: (file.buffer ?? openedWhenRead(file.open));
	const size = rewrite?.size ?? file.size;
	const upload = multipartFileBody({
		name: 'csvFile',
		fileName: file.fileName,
		contentType: 'text/csv',
		data,
		size,
	});
	const rows = check.report.rows - (rewrite?.leaveOut ? check.report.badRows : 0);
	const preview = {
		contentType: 'multipart/form-data',
		csvFile: {
			fileName: file.fileName,
			contentType: 'text/csv',
			bytes: size,
			rows,
			columns: check.report.columns,
			...csvOutcome(file),
		},
	};
	return { ...upload, preview };
}
