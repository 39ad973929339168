import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export interface FilePart {
	name: string;
	fileName: string;
	contentType: string;
	data: Buffer | Readable;
	size: number;
}

/**
 * A multipart/form-data body with one file part. A stream source stays a stream, so a
 * 200 MB CSV goes out without being held in memory; Content-Length is exact either way.
 */
export function multipartFileBody(part: FilePart): { body: Buffer | Readable; headers: Record<string, string> } {
	const boundary = `----AudienceMessaging${randomBytes(12).toString('hex')}`;
	const safeName = part.fileName.replace(/["\r\n]/g, '_');
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${safeName}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	const headers = {
		'Content-Type': `multipart/form-data; boundary=${boundary}`,
		'Content-Length': String(head.length + part.size + tail.length),
	};
	if (Buffer.isBuffer(part.data)) return { body: Buffer.concat([head, part.data, tail]), headers };
	const source = part.data;
	async function* chunks() {
		yield head;
		for await (const chunk of source) yield chunk as Buffer;
		yield tail;
	}
	return { body: Readable.from(chunks(), { objectMode: false }), headers };
}
