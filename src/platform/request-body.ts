/** readBodyWithin: a webhook request's body, decoded, read only while it fits. */
import { RequestRejection } from '../base/rejection';

/** The request stream n8n hands over (no `node:stream` import: n8n Cloud allows none). */
type BodyStream = NodeJS.ReadableStream & { readableEnded?: boolean };

/** A request as the trigger's webhook() gets it: the stream unread, or `rawBody`/`body` if read. */
export type WebhookRequest = Partial<BodyStream> & {
	headers: Record<string, string | string[] | undefined>;
	rawBody?: Buffer;
	body?: unknown;
};

type Format = ConstructorParameters<typeof DecompressionStream>[0];

/** The content encodings decoded, as n8n's own reader decodes them (zlib's gunzip, inflate). */
const FORMATS: Record<string, Format> = {
	gzip: 'gzip',
	'x-gzip': 'gzip',
	deflate: 'deflate',
};

/**
 * Past `limit` bytes, as sent or as decoded, reading stops with a RequestRejection 413 (`tooLarge`)
 * and the rest stays unread (n8n's readRawBody takes up to 16 MB whatever the limit). A compressed
 * body goes to the decoder piece by piece and its output is counted as it comes, so a small piece
 * cannot swell past the limit; other encodings are read as they are, as n8n reads them.
 */
export async function readBodyWithin(
	request: WebhookRequest,
	limit: number,
	tooLarge: string,
): Promise<Buffer> {
	const fits = (body: Buffer) => {
		if (body.length > limit) throw new RequestRejection(413, tooLarge);
		return body;
	};
	if (request.rawBody) return fits(request.rawBody);
	if (!request.readable || typeof request.on !== 'function')
		return fits(Buffer.from(request.body ? JSON.stringify(request.body) : ''));
	const stream = request as BodyStream;
	const encoding = String(request.headers['content-encoding'] ?? '')
		.trim()
		.toLowerCase();
	const format = FORMATS[encoding] as Format | undefined;
	const decoder = format ? new DecompressionStream(format) : undefined;
	const writer = decoder?.writable.getWriter();
	return await new Promise<Buffer>((resolve, reject) => {
		const pieces: Buffer[] = [];
		let sent = 0;
		let kept = 0;
		let done = false;
		const settle = (error?: Error) => {
			if (done) return;
			done = true;
			stream.pause();
			stream.off('data', onData).off('end', onEnd).off('error', cutOff).off('close', onClose);
			writer?.abort().catch(() => undefined);
			if (error) reject(error);
			else resolve(Buffer.concat(pieces));
		};
		const keep = (piece: Uint8Array) => {
			kept += piece.length;
			if (kept > limit) settle(new RequestRejection(413, tooLarge));
			else pieces.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
		};
		const malformed = (error: unknown) => {
			const detail = String((error as Error)?.message ?? '') || 'it does not decode';
			settle(new RequestRejection(400, `Malformed ${encoding} body: ${detail}`));
		};
		const onData = (piece: Buffer) => {
			sent += piece.length;
			if (sent > limit) return settle(new RequestRejection(413, tooLarge));
			if (!writer) return keep(piece);
			stream.pause();
			writer.write(piece).then(() => !done && stream.resume(), malformed);
		};
		const onEnd = () => (writer ? writer.close().catch(malformed) : settle());
		const cutOff = () => settle(new RequestRejection(400, 'The request body was cut off'));
		const onClose = () => !stream.readableEnded && cutOff();
		const reader = decoder?.readable.getReader();
		const decoded = async () => {
			while (reader && !done) {
				const { done: ended, value } = await reader.read();
				if (ended) settle();
				else if (!done) keep(value);
			}
		};
		decoded().catch(malformed);
		stream.on('data', onData).on('end', onEnd).on('error', cutOff).on('close', onClose);
		stream.resume();
	});
}
