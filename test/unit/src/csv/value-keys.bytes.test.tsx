import { HASH, valueHash } from '../../../../src/csv/repeats';
import { comparedValue, emailKey, KEY_IN_BYTES, mobileKey } from '../../../../src/csv/value-keys';

/**
 * The check reads most unique values from their bytes (KEY_IN_BYTES, issue 50), the others as
 * strings (comparedValue). The two must agree: bytes are taken only for a value comparedValue keeps
 * as it is written, and then hashed as valueHash hashes it; all else goes to comparedValue.
 */
const KEYS = { email: emailKey, mobile: mobileKey, plain: undefined };

const VALUES = [
	'ada@example.com',
	'a@b.c',
	'a@b.',
	'a@.c',
	'@b.c',
	'a@@b.c',
	'a@b@c.d',
	'a.b@c',
	'a@b.c.d',
	'a@bc',
	'a b@c.d',
	'a,b@c.d',
	'a;b@c.d',
	'a"b@c.d',
	'a<b@c.d',
	'a>b@c.d',
	'a\tb@c.d',
	'a\u000bb@c.d',
	'ré@example.com',
	'a@exämple.com',
	'a\u0001b@c.d',
	'a|b@c.d',
	'a@b..c',
	'a.@b.c',
	'x@y.zz',
	'+33612345678',
	'+336123456',
	'+3361234',
	'+336123',
	'+12345678901234567',
	'+1234567890123456',
	'+0612345678',
	'0033612345678',
	'+33 6 12 34 56 78',
	'+33-612345678',
	'33612345678',
	'++33612345678',
	'+336+12345678',
	'+٣٣٦١٢٣٤٥٦٧٨',
	'id-1',
	'ID 2',
	'Émile',
	'',
	' ',
	'x',
	'12',
	'"q"',
	'a\u00a0',
];

describe('KEY_IN_BYTES: a unique value read from its bytes, as comparedValue reads its string', () => {
	it.each(['email', 'mobile', 'plain'] as const)(
		'%s: the same verdict and hash as the string reading',
		(kind) => {
			let fromBytes = 0;
			for (const value of VALUES) {
				// The value in the middle of a row, as the check finds it.
				const bytes = Buffer.from(`x,${value},y`);
				const start = 2;
				const end = bytes.length - 2;
				const compared = comparedValue(value, KEYS[kind]);
				const read =
					value.length > 0 &&
					bytes[start] > 32 &&
					bytes[end - 1] > 32 &&
					KEY_IN_BYTES[kind](bytes, start, end);
				const asWritten = compared === value && value !== '';
				if (read) {
					fromBytes++;
					const hash = [...HASH];
					expect({ value, asWritten, hash }).toEqual({
						value,
						asWritten: true,
						hash: [...valueHash(value)],
					});
				} else if (asWritten) {
					// Left to the string reading, which may: only values past ASCII.
					expect({
						value,
						pastAscii: [...value].some((char) => char.charCodeAt(0) > 0x7f),
					}).toEqual({
						value,
						pastAscii: true,
					});
				}
			}
			expect(fromBytes).toBeGreaterThanOrEqual(kind === 'plain' ? 30 : 3);
		},
	);
});
