import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * A member export as a CRM writes one, for the large-file tests and benchmarks: twelve columns,
 * each row unique in `email` and `mobile` (the automatic unique columns), about one row in ten
 * with a quoted value holding a comma, and a few rows with a quoted line break. `change` may
 * rewrite row `n` (to break a quote 800,000 rows down, for example).
 */
export const MEMBER_HEADER =
	'email,mobile,firstName,lastName,city,country,plan,signupDate,lastOrder,totalSpent,optIn,notes';

export function memberRow(n: number): string {
	const quoted = n % 10 === 3;
	const city = quoted ? '"Saint-Denis, La Réunion"' : n % 3 ? 'Paris' : 'Lyon';
	const notes = n % 997 === 5 ? '"called twice\nprefers e-mail"' : n % 7 ? 'newsletter' : '';
	const day = String((n % 28) + 1).padStart(2, '0');
	return `member${n}@example.com,+3361${String(n).padStart(8, '0')},Ada${n % 991},Lovelace${n % 89},${city},FR,${n % 4 ? 'free' : 'pro'},2024-03-${day},2025-11-${day},${(n % 5000) / 10},${n % 2 ? 'true' : 'false'},${notes}`;
}

/**
 * Writes a member export of at least `bytes` bytes to `path`, in pieces (memory stays small);
 * returns its rows and size.
 */
export function writeMemberCsv(
	path: string,
	bytes: number,
	change: (n: number, row: string) => string = (_, row) => row,
): { rows: number; bytes: number } {
	const file = openSync(path, 'w');
	let written = 0;
	let rows = 0;
	try {
		written += writeSync(file, `${MEMBER_HEADER}\n`);
		while (written < bytes) {
			const piece: string[] = [];
			for (let i = 0; i < 5000 && written < bytes; i++) {
				const row = `${change(rows, memberRow(rows))}\n`;
				piece.push(row);
				written += Buffer.byteLength(row);
				rows++;
			}
			writeSync(file, piece.join(''));
		}
	} finally {
		closeSync(file);
	}
	return { rows, bytes: written };
}
