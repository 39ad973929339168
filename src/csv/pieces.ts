/** A CSV file's bytes as pieces of ByteText, each checked as UTF-8 as it comes. */
import { BOM } from './bytes';
import { invalidUtf8At } from './utf8';

/**
 * A piece of a CSV as scanned: its bytes as latin1 text, one character a byte, which is the file's
 * text where it is ASCII (delimiters, quotes, line breaks always are). Far faster to scan than
 * decoded text, and a row's text is the bytes a rewritten file sends; values decode in textOf.
 */
export type ByteText = string;

/** A value read from a ByteText as the text it is (its UTF-8 bytes decoded). */
export function textOf(bytes: ByteText): string {
	for (let i = 0; i < bytes.length; i++)
		if (bytes.charCodeAt(i) >= 0x80) return Buffer.from(bytes, 'latin1').toString('utf8');
	return bytes;
}

/** A text as a ByteText (its UTF-8 bytes, one character a byte). */
export function byteTextOf(text: string): ByteText {
	for (let i = 0; i < text.length; i++)
		if (text.charCodeAt(i) >= 0x80) return Buffer.from(text, 'utf8').toString('latin1');
	return text;
}

/** Where the last, incomplete UTF-8 character of `bytes` starts (or their length). */
function completeLength(bytes: Uint8Array): number {
	for (let back = 1; back <= 3 && back <= bytes.length; back++) {
		const byte = bytes[bytes.length - back];
		if (byte < 0x80) return bytes.length;
		// A byte that starts no character is no character cut: the check finds it.
		if (byte >= 0xc0 && (byte < 0xc2 || byte > 0xf4)) return bytes.length;
		if (byte >= 0xc0) {
			const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
			return length > back ? bytes.length - back : bytes.length;
		}
	}
	return bytes.length;
}

/** A piece as ByteText, or where its first byte that is not UTF-8 is (in the piece, the file). */
type Piece =
	| { text: ByteText; bytes: Buffer }
	| { text: undefined; invalidAt: number; fileOffset: number };

/** Makes pieces of chunks (`piece`), carrying to the next the row each one ends in (`carry`). */
export class BytePieces {
	/** The bytes carried from the last piece: the row it ended in. */
	private carried: Buffer = Buffer.alloc(0);
	/** How many carried bytes, at their end, are a character not yet checked (incomplete). */
	private unchecked = 0;
	private bomChecked = false;
	/** Where the carried bytes start in the file. */
	private offset = 0;
	/** Where a piece is put together when its bytes are not one after the other in memory. */
	private joining: Buffer = Buffer.alloc(0);
	/** A piece joined in `joining`: its last chunk (at joinedAt), where carried bytes are read. */
	private joinedChunk: Buffer | undefined;
	private joinedAt = 0;
	bytes = 0;

	/** The carried bytes and `chunk` (none: the end) as a piece; undefined while a BOM is cut. */
	piece(chunk?: Uint8Array): Piece | undefined {
		if (chunk) this.bytes += chunk.length;
		this.joinedChunk = undefined;
		let bytes = chunk ? this.joined(chunk) : this.carried;
		// The bytes from `from` on are checked now: those carried were, but their last character.
		let from = Math.max(0, this.carried.length - this.unchecked);
		if (!this.bomChecked) {
			if (bytes.length < BOM.length && chunk) {
				this.carried = bytes;
				this.unchecked = bytes.length;
				return undefined;
			}
			this.bomChecked = true;
			from = 0;
			if (BOM.every((byte, index) => bytes[index] === byte)) {
				bytes = bytes.subarray(BOM.length);
				this.offset += BOM.length;
				this.joinedChunk = undefined;
			}
		}
		const complete = chunk ? completeLength(bytes) : bytes.length;
		const invalidAt = invalidUtf8At(bytes, from, complete);
		if (invalidAt !== -1) {
			this.carried = bytes;
			return { text: undefined, invalidAt, fileOffset: this.offset + invalidAt };
		}
		this.unchecked = bytes.length - complete;
		this.carried = bytes;
		return { text: bytes.toString('latin1', 0, bytes.length), bytes };
	}

	/** The rows read from the last piece end at `end`: the bytes after it are carried. */
	carry(end: number): void {
		const chunk = this.joinedChunk;
		// The rest of a joined piece is read in its chunk, not copied again with each piece of it.
		this.carried =
			chunk && end >= this.joinedAt
				? chunk.subarray(end - this.joinedAt)
				: this.carried.subarray(end);
		this.offset += end;
	}

	/** The first `length` carried bytes (rows not yet read, or a piece not UTF-8) as ByteText. */
	carriedText(length = this.carried.length): ByteText {
		return this.carried.toString('latin1', 0, Math.min(length, this.carried.length));
	}

	get endsInsideACharacter(): boolean {
		return completeLength(this.carried) < this.carried.length;
	}

	/** The carried bytes then `chunk`, without a copy when `chunk` follows them in memory. */
	private joined(chunk: Uint8Array): Buffer {
		const carried = this.carried;
		if (!carried.length) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
		if (carried.buffer === chunk.buffer && carried.byteOffset + carried.length === chunk.byteOffset)
			return Buffer.from(carried.buffer, carried.byteOffset, carried.length + chunk.length);
		// One buffer kept for the reading: a new one each time is garbage that n8n's large heap
		// pays for in full collections.
		const length = carried.length + chunk.length;
		if (this.joining.length < length) this.joining = Buffer.allocUnsafeSlow(length * 2);
		const joining = this.joining;
		if (carried.buffer === joining.buffer)
			joining.copyWithin(0, carried.byteOffset, carried.byteOffset + carried.length);
		else joining.set(carried, 0);
		joining.set(chunk, carried.length);
		this.joinedChunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
		this.joinedAt = carried.length;
		return joining.subarray(0, length);
	}
}
