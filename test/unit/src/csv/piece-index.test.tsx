import { nextMark, PieceIndex } from '../../../../src/csv/piece-index';

/**
 * The CSV scan finds a piece's delimiters, line breaks and quotes in bitmaps: they must mark
 * exactly the bytes equal to each, in every piece, whatever came before.
 */

function generator(seed: number) {
	let state = seed;
	return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** Bytes where delimiters, line breaks and quotes are common, with others, 0 and bytes past ASCII. */
function randomBytes(random: () => number, length: number): Buffer {
	const alphabet = [0x2c, 0x3b, 0x09, 0x7c, 0x0a, 0x0d, 0x22, 0x61, 0x20, 0x00, 0xc3, 0xa9, 0xff];
	return Buffer.from(
		Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]),
	);
}

/** The places of `byte` in `bytes`, as a bitmap of `words` words would give them. */
const placesOf = (bytes: Uint8Array, byte: number) =>
	[...bytes.keys()].filter((at) => bytes[at] === byte);

const marked = (bits: Uint32Array, words: number) => {
	const places: number[] = [];
	for (let at = nextMark(bits, 0, words); at !== -1; at = nextMark(bits, at + 1, words))
		places.push(at);
	return places;
};

describe('PieceIndex', () => {
	it('marks exactly the delimiters, line breaks and quotes of each piece, of any size, after bigger and smaller ones', () => {
		const random = generator(11);
		for (const [delimiter, lineBreak] of [
			[',', '\n'],
			[';', '\r\n'],
			['\t', '\r'],
			['|', '\n'],
		]) {
			const index = new PieceIndex(delimiter, lineBreak);
			// Small pieces, a piece over the first capacity (the memory grows), small ones again.
			const lengths = [0, 1, 31, 32, 33, 64, 95, 300_001, 7, 131_040, 131_072, 65, 2];
			for (let n = 0; n < 60; n++) lengths.push(Math.floor(random() * 400));
			for (const length of lengths) {
				const bytes = randomBytes(random, length);
				index.index(bytes.toString('latin1'));
				const { words } = index;
				expect(words).toBe(Math.ceil(length / 32));
				expect({ length, places: marked(index.delimiters, words) }).toEqual({
					length,
					places: placesOf(bytes, delimiter.charCodeAt(0)),
				});
				expect(marked(index.breaks, words)).toEqual(placesOf(bytes, lineBreak.charCodeAt(0)));
				expect(marked(index.quotes, words)).toEqual(placesOf(bytes, 0x22));
			}
		}
	});

	it('nextMark: the first place marked from any place on, or -1', () => {
		const random = generator(5);
		const bits = new Uint32Array(5);
		for (let n = 0; n < 200; n++) {
			const places = new Set<number>();
			bits.fill(0);
			for (let k = 0; k < random() * 8; k++) {
				const at = Math.floor(random() * 160);
				places.add(at);
				bits[at >>> 5] |= 1 << (at & 31);
			}
			for (let from = 0; from <= 170; from++) {
				const expected = [...places].filter((at) => at >= from).sort((a, b) => a - b)[0];
				expect([from, nextMark(bits, from, 5)]).toEqual([from, expected ?? -1]);
			}
		}
	});
});
