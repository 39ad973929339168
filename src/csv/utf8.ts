/** Where bytes stop being UTF-8 (as a `fatal` TextDecoder says), found faster than by decoding. */

/** Past this many characters beyond ASCII, over one in DENSE bytes, TextDecoder checks the rest. */
const DENSE_AFTER = 64;
const DENSE = 64;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The length of the well-formed UTF-8 character at `at` (past ASCII) ending before `to`, or 0. */
function characterLength(bytes: Uint8Array, at: number, to: number): number {
	const lead = bytes[at];
	if (lead < 0xc2 || lead > 0xf4) return 0;
	const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
	if (at + length > to) return 0;
	// The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
	const second = bytes[at + 1];
	const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
	const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
	if (second < low || second > high) return 0;
	for (let next = at + 2; next < at + length; next++) if ((bytes[next] & 0xc0) !== 0x80) return 0;
	return length;
}

/** The first byte from `from` to `to` not UTF-8 (a character cut by `to` included), or −1. */
export function invalidUtf8At(bytes: Uint8Array, from: number, to: number): number {
	// The bytes as 32-bit words from the first 4-byte boundary at or after `from`.
	const wordsFrom = from + ((4 - ((bytes.byteOffset + from) & 3)) & 3);
	const words =
		wordsFrom < to
			? new Uint32Array(bytes.buffer, bytes.byteOffset + wordsFrom, (to - wordsFrom) >>> 2)
			: new Uint32Array(0);
	const lastBlock = words.length - 4;
	let wide = 0;
	let decoderTried = false;
	let at = from;
	while (at < to) {
		if (bytes[at] < 0x80) {
			const offset = at - wordsFrom;
			if (offset >= 0 && (offset & 3) === 0) {
				let word = offset >>> 2;
				while (
					word <= lastBlock &&
					((words[word] | words[word + 1] | words[word + 2] | words[word + 3]) & 0x80808080) === 0
				)
					word += 4;
				if (word > offset >>> 2) {
					at = wordsFrom + word * 4;
					continue;
				}
			}
			at++;
			continue;
		}
		const length = characterLength(bytes, at, to);
		if (length === 0) return at;
		at += length;
		wide++;
		if (!decoderTried && wide > DENSE_AFTER && wide * DENSE > at - from) {
			decoderTried = true;
			if (decodes(bytes, at, to)) return -1;
		}
	}
	return -1;
}

/** Whether the bytes from `from` to `to` are UTF-8, as a TextDecoder with `fatal` says. */
function decodes(bytes: Uint8Array, from: number, to: number): boolean {
	try {
		decoder.decode(bytes.subarray(from, to));
		return true;
	} catch {
		return false;
	}
}
