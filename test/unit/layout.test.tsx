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
const importsOf = (file: string) =>
	[...readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^;]*? from '([^']+)';/gms)].map(
		(match) => match[1],
	);
/**
 * The product file a relative import names (repo-relative, without extension), or undefined for a
 * package.
 */
const target = (file: string, path: string) =>
	path.startsWith('.') ? relative(root, normalize(join(dirname(file), path))) : undefined;
const resolved = (name: string) =>
	[`${name}.ts`, `${name}/index.ts`].find((path) => existsSync(join(root, path)));

/**
 * The core library's folders, lowest first: a folder imports only from the folders below it (and
 * from itself). values/ (what a user gives, input errors) < platform/ (the platform's rules per
 * service, callbacks) < pace/ (gate, pacer, board) < http/ (the request helper) < csv/ (files) <
 * history/ (what a node sent in earlier runs, kept in n8n's store; it imports nothing below).
 */
const FLOORS = ['values', 'platform', 'pace', 'http', 'csv', 'history'];
const floorOf = (path: string) => FLOORS.indexOf(path.split('/')[1]);

describe('src/ is laid out by concern, each folder importing only the folders below it', () => {
	const srcFiles = product.filter((file) => relative(root, file).startsWith('src/'));

	it('every file of src/ is in one of the folders', () => {
		expect(srcFiles.length).toBeGreaterThan(30);
		expect(
			srcFiles.map((file) => relative(root, file)).filter((path) => floorOf(path) === -1),
		).toEqual([]);
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
		expect(
			importsOf(join(root, 'src/http/api-request.ts')).some((path) => path.startsWith('../pace/')),
		).toBe(true);
		expect(wrong).toEqual([]);
	});

	it('each folder has an entry file, and the node reaches each one through one line of nodes/AudienceMessaging/core/', () => {
		for (const floor of FLOORS) {
			expect(existsSync(join(root, 'src', floor, 'index.ts'))).toBe(true);
			expect(importsOf(join(root, 'nodes/AudienceMessaging/core', `${floor}.ts`))).toEqual([
				`../../../src/${floor}`,
			]);
		}
		expect(tsFiles(join(root, 'nodes/AudienceMessaging/core')).length).toBe(FLOORS.length);
	});
});

describe('the product files import each other by short paths, without cycles', () => {
	it('finds the product files and their imports (the checks below read something)', () => {
		expect(product.length).toBeGreaterThan(40);
		expect(
			importsOf(join(root, 'nodes/AudienceMessaging/resources/message/send/run.ts')),
		).toContain('../../../core/http');
	});

	it('no product file climbs more than three folders: an operation folder reaches core/ and shared/', () => {
		const deep = product.flatMap((file) =>
			importsOf(file)
				.filter((path) => path.startsWith('../../../../'))
				.map((path) => `${relative(root, file)}: ${path}`),
		);
		expect(deep).toEqual([]);
	});

	it("the node's files other than core/ do not import src/ directly, so core/ is the one way in", () => {
		const direct = tsFiles(join(root, 'nodes/AudienceMessaging'))
			.filter((file) => !relative(root, file).startsWith('nodes/AudienceMessaging/core/'))
			.flatMap((file) =>
				importsOf(file)
					.filter((path) => /(^|\/)src(\/|$)/.test(path))
					.map((path) => `${relative(root, file)}: ${path}`),
			);
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

describe('every HTTP request goes through the one request helper', () => {
	/** apiRequest (src/http/api-request.ts) and its way to outside addresses (src/http/outside.ts). */
	const HELPER = ['src/http/api-request.ts', 'src/http/outside.ts'];
	/** n8n's request helpers, Node's HTTP modules, axios and fetch: any way to send a request. */
	const SENDS =
		/\bhelpers\s*\.\s*(?:httpRequest|httpRequestWithAuthentication|request|requestWithAuthentication|requestOAuth[12])\b|\bhttpRequestWithAuthentication\b|from 'node:https?'|from 'https?'|from 'axios'|\bfetch\s*\(/;

	it('no product file but the helper sends a request itself', () => {
		const senders = product
			.map((file) => relative(root, file))
			.filter((path) => SENDS.test(readFileSync(join(root, path), 'utf8')));
		// The check reads real code: the helper itself calls n8n's request helpers.
		expect(senders).toEqual(expect.arrayContaining(HELPER));
		expect(senders.filter((path) => !HELPER.includes(path))).toEqual([]);
	});
});

describe('unit tests mirror the source', () => {
	it('each unit test of a product file sits at test/unit/<its path>.test.tsx (or .<aspect>.test.tsx)', () => {
		const unit = filesIn(join(root, 'test/unit'), /\.test\.tsx$/)
			.map((file) => relative(join(root, 'test/unit'), file))
			.filter((path) => path.includes('/'));
		expect(unit.length).toBeGreaterThan(15);
		const source = (path: string) => [
			path.replace(/\.test\.tsx$/, '.ts'),
			path.replace(/\.[a-z-]+\.test\.tsx$/, '.ts'),
		];
		const orphans = unit.filter(
			(path) => !source(path).some((file) => existsSync(join(root, file))),
		);
		expect(orphans).toEqual([]);
	});
});

describe('the product files stay small enough to read', () => {
	/**
	 * Issue 25: no product file over this many lines (a file that outgrows it is split by what it
	 * holds).
	 */
	const MAX_LINES = 250;

	it(`no product file is longer than ${MAX_LINES} lines`, () => {
		const lines = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;
		const long = product
			.filter((file) => lines(file) > MAX_LINES)
			.map((file) => `${relative(root, file)}: ${lines(file)} lines`);
		// The check reads real files: the longest of them is counted.
		expect(Math.max(...product.map(lines))).toBeGreaterThan(150);
		expect(long).toEqual([]);
	});
});

describe('the product files are formatted to be read in an editor', () => {
	/** prettier's printWidth (.prettierrc.js, n8n's node starter): a tab counts as its two columns. */
	const MAX_COLUMNS = 100;
	const columns = (line: string) => line.replace(/\t/g, '  ').length;
	/** The line without its string, template and regular-expression literals, which no formatter breaks. */
	const code = (line: string) =>
		line
			.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
			.replace(/^(\s*)\/.*\/[a-z]*;?$/, '$1/x/');

	it(`no line is wider than ${MAX_COLUMNS} columns outside its strings`, () => {
		const wide = product.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.map((line, index) => ({ line, index }))
				.filter(({ line }) => columns(code(line)) > MAX_COLUMNS)
				.map(
					({ line, index }) => `${relative(root, file)}:${index + 1}: ${line.trim().slice(0, 60)}`,
				),
		);
		// The check reads real lines: some are wide only because of a long message string.
		expect(
			product.some((file) =>
				readFileSync(file, 'utf8')
					.split('\n')
					.some((line) => columns(line) > MAX_COLUMNS),
			),
		).toBe(true);
		expect(wide).toEqual([]);
	});
});
