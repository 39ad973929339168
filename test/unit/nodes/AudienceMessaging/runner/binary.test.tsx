import { Readable } from 'node:stream';
import type { IExecuteFunctions } from 'n8n-workflow';

import { binaryFile } from '../../../../../nodes/AudienceMessaging/runner/binary';

/**
 * The CSV header check reads a bounded slice whatever chunk size the binary store yields: n8n's
 * database mode hands a stored file over as one chunk.
 */
function contextWith(chunks: Buffer[]): IExecuteFunctions {
	const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
	return {
		getInputData: () => [
			{
				json: {},
				binary: { data: { id: 'database:1', fileName: 'big.csv', mimeType: 'text/csv', data: '' } },
			},
		],
		helpers: {
			getBinaryMetadata: async () => ({ fileSize: size }),
			getBinaryStream: async () => Readable.from(chunks),
		},
	} as unknown as IExecuteFunctions;
}

describe('binaryFile head', () => {
	it('keeps 64 KB of a file handed over as one 5 MB chunk, not the chunk', async () => {
		const whole = Buffer.alloc(5 * 1024 * 1024, 'a');
		const file = await binaryFile(contextWith([whole]), 0, 'data', 'binaryPropertyName');
		expect(file.size).toBe(whole.length);
		expect(file.head.length).toBe(64 * 1024);
		// A copy: the 5 MB chunk is not kept alive through the head's underlying memory.
		expect(file.head.buffer.byteLength).toBeLessThan(1024 * 1024);
	});

	it('joins small chunks up to 64 KB', async () => {
		const chunks = Array.from({ length: 100 }, () => Buffer.alloc(1000, 'b'));
		const file = await binaryFile(contextWith(chunks), 0, 'data', 'binaryPropertyName');
		expect(file.head.length).toBe(64 * 1024);
	});
});
