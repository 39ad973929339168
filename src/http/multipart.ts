/** Multipart/form-data bodies with one file part, streamed when the file is a stream. */
import { randomBytes } from 'node:crypto';

import type { ByteSource } from '../base/bytes';

interface FilePart {
	name: string;
	fileName: string;
	contentType: string;
	data: Buffer | ByteSource;
	size: number;
}

/** A `Blob`-shaped body n8n's helper streams, sized by `size` (n8n Cloud bans `node:stream`). */
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

/** One file part; a stream stays a stream (never held in memory, read once: never resent). */
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
