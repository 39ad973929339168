// CHANGELOG.md is written by hand, in the section of the next release, as changes land: "## Unreleased",
// or, before the first release, "## 0.1.0" (the version package.json has, without a date). A release
// keeps every word of it and only gives that section its version and date:
//
//   node scripts/changelog.mjs --check             exit 1 when that section is missing or empty
//   node scripts/changelog.mjs --notes             print that section (the release notes)
//   node scripts/changelog.mjs --version           print the version that section names, if any
//   node scripts/changelog.mjs --release 1.2.0     "## Unreleased" (or "## 1.2.0") -> "## 1.2.0
//                                                  (YYYY-MM-DD)", and a new empty "## Unreleased" above it
//
// npm run release (release-it, .release-it.json) calls --notes for its preview and --release after
// it bumps the version; scripts/release.mjs calls --check and --version before anything else.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file =
	process.env.CHANGELOG_FILE || join(dirname(fileURLToPath(import.meta.url)), '..', 'CHANGELOG.md');
/** The next release's heading: "## Unreleased", or a version without a date ("## 0.1.0"). */
const HEADING = /^## (Unreleased|\d+\.\d+\.\d+(?:-[\w.]+)?)[ \t]*$/m;

/**
 * The next release's section: where its heading and its text start, the version it names
 * (undefined for Unreleased), and its text up to the next "## " heading.
 */
export function unreleased(text) {
	const match = HEADING.exec(text);
	if (!match) return undefined;
	const start = match.index + match[0].length;
	const next = text.slice(start).search(/^## /m);
	const end = next === -1 ? text.length : start + next;
	const version = match[1] === 'Unreleased' ? undefined : match[1];
	const heading = `"## ${match[1]}"`;
	return {
		headingAt: match.index,
		start,
		end,
		version,
		heading,
		body: text.slice(start, end).trim(),
	};
}

/**
 * The changelog with its next release's section released as `version` on `date` (nothing else
 * changes).
 */
export function release(text, version, date) {
	const section = unreleased(text);
	if (!section) throw new Error('CHANGELOG.md has no "## Unreleased" section');
	if (!section.body)
		throw new Error(
			`the ${section.heading} section of CHANGELOG.md is empty: write the release's changes there first`,
		);
	if (section.version && section.version !== version)
		throw new Error(
			`CHANGELOG.md's next release is ${section.version} (its section "## ${section.version}"), not ${version}`,
		);
	if (!section.version && new RegExp(`^## ${version.replace(/\./g, '\\.')}\\b`, 'm').test(text))
		throw new Error(`CHANGELOG.md already has a section for ${version}`);
	const rest = text.slice(section.start);
	return `${text.slice(0, section.headingAt)}## Unreleased\n\n## ${version} (${date})${rest}`;
}

function main(args) {
	const text = readFileSync(file, 'utf8');
	const [command, version] = args;
	if (command === '--check' || command === '--notes' || command === '--version') {
		const section = unreleased(text);
		if (!section?.body) {
			process.stderr.write(
				section
					? `changelog: the ${section.heading} section of CHANGELOG.md is empty: write the release's changes there first\n`
					: 'changelog: CHANGELOG.md has no "## Unreleased" section\n',
			);
			return 1;
		}
		if (command === '--notes') process.stdout.write(section.body + '\n');
		else if (command === '--version') process.stdout.write(`${section.version ?? ''}\n`);
		else
			process.stdout.write(
				`changelog: ${section.heading} holds ${section.body.split('\n').filter((l) => l.startsWith('- ')).length} entries\n`,
			);
		return 0;
	}
	if (command === '--release' && /^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version ?? '')) {
		const date = new Date().toISOString().slice(0, 10);
		writeFileSync(file, release(text, version, date));
		process.stdout.write(
			`changelog: the next release's section is now "## ${version} (${date})"\n`,
		);
		return 0;
	}
	process.stderr.write(
		'usage: node scripts/changelog.mjs --check | --notes | --version | --release <version>\n',
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
