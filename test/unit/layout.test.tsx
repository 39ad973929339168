import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

function tsFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') ? [path] : [];
	});
}

const product = ['nodes', 'credentials', 'src'].flatMap((dir) => tsFiles(join(root, dir)));
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*? from '([^']+)';/gms)].map((match) => match[1]);

describe('the product files import each other by short paths', () => {
	it('finds the product files and their imports (the check below reads something)', () => {
		expect(product.length).toBeGreaterThan(40);
		expect(importsOf(join(root, 'nodes/AudienceMessaging/resources/message/send.ts'))).toContain('../../core');
	});

	it('no product file climbs more than two folders: the node reaches src/ through nodes/AudienceMessaging/core.ts', () => {
		const deep = product.flatMap((file) => importsOf(file).filter((path) => path.startsWith('../../../')).map((path) => `${relative(root, file)}: ${path}`));
		expect(deep).toEqual([]);
	});

	it("the node's files other than core.ts do not import src/ directly, so core.ts is the one way in", () => {
		const direct = tsFiles(join(root, 'nodes/AudienceMessaging'))
			.filter((file) => !file.endsWith('core.ts'))
			.flatMap((file) => importsOf(file).filter((path) => /(^|\/)src\//.test(path)).map((path) => `${relative(root, file)}: ${path}`));
		expect(direct).toEqual([]);
	});
});

describe('the product files stay small enough to read', () => {
	/** Issue 25: no product file over this many lines (a file that outgrows it is split by what it holds). */
	const MAX_LINES = 250;

	it(`no product file is longer than ${MAX_LINES} lines`, () => {
		const lines = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;
		const long = product.filter((file) => lines(file) > MAX_LINES).map((file) => `${relative(root, file)}: ${lines(file)} lines`);
		// The check reads real files: the longest of them is counted.
		expect(Math.max(...product.map(lines))).toBeGreaterThan(150);
		expect(long).toEqual([]);
	});
});
