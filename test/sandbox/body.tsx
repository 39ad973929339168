/** Reads a request's body with a size cap: JSON, or multipart parts streamed to a sink. */
import type { IncomingMessage } from 'node:http';
import { HttpError, badRequest, formatBytes } from './http';
import {
	MultipartError,
	MultipartParser,
	parseHeaderValue,
	type PartHeaders,
	type PartSink,
} from './multipart';
import type { RecordedPart, RecordedRequest } from './types';

const RECORD_TEXT_LIMIT = 1024 * 1024;
/**
 * Sandbox choice (spec: not shown): non-multipart bodies are buffered; anything larger is refused
 * (413 PAYLOAD_TOO_LARGE).
 */
export const MAX_BUFFERED_BODY = 50 * 1024 * 1024;

/**
 * Sandbox choice (spec: not shown): JSON is application/json or a type ending in +json; a JSON text
 * labelled otherwise is 415.
 */
const isJsonType = (type: string | undefined) =>
	!!type && (type === 'application/json' || type.endsWith('+json'));
const isTextType = (type: string | undefined) =>
	!!type &&
	(isJsonType(type) ||
		type.startsWith('text/') ||
		type.endsWith('xml') ||
		type === 'application/x-www-form-urlencoded');

type State = 'unread' | 'reading' | 'done' | 'aborted';

/** Reads a request body once, in the way the handler asks for, and records what it saw. */
export class BodyReader {
	state: State = 'unread';
	readonly contentType?: string;
	private readonly contentTypeParams: Record<string, string>;

	constructor(
		private readonly req: IncomingMessage,
		private readonly record: RecordedRequest,
	) {
		const header = parseHeaderValue(req.headers['content-type'] ?? '');
		this.contentType = header.value || undefined;
		this.contentTypeParams = header.params;
		if (this.contentType) record.contentType = this.contentType;
	}

	isJson(): boolean {
		return isJsonType(this.contentType);
	}

	isMultipart(): boolean {
		return this.contentType === 'multipart/form-data';
	}

	async json(): Promise<unknown> {
		if (!this.isJson()) {
			throw new HttpError(
				415,
				'UNSUPPORTED_MEDIA_TYPE',
				`Expected an application/json body (got ${this.contentType ?? 'no content type'})`,
			);
		}
		const text = (await this.buffer()).toString('utf8');
		if (text.trim() === '')
			throw badRequest('Request body is empty; expected JSON', 'INVALID_JSON');
		try {
			return JSON.parse(text);
		} catch (error) {
			throw badRequest(`Malformed JSON body: ${(error as Error).message}`, 'INVALID_JSON');
		}
	}

	/** Streams every part to the sink returned by onPart (undefined = discard); records all parts. */
	async multipart(onPart: (part: PartHeaders) => PartSink | undefined): Promise<void> {
		const boundary = this.contentTypeParams.boundary;
		if (!this.isMultipart() || !boundary) {
			throw badRequest(
				'Expected a multipart/form-data body with a boundary',
				'MALFORMED_MULTIPART',
			);
		}
		const parts: RecordedPart[] = (this.record.parts = []);
		const parser = new MultipartParser(boundary, (headers) => {
			const recorded: RecordedPart = {
				name: headers.name,
				filename: headers.filename,
				contentType: headers.contentType,
				size: 0,
			};
			parts.push(recorded);
			const capture = new TextCapture();
			const sink = onPart(headers);
			return {
				data(chunk) {
					recorded.size += chunk.length;
					capture.add(chunk);
					sink?.data(chunk);
				},
				end() {
					recorded.text = capture.text();
					sink?.end();
				},
			};
		});
		try {
			await this.consume((chunk) => parser.write(chunk));
			parser.end();
		} catch (error) {
			if (error instanceof MultipartError)
				throw badRequest(`Malformed multipart body: ${error.message}`, 'MALFORMED_MULTIPART');
			throw error;
		}
	}

	/** Reads and records a body no handler consumed (e.g. on 401/404), without failing. */
	async drain(): Promise<void> {
		try {
			if (this.isMultipart() && this.contentTypeParams.boundary)
				await this.multipart(() => undefined);
			else await this.buffer();
		} catch {
			if (this.state === 'aborted') this.discardRest();
		}
	}

	/**
	 * After an aborted read: let the rest of the upload flow into the void so the client still sees
	 * our reply.
	 */
	discardRest(): void {
		this.req.on('data', (chunk: Buffer) => (this.record.bodySize += chunk.length));
		this.req.resume();
	}

	private async buffer(): Promise<Buffer> {
		const chunks: Buffer[] = [];
		let size = 0;
		await this.consume((chunk) => {
			size += chunk.length;
			if (size > MAX_BUFFERED_BODY) {
				throw new HttpError(
					413,
					'PAYLOAD_TOO_LARGE',
					`Request body exceeds the ${formatBytes(MAX_BUFFERED_BODY)} limit`,
				);
			}
			chunks.push(chunk);
		});
		const body = Buffer.concat(chunks);
		if (isTextType(this.contentType) && body.length < RECORD_TEXT_LIMIT)
			this.record.rawBody = body.toString('utf8');
		if (this.isJson()) {
			try {
				this.record.body = JSON.parse(body.toString('utf8'));
			} catch {
				// malformed JSON stays visible in rawBody only
			}
		}
		return body;
	}

	/** Feeds chunks to onChunk; an exception from onChunk aborts the read and rejects. */
	private consume(onChunk: (chunk: Buffer) => void): Promise<void> {
		if (this.state !== 'unread')
			return Promise.reject(new Error(`request body already ${this.state}`));
		this.state = 'reading';
		const req = this.req;
		return new Promise<void>((resolve, reject) => {
			const finish = (error?: unknown) => {
				req.off('data', onData).off('end', onEnd).off('error', onClose).off('close', onClose);
				if (error === undefined) {
					this.state = 'done';
					resolve();
				} else {
					this.state = 'aborted';
					req.pause();
					reject(error);
				}
			};
			const onData = (chunk: Buffer) => {
				this.record.bodySize += chunk.length;
				try {
					onChunk(chunk);
				} catch (error) {
					finish(error);
				}
			};
			const onEnd = () => finish();
			// 499 (nginx's "client closed request") is recorded; nobody is left to read the reply.
			const onClose = () =>
				finish(
					new HttpError(
						499,
						'CLIENT_CLOSED_REQUEST',
						'Client closed the connection before the body was complete',
					),
				);
			if (req.readableEnded) return finish();
			req.on('data', onData).on('end', onEnd).on('error', onClose).on('close', onClose);
		});
	}
}

/** Keeps a part's bytes only while it stays under the recording limit. */
class TextCapture {
	private chunks: Buffer[] | undefined = [];
	private size = 0;

	add(chunk: Buffer): void {
		this.size += chunk.length;
		if (!this.chunks) return;
		if (this.size >= RECORD_TEXT_LIMIT) this.chunks = undefined;
		else this.chunks.push(Buffer.from(chunk));
	}

	text(): string | undefined {
		return this.chunks && Buffer.concat(this.chunks).toString('utf8');
	}
}
