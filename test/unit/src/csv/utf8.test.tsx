import { invalidUtf8At } from '../../../../src/csv/utf8';

/**
 * invalidUtf8At checks a CSV's bytes as UTF-8 without decoding them (issue 50): it must say what a
 * TextDecoder with `fatal` says, on any bytes, wherever they sit in memory (its 16-byte steps read
 * aligned 32-bit words).
 */
const decoder = new TextDecoder('utf-8', { fatal: true });
const decodes = (bytes: Uint8Array) => {
	try {
		decoder.decode(bytes);
		return true;
	} catch {
		return false;
	}
};

function generator(seed: number) {
	let state = seed;
	return () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** Bytes mostly ASCII, with characters of 2, 3 and 4 bytes, and now and then a wrong byte. */
function randomBytes(random: () => number, dense: boolean): number[] {
	const characters = ['a', ',', '\n', 'é', '€', '😀', 'Ж', '中'];
	const wrong = [
		[0xff],
		[0x80],
		[0xc3],
		[0xe0, 0x80, 0x80],
		[0xed, 0xa0, 0x80],
		[0xf4, 0x90, 0x80, 0x80],
		[0xc0, 0xaf],
	];
	const bytes: number[] = [];
	const length = Math.floor(random() * (dense ? 600 : 200));
	for (let i = 0; i < length; i++) {
		if (random() < 0.002) bytes.push(...wrong[Math.floor(random() * wrong.length)]);
		else if (dense || random() < 0.1)
			bytes.push(...Buffer.from(characters[3 + Math.floor(random() * 5)]));
		else bytes.push(...Buffer.from(characters[Math.floor(random() * 3)].repeat(1 + random() * 40)));
	}
	return bytes;
}

describe('invalidUtf8At: where bytes stop being UTF-8, as a TextDecoder says', () => {
	it('agrees with TextDecoder on 6,000 random byte strings, at any alignment, ASCII-heavy or not', () => {
		const random = generator(3);
		let invalid = 0;
		for (let n = 0; n < 6000; n++) {
			const content = randomBytes(random, n % 10 === 0);
			// A place in a larger buffer, so the 32-bit words are read at every alignment.
			const shift = n % 7;
			const memory = new Uint8Array(content.length + shift + 5);
			memory.set(content, shift);
			const bytes = memory.subarray(shift, shift + content.length);
			const at = invalidUtf8At(bytes, 0, bytes.length);
			const whole = decodes(bytes);
			if (!whole) invalid++;
			if ((at === -1) !== whole) expect({ content, at }).toEqual({ content, valid: whole });
			// The bytes before the place are UTF-8, and no character starts there.
			if (at !== -1) {
				const starts = [1, 2, 3, 4].some((length) => decodes(bytes.subarray(at, at + length)));
				if (!decodes(bytes.subarray(0, at)) || starts) expect({ content, at }).toBe('wrong place');
			}
		}
		expect(invalid).toBeGreaterThan(600);
	});

	it('a character cut by the end is not UTF-8; bytes checked from an offset are checked from there', () => {
		const euro = Buffer.from('ab€');
		expect(invalidUtf8At(euro, 0, euro.length)).toBe(-1);
		expect(invalidUtf8At(euro, 0, euro.length - 1)).toBe(2);
		const bytes = Buffer.from([0xff, ...Buffer.from('x'.repeat(40)), 0xc3, 0xa9, 0x80]);
		expect(invalidUtf8At(bytes, 0, bytes.length)).toBe(0);
		expect(invalidUtf8At(bytes, 1, bytes.length)).toBe(43);
	});
});
