/**
 * The mutation run's list (scripts/mutation.mjs): every mutant's text is still found, once, in its
 * file. A change that moves such a text (a function split, a line reworded) fails here, in
 * `npm test`, instead of stopping the next mutation run.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const mutation = (...args: string[]) =>
	spawnSync(process.execPath, [join(root, 'scripts/mutation.mjs'), ...args], {
		cwd: root,
		encoding: 'utf8',
	});

it("finds every mutant's text once in its file", () => {
	const run = mutation('--check');
	expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
	expect(run.stdout).toMatch(/^\d{2,} mutants, each text found once in its file/);
});
