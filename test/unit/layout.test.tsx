import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const root = join(__dirname, '..', '..');

function filesIn(dir: string, pattern: RegExp): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesIn(path, pattern) : pattern.test(name) ? [path] : [];
	});
}
const tsFiles = (dir: string) => filesIn(dir, /\.ts$/);

const product = ['nodes', 'credentials', 'src'].flatMap((dir) => tsFiles(join(root, dir)));
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*? from '([^']+)';/gms)].map((match) => match[1]);
/** The product file a relative import names (repo-relative, without extension), or undefined for a package. */
const target = (file: string, path: string) => (path.startsWith('.') ? relative(root, normalize(join(dirname(file), path))) : undefined);
const resolved = (name: string) => [`${name}.ts`, `${name}/index.ts`].find((path) => existsSync(join(root, path)));

/**
 * The core library's folders, lowest first: a folder imports only from the folders below it (and
 * from itself). values/ (what a user gives, input errors) < platform/ (the platform's rules per
 * service, callbacks) < pace/ (gate, pacer, board) < http/ (the request helper) < csv/ (files).
 */
const FLOORS = ['values', 'platform', 'pace', 'http', 'csv'];
const floorOf = (path: string) => FLOORS.indexOf(path.split('/')[1]);

describe('src/ is laid out by concern, each folder importing only the folders below it', () => {
	const srcFiles = product.filter((file) => relative(root, file).startsWith('src/'));

	it('every file of src/ is in one of the folders', () => {
		expect(srcFiles.length).toBeGreaterThan(30);
		expect(srcFiles.map((file) => relative(root, file)).filter((path) => floorOf(path) === -1)).toEqual([]);
	});

	it('no import goes up or sideways between the folders of src/', () => {
		const wrong = srcFiles.flatMap((file) => {
			const from = relative(root, file);
			return importsOf(file)
				.map((path) => target(file, path))
				.filter((to): to is string => to !== undefined)
				.filter((to) => !to.startsWith('src/') || floorOf(to) > floorOf(from))
				.map((to) => `${from} imports ${to}`);
		});
		// The check reads real imports: api-request.ts uses the pace below it.
		expect(importsOf(join(root, 'src/http/api-request.ts')).some((path) => path.startsWith('../pace/'))).toBe(true);
		expect(wrong).toEqual([]);
	});

	it('each folder has an entry file, and the node reaches each one through one line of nodes/AudienceMessaging/core/', () => {
		for (const floor of FLOORS) {
			expect(existsSync(join(root, 'src', floor, 'index.ts'))).toBe(true);
			expect(importsOf(join(root, 'nodes/AudienceMessaging/core', `${floor}.ts`))).toEqual([`../../../src/${floor}`]);
		}
		expect(tsFiles(join(root, 'nodes/AudienceMessaging/core')).length).toBe(FLOORS.length);
	});
});

describe('the product files import each other by short paths, without cycles', () => {
	it('finds the product files and their imports (the checks below read something)', () => {
		expect(product.length).toBeGreaterThan(40);
		expect(importsOf(join(root, 'nodes/AudienceMessaging/resources/message/send.ts'))).toContain('../../core/http');
	});

	it("no product file climbs more than two folders, but nodes/AudienceMessaging/core/'s lines to src/", () => {
		const deep = product
			.filter((file) => !relative(root, file).startsWith('nodes/AudienceMessaging/core/'))
			.flatMap((file) => importsOf(file).filter((path) => path.startsWith('../../../')).map((path) => `${relative(root, file)}: ${path}`));
		expect(deep).toEqual([]);
	});

	it("the node's files other than core/ do not import src/ directly, so core/ is the one way in", () => {
		const direct = tsFiles(join(root, 'nodes/AudienceMessaging'))
			.filter((file) => !relative(root, file).startsWith('nodes/AudienceMessaging/core/'))
			.flatMap((file) => importsOf(file).filter((path) => /(^|\/)src(\/|$)/.test(path)).map((path) => `${relative(root, file)}: ${path}`));
		expect(direct).toEqual([]);
	});

	it('no product file reaches itself through its imports', () => {
		const edges = new Map(
			product.map((file) => [
				relative(root, file),
				importsOf(file)
					.map((path) => target(file, path))
					.map((name) => (name === undefined ? undefined : resolved(name)))
					.filter((path): path is string => path !== undefined),
			]),
		);
		const cycles: string[] = [];
		const state = new Map<string, 'open' | 'done'>();
		const visit = (file: string, trail: string[]) => {
			if (state.get(file) === 'done') return;
			if (state.get(file) === 'open') {
				cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
				return;
			}
			state.set(file, 'open');
			for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
			state.set(file, 'done');
		};
		for (const file of edges.keys()) visit(file, []);
		// The graph is real: the node's file reaches the request helper.
		expect(edges.get('nodes/AudienceMessaging/core/http.ts')).toEqual(['src/http/index.ts']);
		expect(cycles).toEqual([]);
	});
});

describe('unit tests mirror the source', () => {
	it('each unit test of a product file sits at test/unit/<its path>.test.tsx (or .<aspect>.test.tsx)', () => {
		const unit = filesIn(join(root, 'test/unit'), /\.test\.tsx$/).map((file) => relative(join(root, 'test/unit'), file)).filter((path) => path.includes('/'));
		expect(unit.length).toBeGreaterThan(15);
		const source = (path: string) => [path.replace(/\.test\.tsx$/, '.ts'), path.replace(/\.[a-z-]+\.test\.tsx$/, '.ts')];
		const orphans = unit.filter((path) => !source(path).some((file) => existsSync(join(root, file))));
		expect(orphans).toEqual([]);
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
