// `npm run release [-- <release-it options>]`: a release from a maintainer's clone, with the
// project's pinned release-it (devDependency, config in .release-it.json). It checks that
// CHANGELOG.md's next section ("## Unreleased", or "## 0.1.0" before the first release) has the
// release's changes, then release-it bumps the version (keeps it, for 0.1.0), gives that section
// the version and date (scripts/changelog.mjs), commits, tags `<version>` and pushes. It
// publishes nothing: the tag push runs .github/workflows/publish.yml, which tests and publishes
// with npm provenance through n8n's own flow (`n8n-node release` on GitHub Actions).
//
//   npm run release -- --dry-run --ci 0.1.0   what the first release would do, changing nothing
//   npm run release -- --ci 0.1.0             the first release (CHANGELOG.md's "## 0.1.0")
//   npm run release                           later ones: asks for the version, then releases
//
// See docs/releasing.md.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

if (process.env.GITHUB_ACTIONS) {
	process.stderr.write(
		'release: on GitHub Actions the package is published by `npx n8n-node release` (.github/workflows/publish.yml), not by this script\n',
	);
	process.exit(1);
}

const check = spawnSync(process.execPath, [join(root, 'scripts/changelog.mjs'), '--check'], {
	cwd: root,
	stdio: 'inherit',
});
if (check.status !== 0) process.exit(check.status ?? 1);
// A section that names its version (the first release: "## 0.1.0") is released as that version.
const named = spawnSync(process.execPath, [join(root, 'scripts/changelog.mjs'), '--version'], {
	cwd: root,
	encoding: 'utf8',
}).stdout.trim();
if (named && !process.argv.slice(2).includes(named)) {
	process.stderr.write(
		`release: CHANGELOG.md's next release is ${named} (its section "## ${named}"): run npm run release -- ${named}\n`,
	);
	process.exit(1);
}

// release-it's own bin, resolved without going through its "exports" map.
const releaseIt = join(dirname(require.resolve('release-it/package.json')), 'bin', 'release-it.js');
const result = spawnSync(process.execPath, [releaseIt, ...process.argv.slice(2)], {
	cwd: root,
	stdio: 'inherit',
});
process.exit(result.status ?? 1);
