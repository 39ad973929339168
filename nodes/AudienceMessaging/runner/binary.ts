/** An input item's binary file: its first bytes, its size, its content opened on demand. */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import { InputError } from '../../../src/base';
import type { ByteSource } from '../../../src/base';

export interface BinaryFile {
	fileName: string;
	size: number;
	/** The first bytes, enough to check a CSV header before upload. */
	head: Buffer;
	/** Opens the content: a stream where n8n keeps binaries outside memory, so never buffered. */
	open: () => Promise<Buffer | ByteSource>;
	/** The content, when n8n holds it in the item (its default binary mode). */
	buffer?: Buffer;
}

const HEAD_BYTES = 64 * 1024;

/** n8n's binary stream highWaterMark: larger reads check CSV faster (docs/benchmarks.md). */
const READ_CHUNK_BYTES = 1024 * 1024;

/** The item's binary `propertyName` (n8n's reference, not content), else the field's error. */
export function inputBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	field: string,
): IBinaryData {
	const item = context.getInputData()[itemIndex];
	const binary = item?.binary?.[propertyName];
	if (binary) return binary;
	// n8n also finds a file kept in the item's JSON (binary mode `combined`: the field is a path).
	try {
		const found = context.helpers.assertBinaryData?.(itemIndex, propertyName);
		if (found) return found;
	} catch {
		// Not there either: the field's own error below.
	}
	const available = Object.keys(item?.binary ?? {});
	throw new InputError(
		field,
		`the input item has no binary property "${propertyName}"${available.length ? ` (it has: ${available.join(', ')})` : ' (it has no binary data)'}`,
	);
}

/** Reads an item's binary property without loading a filesystem or S3 binary into memory. */
export async function binaryFile(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
	field: string,
): Promise<BinaryFile> {
	const binary = inputBinary(context, itemIndex, propertyName, field);
	const fileName = binary.fileName ?? `${propertyName}.csv`;
	if (binary.id) {
		const id = binary.id;
		const metadata = await context.helpers.getBinaryMetadata(id);
		const size = Number(metadata.fileSize);
		const headStream = await context.helpers.getBinaryStream(id, HEAD_BYTES);
		// A store may hand over the whole file as one chunk (n8n's database mode): keep a copy of
		// the first HEAD_BYTES only, so the chunk can be freed at once.
		const parts: Buffer[] = [];
		let length = 0;
		for await (const chunk of headStream) {
			const piece = Buffer.from((chunk as Buffer).subarray(0, HEAD_BYTES - length));
			parts.push(piece);
			length += piece.length;
			if (length >= HEAD_BYTES) break;
		}
		headStream.destroy();
		return {
			fileName,
			size,
			head: Buffer.concat(parts),
			open: async () => await context.helpers.getBinaryStream(id, READ_CHUNK_BYTES),
		};
	}
	const buffer = Buffer.from(binary.data, BINARY_ENCODING);
	return {
		fileName,
		size: buffer.length,
		head: buffer.subarray(0, HEAD_BYTES),
		open: async () => buffer,
		buffer,
	};
}
