import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { assertCsvSize, csvHeader, multipartFileBody } from '../core';
import type { ByteSource } from '../core';
import { binaryFile } from './binary';
import type { BinaryFile } from './binary';
import { runsAsTool } from './tool';

/** A CSV binary checked before upload, with the column names of its header line. */
export interface CsvFile extends BinaryFile {
	columns: string[];
}

/** The CSV binary of an item, refused before upload when missing, empty, over 200 MB, not text, or without a usable header. */
export async function validatedCsvFile(context: IExecuteFunctions, itemIndex: number, propertyName: string): Promise<CsvFile> {
	// A tool call hands over arguments, never a file: say what to use instead.
	if (runsAsTool(context.getNode())) {
		throw new NodeOperationError(context.getNode(), 'This operation uploads a CSV file from an earlier node, which a tool call cannot hand over.', {
			itemIndex,
			description: 'Nothing was sent. To create a list with its subscribers, use List › Create with Rows (JSON); to add subscribers, use Subscriber › Add Many with Input Data JSON.',
		});
	}
	const file = await binaryFile(context, itemIndex, propertyName, 'binaryPropertyName');
	assertCsvSize(file.size, 'binaryPropertyName');
	const columns = csvHeader(file.head, 'binaryPropertyName');
	return { ...file, columns };
}

/** The file's content, opened only when the upload reads it: a preview, which sends nothing, never opens it. */
function openedWhenRead(open: BinaryFile['open']): ByteSource {
	return {
		async *[Symbol.asyncIterator]() {
			const data = await open();
			if (Buffer.isBuffer(data)) yield data;
			else yield* data;
		},
	};
}

/**
 * The request body and headers uploading a checked CSV file as the multipart part `csvFile` (List
 * › Create From CSV, Subscriber › Add Many), streamed, and what a preview shows of it instead.
 */
export function csvUpload(file: CsvFile): ReturnType<typeof multipartFileBody> & { preview: IDataObject } {
	const upload = multipartFileBody({ name: 'csvFile', fileName: file.fileName, contentType: 'text/csv', data: file.buffer ?? openedWhenRead(file.open), size: file.size });
	const preview = { contentType: 'multipart/form-data', csvFile: { fileName: file.fileName, contentType: 'text/csv', bytes: file.size, columns: file.columns } };
	return { ...upload, preview };
}
