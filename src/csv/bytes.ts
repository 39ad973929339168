/** The bytes of a CSV file: its pieces as they are read, and its byte order mark. */

import type { ByteSource } from '../base/bytes';

/** Pieces of 64 KB: a piece's text and values stay in the processor cache (docs/benchmarks.md). */
export const PIECE_BYTES = 64 * 1024;

/** Reads of a file held in memory: as large as those asked of n8n's store. */
const READ_BYTES = 1024 * 1024;

/** A file's bytes as they come: a stream's chunks, or a buffer in reads of READ_BYTES. */
export async function* byteChunks(source: Buffer | ByteSource): AsyncGenerator<Uint8Array> {
	if (Buffer.isBuffer(source)) {
		for (let start = 0; start < source.length; start += READ_BYTES)
			yield source.subarray(start, start + READ_BYTES);
		return;
	}
	for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

export const BOM = [0xef, 0xbb, 0xbf];
