// CHANGELOG.md is written by hand, in its "## Unreleased" section, as changes land. A release
// keeps every word of it and only gives that section its version:
//
//   node scripts/changelog.mjs --check             exit 1 when "## Unreleased" is missing or empty
//   node scripts/changelog.mjs --notes             print the Unreleased section (the release notes)
// node scripts/changelog.mjs --release 1.2.0     "## Unreleased" -> "## 1.2.0 (YYYY-MM-DD)", and a
//                                                  new empty "## Unreleased" above it
//
// npm run release (release-it, .release-it.json) calls --notes for its preview and --release after
// it bumps the version; scripts/release.mjs calls --check before anything else.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file =
	process.env.CHANGELOG_FILE || join(dirname(fileURLToPath(import.meta.url)), '..', 'CHANGELOG.md');
const HEADING = /^## Unreleased[ \t]*$/m;

/** The Unreleased section: its heading's offset and its text up to the next "## " heading. */
export function unreleased(text) {
	const match = HEADING.exec(text);
	if (!match) return undefined;
	const start = match.index + match[0].length;
	const next = text.slice(start).search(/^## /m);
	const end = next === -1 ? text.length : start + next;
	return { headingAt: match.index, start, end, body: text.slice(start, end).trim() };
}

/**
 * The changelog with its Unreleased section released as `version` on `date` (nothing else changes).
 */
export function release(text, version, date) {
	const section = unreleased(text);
	if (!section) throw new Error('CHANGELOG.md has no "## Unreleased" section');
	if (!section.body)
		throw new Error(
			'the "## Unreleased" section of CHANGELOG.md is empty: write the release\'s changes there first',
		);
	if (new RegExp(`^## ${version.replace(/\./g, '\\.')}\\b`, 'm').test(text))
		throw new Error(`CHANGELOG.md already has a section for ${version}`);
	return `${text.slice(0, section.headingAt)}## Unreleased\n\n## ${version} (${date})${text.slice(section.headingAt + '## Unreleased'.length)}`;
}

function main(args) {
	const text = readFileSync(file, 'utf8');
	const [command, version] = args;
	if (command === '--check' || command === '--notes') {
		const section = unreleased(text);
		if (!section?.body) {
			process.stderr.write(
				section
					? 'changelog: the "## Unreleased" section of CHANGELOG.md is empty: write the release\'s changes there first\n'
					: 'changelog: CHANGELOG.md has no "## Unreleased" section\n',
			);
			return 1;
		}
		if (command === '--notes') process.stdout.write(section.body + '\n');
		else
			process.stdout.write(
				`changelog: "## Unreleased" holds ${section.body.split('\n').filter((l) => l.startsWith('- ')).length} entries\n`,
			);
		return 0;
	}
	if (command === '--release' && /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version ?? '')) {
		const date = new Date().toISOString().slice(0, 10);
		writeFileSync(file, release(text, version, date));
		process.stdout.write(`changelog: "## Unreleased" is now "## ${version} (${date})"\n`);
		return 0;
	}
	process.stderr.write(
		'usage: node scripts/changelog.mjs --check | --notes | --release <version>\n',
	);
	return 2;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	try {
		process.exitCode = main(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`changelog: ${error.message}\n`);
		process.exitCode = 1;
	}
}
