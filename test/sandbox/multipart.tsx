/**
 * Streaming multipart/form-data parser: memory use is bounded by one chunk plus the part headers.
 */

export interface PartHeaders {
	name: string;
	filename?: string;
	contentType?: string;
	headers: Record<string, string>;
}

export interface PartSink {
	data(chunk: Buffer): void;
	end(): void;
}

export class MultipartError extends Error {}

/**
 * Sandbox choice (spec: not shown): a part's headers may take 16 KB, a boundary line 1 KB (else 400
 * MALFORMED_MULTIPART).
 */
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

type State = 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done';

export class MultipartParser {
	private readonly delimiter: Buffer;
	// A virtual leading CRLF lets the first boundary match the same delimiter as all later ones.
	private pending: Buffer = CRLF;
	private state: State = 'preamble';
	private part?: PartSink;

	constructor(
		boundary: string,
		private readonly onPart: (headers: PartHeaders) => PartSink,
	) {
		this.delimiter = Buffer.from(`\r\n--${boundary}`);
	}

	write(chunk: Buffer): void {
		this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
		while (this.step());
	}

	end(): void {
		if (this.state !== 'done') throw new MultipartError('body ended before the closing boundary');
	}

	/** Advances one state; false when more input is needed. */
	private step(): boolean {
		switch (this.state) {
			case 'preamble':
				return this.seekDelimiter(() => undefined);
			case 'body':
				return this.seekDelimiter((chunk) => this.part?.data(chunk));
			case 'after-delimiter':
				return this.afterDelimiter();
			case 'headers':
				return this.headers();
			case 'done':
				this.pending = EMPTY; // the epilogue is ignored
				return false;
		}
	}

	private seekDelimiter(emit: (chunk: Buffer) => void): boolean {
		let from = 0;
		for (;;) {
			const at = this.pending.indexOf(this.delimiter, from);
			if (at < 0) {
				// Keep a tail that could be the start of a delimiter split across chunks.
				const keep = Math.min(this.pending.length, this.delimiter.length - 1);
				if (this.pending.length > keep) emit(this.pending.subarray(0, this.pending.length - keep));
				this.pending = Buffer.from(this.pending.subarray(this.pending.length - keep));
				return false;
			}
			const next = at + this.delimiter.length;
			if (this.pending.length < next + 2) {
				// Need the two bytes after the delimiter to know whether it really is one.
				if (at > 0) emit(this.pending.subarray(0, at));
				this.pending = Buffer.from(this.pending.subarray(at));
				return false;
			}
			if (!endsBoundary(this.pending[next], this.pending[next + 1])) {
				from = at + 1; // the boundary text followed by other bytes is just data
				continue;
			}
			if (at > 0) emit(this.pending.subarray(0, at));
			if (this.state === 'body') this.part?.end();
			this.part = undefined;
			this.pending = this.pending.subarray(next);
			this.state = 'after-delimiter';
			return true;
		}
	}

	private afterDelimiter(): boolean {
		if (this.pending.length < 2) return false;
		if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
			this.state = 'done';
			return true;
		}
		const eol = this.pending.indexOf(CRLF);
		if (eol < 0) {
			if (this.pending.length > 1024) throw new MultipartError('boundary line is not terminated');
			return false;
		}
		// RFC 2046 allows linear whitespace ("transport padding") after a boundary.
		if (this.pending.subarray(0, eol).toString('latin1').trim() !== '') {
			throw new MultipartError('unexpected characters after a boundary');
		}
		this.pending = this.pending.subarray(eol + 2);
		this.state = 'headers';
		return true;
	}

	private headers(): boolean {
		const noHeaders = this.pending.subarray(0, 2).equals(CRLF);
		const end = noHeaders ? 0 : this.pending.indexOf(HEADER_END);
		if (end < 0) {
			if (this.pending.length > MAX_HEADER_BYTES)
				throw new MultipartError('part headers exceed 16 KB');
			return false;
		}
		const headers = parsePartHeaders(this.pending.subarray(0, end).toString('utf8'));
		this.pending = this.pending.subarray(end + (noHeaders ? 2 : 4));
		this.state = 'body';
		this.part = this.onPart(headers);
		return true;
	}
}

function parsePartHeaders(text: string): PartHeaders {
	const headers: Record<string, string> = {};
	for (const line of text.split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	const disposition = parseHeaderValue(headers['content-disposition'] ?? '');
	const filename = extendedFilename(disposition.params['filename*']) ?? disposition.params.filename;
	return {
		name: disposition.params.name ?? '',
		filename,
		contentType: headers['content-type'],
		headers,
	};
}

/** RFC 5987 `filename*=utf-8''name` form. */
function extendedFilename(value: string | undefined): string | undefined {
	const match = value && /^[\w-]+'[^']*'(.*)$/.exec(value);
	if (!match) return undefined;
	try {
		return decodeURIComponent(match[1]);
	} catch {
		return match[1];
	}
}

/** Splits `type; a=1; b="x y"` into a lowercased value and its parameters. */
export function parseHeaderValue(header: string): {
	value: string;
	params: Record<string, string>;
} {
	const semicolon = header.indexOf(';');
	const value = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
	const params: Record<string, string> = {};
	const pattern = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
	for (const match of header.matchAll(pattern)) {
		params[match[1].toLowerCase()] =
			match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3].trim();
	}
	return { value, params };
}

/** After `--boundary` comes `--` (close), CRLF, or transport padding (space/tab). */
const endsBoundary = (a: number, b: number) =>
	(a === 0x2d && b === 0x2d) || (a === 0x0d && b === 0x0a) || a === 0x20 || a === 0x09;
