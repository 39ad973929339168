import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { assertCsvSize, csvHeader, multipartFileBody } from '../core';
import { binaryFile } from './binary';
import type { BinaryFile } from './binary';
import { runsAsTool } from './tool';

/** The CSV binary of an item, refused before upload when missing, empty, over 200 MB, not text, or without a usable header. */
export async function validatedCsvFile(context: IExecuteFunctions, itemIndex: number, propertyName: string): Promise<BinaryFile> {
	// A tool call hands over arguments, never a file: say what to use instead.
	if (runsAsTool(context.getNode())) {
		throw new NodeOperationError(context.getNode(), 'This operation uploads a CSV file from an earlier node, which a tool call cannot hand over.', {
			itemIndex,
			description: 'Nothing was sent. To create a list with its subscribers, use List › Create with Rows (JSON); to add subscribers, use Subscriber › Add Many with Input Data JSON.',
		});
	}
	const file = await binaryFile(context, itemIndex, propertyName, 'binaryPropertyName');
	assertCsvSize(file.size, 'binaryPropertyName');
	csvHeader(file.head, 'binaryPropertyName');
	return file;
}

/** The request body and headers uploading a checked CSV file as the multipart part `csvFile` (List › Create From CSV, Subscriber › Add Many), streamed. */
export async function csvUpload(file: BinaryFile): Promise<ReturnType<typeof multipartFileBody>> {
	return multipartFileBody({ name: 'csvFile', fileName: file.fileName, contentType: 'text/csv', data: await file.open(), size: file.size });
}
