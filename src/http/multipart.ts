import { randomBytes } from 'node:crypto';

import type { ByteSource } from '../base/bytes';

interface FilePart {
	name: string;
	fileName: string;
	contentType: string;
	data: Buffer | ByteSource;
	size: number;
}

/**
 * A request body that is read while it goes out: shaped like a web `Blob` (`size`, `type`,
 * `stream()`), which n8n's request helper sends as it reads it, with Content-Length from `size`.
 * The package needs no Node stream class for it (n8n Cloud allows community nodes no
 * `node:stream`).
 */
export interface StreamedBody {
	readonly size: number;
	readonly type: string;
	stream(): AsyncIterable<Uint8Array>;
	readonly [Symbol.toStringTag]: 'Blob';
}

export function isStreamedBody(body: unknown): body is StreamedBody {
	return (
		Object.prototype.toString.call(body) === '[object Blob]' &&
		typeof (body as StreamedBody).stream === 'function'
	);
}

/**
 * A multipart/form-data body with one file part. A stream source stays a stream, so a
 * 200 MB CSV goes out without being held in memory; Content-Length is exact either way.
 * The stream can be read once: a body that went out cannot be sent again.
 */
export function multipartFileBody(part: FilePart): {
	body: Buffer | StreamedBody;
	headers: Record<string, string>;
} {
	const boundary = `----AudienceMessaging${randomBytes(12).toString('hex')}`;
	const safeName = part.fileName.replace(/["\r\n]/g, '_');
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${safeName}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	const type = `multipart/form-data; boundary=${boundary}`;
	const size = head.length + part.size + tail.length;
	const headers = { 'Content-Type': type, 'Content-Length': String(size) };
	if (Buffer.isBuffer(part.data)) return { body: Buffer.concat([head, part.data, tail]), headers };
	const source = part.data;
	let read = false;
	async function* chunks(): AsyncGenerator<Uint8Array> {
		if (read) throw new Error('the file was already sent once: its stream cannot be read again');
		read = true;
		yield head;
		for await (const chunk of source) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		yield tail;
	}
	const body: StreamedBody = { size, type, stream: chunks, [Symbol.toStringTag]: 'Blob' };
	return { body, headers };
}
