/**
 * The release tooling (docs/releasing.md): `npm run release` is scripts/release.mjs, which checks
 * CHANGELOG.md's hand-written section of the next release ("## Unreleased", or "## 0.1.0" before
 * the first) and runs the pinned release-it with .release-it.json. Run here for real on a copy of
 * the working tree made into a clean clone whose `origin` is a bare repository in a temp folder:
 * the documented dry run of the first release (0.1.0, the version package.json has and nothing
 * published) changes nothing, and the real one keeps the version, keeps every written line of the
 * changelog (only the 0.1.0 heading gets its date), commits, tags and pushes, and publishes nothing
 * (publishing is the tag's GitHub Actions job).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
	cpSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const CHANGELOG_SCRIPT = join(ROOT, 'scripts', 'changelog.mjs');
const git = (cwd: string, ...args: string[]) =>
	execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const IDENTITY = {
	GIT_AUTHOR_NAME: 't',
	GIT_AUTHOR_EMAIL: 't@example.test',
	GIT_COMMITTER_NAME: 't',
	GIT_COMMITTER_EMAIL: 't@example.test',
};

const temps: string[] = [];
const tempDir = (prefix: string) => {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	temps.push(dir);
	return dir;
};
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function changelog(file: string, ...args: string[]) {
	return spawnSync(process.execPath, [CHANGELOG_SCRIPT, ...args], {
		encoding: 'utf8',
		env: { ...process.env, CHANGELOG_FILE: file },
	});
}

describe('scripts/changelog.mjs', () => {
	const written = [
		'# Changelog',
		'',
		'Intro line.',
		'',
		'## Unreleased',
		'',
		'### Added',
		'- A thing, written by hand',
		'  over two lines.',
		'',
		'## 0.0.9 (2026-01-01)',
		'',
		'- An older thing.',
		'',
	].join('\n');

	it('gives the Unreleased section the version and keeps every written line', () => {
		const file = join(tempDir('changelog-'), 'CHANGELOG.md');
		writeFileSync(file, written);
		const run = changelog(file, '--release', '1.0.0');
		expect(run.status).toBe(0);
		const after = readFileSync(file, 'utf8');
		const date = new Date().toISOString().slice(0, 10);
		// An auto-generated changelog (n8n-node release's auto-changelog) would drop or reorder these.
		expect(after).toBe(written.replace('## Unreleased\n', `## Unreleased\n\n## 1.0.0 (${date})\n`));
	});

	it('prints the Unreleased section as the release notes', () => {
		const file = join(tempDir('changelog-'), 'CHANGELOG.md');
		writeFileSync(file, written);
		const run = changelog(file, '--notes');
		expect(run.status).toBe(0);
		expect(run.stdout).toBe('### Added\n- A thing, written by hand\n  over two lines.\n');
	});

	it('refuses an empty or missing Unreleased section, and a version already released', () => {
		const file = join(tempDir('changelog-'), 'CHANGELOG.md');
		writeFileSync(file, '# Changelog\n\n## Unreleased\n\n## 0.0.9 (2026-01-01)\n\n- Old.\n');
		for (const args of [['--check'], ['--notes'], ['--release', '1.0.0']]) {
			const run = changelog(file, ...args);
			expect(run.status).toBe(1);
			expect(run.stderr).toMatch(/"## Unreleased" section of CHANGELOG.md is empty/);
		}
		writeFileSync(file, '# Changelog\n\n- Nothing.\n');
		expect(changelog(file, '--check').stderr).toMatch(/no "## Unreleased" section/);
		writeFileSync(file, written);
		const again = changelog(file, '--release', '0.0.9');
		expect(again.status).toBe(1);
		expect(again.stderr).toMatch(/already has a section for 0\.0\.9/);
		expect(readFileSync(file, 'utf8')).toBe(written);
	});

	it('before the first release, takes the undated section of that version as the next release', () => {
		const file = join(tempDir('changelog-'), 'CHANGELOG.md');
		const first = written
			.replace('## Unreleased\n', '## 0.1.0\n')
			.replace(/\n## 0\.0\.9[^]*$/, '\n');
		writeFileSync(file, first);
		expect(changelog(file, '--check').stdout).toBe('changelog: "## 0.1.0" holds 1 entries\n');
		expect(changelog(file, '--version').stdout).toBe('0.1.0\n');
		expect(changelog(file, '--notes').stdout).toBe(
			'### Added\n- A thing, written by hand\n  over two lines.\n',
		);
		// Another version is refused: the section names the one to release.
		const other = changelog(file, '--release', '0.2.0');
		expect(other.status).toBe(1);
		expect(other.stderr).toMatch(
			/next release is 0\.1\.0 \(its section "## 0\.1\.0"\), not 0\.2\.0/,
		);
		expect(readFileSync(file, 'utf8')).toBe(first);
		expect(changelog(file, '--release', '0.1.0').status).toBe(0);
		const date = new Date().toISOString().slice(0, 10);
		expect(readFileSync(file, 'utf8')).toBe(
			first.replace('## 0.1.0\n', `## Unreleased\n\n## 0.1.0 (${date})\n`),
		);
		// Released: the new Unreleased section names no version, and is empty.
		expect(changelog(file, '--version').status).toBe(1);
	});
});

describe('npm run release (scripts/release.mjs + the pinned release-it)', () => {
	let clone: string;
	let origin: string;

	beforeAll(() => {
		// The working tree's tracked files (as a clean clone of this commit would hold them) in a
		// repository of their own, pushed to a bare `origin`, with the project's node_modules.
		const base = tempDir('release-');
		origin = join(base, 'origin.git');
		clone = join(base, 'clone');
		const files = execFileSync(
			'git',
			['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
			{ cwd: ROOT, encoding: 'utf8' },
		)
			.split('\0')
			.filter((file) => file && !file.startsWith('docs/') && !file.endsWith('.png'));
		for (const file of files) {
			try {
				mkdirSync(dirname(join(clone, file)), { recursive: true });
				cpSync(join(ROOT, file), join(clone, file));
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted, not yet committed
			}
		}
		symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
		git(base, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
		git(clone, 'init', '--quiet', '--initial-branch=main');
		git(clone, 'add', '-A');
		execFileSync('git', ['commit', '--quiet', '-m', 'Everything so far'], {
			cwd: clone,
			env: { ...process.env, ...IDENTITY },
		});
		git(clone, 'remote', 'add', 'origin', origin);
		git(clone, 'push', '--quiet', '-u', 'origin', 'main');
	});

	// A maintainer's shell, not jest's: eslint-plugin-n8n-nodes-base reads NODE_ENV=test as its own
	// test mode (then every node file "has the wrong name"), which would fail the lint hook.
	const shellEnv = () => {
		const env: NodeJS.ProcessEnv = { ...process.env, ...IDENTITY, GITHUB_ACTIONS: '', CI: '' };
		delete env.NODE_ENV;
		delete env.JEST_WORKER_ID;
		return env;
	};
	const release = (...args: string[]) =>
		spawnSync(process.execPath, ['scripts/release.mjs', ...args], {
			cwd: clone,
			encoding: 'utf8',
			env: shellEnv(),
		});

	it('the first release as a dry run: shows the version and the hand-written notes, changes nothing', () => {
		const head = git(clone, 'rev-parse', 'HEAD');
		// Any other version is refused before release-it starts: CHANGELOG.md names 0.1.0.
		const minor = release('--dry-run', '--ci', '--increment', 'minor');
		expect(minor.status).toBe(1);
		expect(minor.stderr).toMatch(/next release is 0\.1\.0 .*: run npm run release -- 0\.1\.0/);
		const run = release('--dry-run', '--ci', '0.1.0');
		expect(run.status).toBe(0);
		expect(run.stdout).toContain("Let's release n8n-nodes-audience-messaging (0.1.0...0.1.0)");
		expect(run.stdout).toMatch(/^changelog: "## 0\.1\.0" holds \d+ entries$/m);
		// docs/releasing.md's sample output is this run's.
		const sample = readFileSync(join(ROOT, 'docs', 'releasing.md'), 'utf8');
		for (const line of run.stdout
			.split('\n')
			.filter((l) => /^(changelog:|🚀|! npm version)/.test(l)))
			expect(sample).toContain(line);
		const firstEntry = readFileSync(join(clone, 'CHANGELOG.md'), 'utf8')
			.split('\n')
			.find((line) => line.startsWith('- '));
		expect(run.stdout).toContain(firstEntry);
		// Nothing written: no version bump, no changelog edit, no commit, no tag, nothing pushed.
		expect(git(clone, 'status', '--porcelain', '--untracked-files=no')).toBe('');
		expect(git(clone, 'rev-parse', 'HEAD')).toBe(head);
		expect(git(clone, 'tag')).toBe('');
		expect(git(origin, 'rev-parse', 'main')).toBe(head);
	});

	it('the first release keeps 0.1.0, dates its section, commits, tags and pushes; publishes nothing', () => {
		const before = readFileSync(join(clone, 'CHANGELOG.md'), 'utf8');
		const run = release('--ci', '0.1.0');
		expect({ status: run.status, stderr: run.stderr }).toEqual({
			status: 0,
			stderr: expect.not.stringMatching(/ERROR|✖/),
		});
		const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
		expect(pkg.version).toBe('0.1.0');
		const date = new Date().toISOString().slice(0, 10);
		expect(readFileSync(join(clone, 'CHANGELOG.md'), 'utf8')).toBe(
			before.replace('## 0.1.0\n', `## Unreleased\n\n## 0.1.0 (${date})\n`),
		);
		expect(git(clone, 'log', '-1', '--format=%s')).toBe('Release 0.1.0');
		expect(git(origin, 'tag')).toBe('0.1.0');
		expect(git(origin, 'rev-parse', 'main')).toBe(git(clone, 'rev-parse', 'HEAD'));
		// release-it logs its steps on stderr ("- Git push", "✔ Git push"); its npm plugin would log
		// "npm publish" there too. (The release notes, on stdout, may well name `npm publish`.)
		// eslint-disable-next-line no-control-regex
		const steps = run.stderr.replace(/\x1b\[[0-9;]*m/g, '');
		expect(steps).toMatch(
			/^✔ npm run lint$[\s\S]*^✔ Git commit$[\s\S]*^✔ Git tag$[\s\S]*^✔ Git push$/m,
		);
		expect(steps).not.toMatch(/npm publish/);
		// The new Unreleased section is empty, so a second release is refused before release-it runs.
		const again = release('--ci', '--increment', 'patch');
		expect(again.status).toBe(1);
		expect(again.stderr).toMatch(/"## Unreleased" section of CHANGELOG.md is empty/);
		expect(git(origin, 'tag')).toBe('0.1.0');
	});
});
