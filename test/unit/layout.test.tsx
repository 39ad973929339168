import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import * as ts from 'typescript';

const root = join(__dirname, '..', '..');

function filesIn(dir: string, pattern: RegExp): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesIn(path, pattern) : pattern.test(name) ? [path] : [];
	});
}
const tsFiles = (dir: string) => filesIn(dir, /\.ts$/);

const product = ['nodes', 'credentials', 'src'].flatMap((dir) => tsFiles(join(root, dir)));
/** The sandbox's own code (its tests aside): held to the product's caps. */
const sandbox = filesIn(join(root, 'test/sandbox'), /^(?!.*\.test\.tsx$).*\.tsx$/);
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
 * The core library's folders on three levels, lowest first, and what each imports, with the
 * reason. A folder imports only folders on a lower level (never one beside it); this table names
 * which, so a new import between folders is a decision, seen here, not a drift.
 */
const LEVELS = [['base'], ['csv', 'platform', 'pace', 'history', 'quiet'], ['http']];
const FLOORS = LEVELS.flat();
const FLOOR_IMPORTS: Record<string, Record<string, string>> = {
	// What every other folder builds on: reading what a user gives and the errors that name a
	// field, secrets (tokens, redaction), byte streams, batches, a refused webhook request.
	base: {},
	// CSV files: checked row by row, rewritten, their header and size.
	csv: { base: 'input errors naming a field, phone numbers and e-mails, byte streams' },
	// The platform's rules per service, and its callbacks.
	platform: { base: 'coercion, input errors, tokens, JSON objects, the refused-request error' },
	// The run's pace: gate, pacer, the trigger's shared pacing record.
	pace: { base: 'JSON, tokens, the refused-request error' },
	// What a node sent in earlier runs, kept in n8n's store. Imports nothing of src/.
	history: {},
	// Quiet hours: a window in the recipient's local time, and their time zones.
	quiet: { base: 'input errors naming a field, coercion' },
	// The one request helper and its answers.
	http: {
		base: 'byte streams of multipart bodies, secrets taken out of errors, JSON objects',
		platform: "the platform's error messages and answer shapes",
		pace: 'every request waits its turn',
	},
};
const floorOf = (path: string) => LEVELS.findIndex((level) => level.includes(path.split('/')[1]));

/**
 * The imports between floors that break the rule: up or sideways, or down without a line in
 * FLOOR_IMPORTS. `imports`: repo-relative file → repo-relative targets.
 */
function wrongFloorImports(imports: Record<string, string[]>): string[] {
	return Object.entries(imports).flatMap(([from, targets]) =>
		targets
			.filter((to) => to.startsWith('src/') && to.split('/')[1] !== from.split('/')[1])
			.filter((to) => {
				const [source, destination] = [from.split('/')[1], to.split('/')[1]];
				return (
					floorOf(to) === -1 ||
					floorOf(to) >= floorOf(from) ||
					!Object.hasOwn(FLOOR_IMPORTS[source] ?? {}, destination)
				);
			})
			.map((to) => `${from} imports ${to}`),
	);
}

describe('src/ is laid out by concern on three levels, each folder importing only folders below it', () => {
	const srcFiles = product.filter((file) => relative(root, file).startsWith('src/'));
	const srcImports = Object.fromEntries(
		srcFiles.map((file) => [
			relative(root, file),
			importsOf(file)
				.map((path) => target(file, path))
				.filter((to): to is string => to !== undefined),
		]),
	);

	it('every file of src/ is in one of the folders', () => {
		expect(srcFiles.length).toBeGreaterThan(30);
		expect(
			srcFiles.map((file) => relative(root, file)).filter((path) => floorOf(path) === -1),
		).toEqual([]);
		expect(Object.keys(FLOOR_IMPORTS)).toEqual(FLOORS);
	});

	it('no import goes up or sideways between the folders of src/, nor down without its reason', () => {
		// The check reads real imports: api-request.ts uses the pace below it.
		expect(srcImports['src/http/api-request.ts'].some((to) => to.startsWith('src/pace/'))).toBe(
			true,
		);
		expect(wrongFloorImports(srcImports)).toEqual([]);
	});

	it('every reason in the table is an import that exists (a stale line is taken out)', () => {
		const used = new Set(
			Object.entries(srcImports).flatMap(([from, targets]) =>
				targets
					.filter((to) => to.startsWith('src/') && to.split('/')[1] !== from.split('/')[1])
					.map((to) => `${from.split('/')[1]} → ${to.split('/')[1]}`),
			),
		);
		const stated = Object.entries(FLOOR_IMPORTS).flatMap(([from, targets]) =>
			Object.keys(targets).map((to) => `${from} → ${to}`),
		);
		expect(stated.filter((line) => !used.has(line))).toEqual([]);
	});

	it('the check fails on an upward, a sideways and an unlisted downward import', () => {
		expect(
			wrongFloorImports({
				'src/base/a.ts': ['src/http/api-request'],
				'src/pace/b.ts': ['src/csv/check'],
				'src/csv/c.ts': ['src/platform/callbacks'],
				'src/history/d.ts': ['src/base/json'],
				'src/http/e.ts': ['src/pace/gate', 'src/http/run', 'lodash'],
			}),
		).toEqual([
			'src/base/a.ts imports src/http/api-request',
			'src/pace/b.ts imports src/csv/check',
			'src/csv/c.ts imports src/platform/callbacks',
			'src/history/d.ts imports src/base/json',
		]);
	});

	it('each folder has an entry file, which the node imports directly (issue 50: no re-export files)', () => {
		for (const floor of FLOORS) expect(existsSync(join(root, 'src', floor, 'index.ts'))).toBe(true);
		expect(existsSync(join(root, 'nodes/AudienceMessaging/core'))).toBe(false);
	});
});

describe('the product files import each other by short paths, without cycles', () => {
	it('finds the product files and their imports (the checks below read something)', () => {
		expect(product.length).toBeGreaterThan(40);
		expect(
			importsOf(join(root, 'nodes/AudienceMessaging/resources/message/send/run.ts')),
		).toContain('../../../../../src/http');
	});

	it('no product file climbs more than three folders, but to the core library (src/) and the runner (nodes/AudienceMessaging/runner/)', () => {
		const libraries = /^(src|nodes\/AudienceMessaging\/runner)\//;
		const deep = product.flatMap((file) =>
			importsOf(file)
				.filter((path) => path.startsWith('../../../../'))
				.filter((path) => !libraries.test(target(file, path) ?? ''))
				.map((path) => `${relative(root, file)}: ${path}`),
		);
		expect(deep).toEqual([]);
	});

	it("the node's files reach src/ by a folder's entry file (src/<folder>), naming the concern they use", () => {
		const inside = tsFiles(join(root, 'nodes/AudienceMessaging')).flatMap((file) =>
			importsOf(file)
				.map((path) => target(file, path))
				.filter((to): to is string => to?.startsWith('src/') === true)
				.filter((to) => !FLOORS.some((floor) => to === `src/${floor}`))
				.map((to) => `${relative(root, file)}: ${to}`),
		);
		expect(inside).toEqual([]);
		// The check reads real imports: an operation uses the request helper's entry.
		expect(
			importsOf(join(root, 'nodes/AudienceMessaging/resources/list/delete.ts')).map((path) =>
				target(join(root, 'nodes/AudienceMessaging/resources/list/delete.ts'), path),
			),
		).toContain('src/http');
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
		expect(edges.get('nodes/AudienceMessaging/resources/list/delete.ts')).toContain(
			'src/http/index.ts',
		);
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
	 * No product file over this many lines: a file that outgrows it is split along a seam, by what it
	 * holds (issue 60 lowered it from 250).
	 */
	const MAX_LINES = 230;

	const lines = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

	it(`no product or sandbox file is longer than ${MAX_LINES} lines`, () => {
		const long = [...product, ...sandbox]
			.filter((file) => lines(file) > MAX_LINES)
			.map((file) => `${relative(root, file)}: ${lines(file)} lines`);
		// The check reads real files: the longest of them is counted, the sandbox's among them.
		expect(Math.max(...product.map(lines))).toBeGreaterThan(150);
		expect(sandbox.map((file) => relative(root, file))).toContain('test/sandbox/server.tsx');
		expect(long).toEqual([]);
	});

	/**
	 * The product's code lines: lines holding code, not comments or blank lines (codeLines). A cap
	 * on code, not on explanations (issue 77): a comment that says why costs nothing here. It
	 * replaced a cap on every line (14,940 at the end), which was met by cutting comments. 12,300 is
	 * the code of issue 79's end, 12,310 with issue 77's first steps; issue 77 brought it to 11,990
	 * by sharing what was written twice (the runners' set-up, the request's facts, the errors' and
	 * the answers' checks, a phone number's digits, the calendar day), with the explanations cut
	 * before back in. A feature that needs more raises it here, in the same change, with its reason.
	 */
	const MAX_PRODUCT_CODE_LINES = 11_990;

	it(`the product is at most ${MAX_PRODUCT_CODE_LINES} lines of code`, () => {
		const total = product.reduce((sum, file) => sum + codeLines(readFileSync(file, 'utf8')), 0);
		expect(total).toBeGreaterThan(5000);
		expect(total).toBeLessThanOrEqual(MAX_PRODUCT_CODE_LINES);
	});

	it('counts as code a line with code, a comment beside it too, and no line of comments alone', () => {
		const text = [
			'/** A caption. */',
			"import { a } from './a';",
			'',
			'// Why the next line is so.',
			'const b = a + 1; // and a comment beside it',
			'/*',
			' * A block.',
			' */',
			'const c = `one',
			'two`;',
			'\t',
			'export { b, c };',
			'',
		].join('\n');
		expect(codeLines(text)).toBe(5);
	});

	it('each product and sandbox file opens with a one-line caption of what it holds', () => {
		const caption = (file: string) => {
			const [first, second = ''] = readFileSync(file, 'utf8').split('\n');
			return /^\/\*\* \S.*\*\/$/.test(first) || (first === '/**' && /^ \* \S/.test(second));
		};
		expect(caption(join(root, 'src/base/index.ts'))).toBe(true);
		expect(caption(join(root, 'test/unit/layout.test.tsx'))).toBe(false);
		const without = [...product, ...sandbox].filter((file) => !caption(file));
		expect(without.map((file) => relative(root, file))).toEqual([]);
	});

	/**
	 * Issue 50: no function over this many lines, but field-description data (a function declared
	 * to return `INodeProperties`, which is a list of fields, not logic).
	 */
	const MAX_FUNCTION_LINES = 80;
	/**
	 * Long functions still to split, each with why. Empty since issue 50 split the CSV check's two
	 * (checkCsv, readCsvRows); the list only shrinks (a test below says so).
	 */
	const STILL_LONG: Record<string, string> = {};

	it(`no function is longer than ${MAX_FUNCTION_LINES} lines, but field descriptions`, () => {
		const long = product.flatMap((file) =>
			longFunctions(relative(root, file), readFileSync(file, 'utf8'), MAX_FUNCTION_LINES),
		);
		expect(long.filter((entry) => !Object.hasOwn(STILL_LONG, entry.split(':')[0]))).toEqual([]);
		// A function split since leaves the list.
		expect(
			Object.keys(STILL_LONG).filter((name) => !long.some((entry) => entry.split(':')[0] === name)),
		).toEqual([]);
	});

	it('the check finds a long function, in any form, and lets field descriptions be', () => {
		const body = (lines: number) =>
			Array.from({ length: lines }, (_, i) => `\tx(${i});`).join('\n');
		const text = [
			`export function runAll() {\n${body(81)}\n}`,
			`const step = async () => {\n${body(85)}\n};`,
			`class A {\n\tmethod() {\n${body(90)}\n\t}\n}`,
			`function fine() {\n${body(78)}\n}`,
			`export function fields(): INodeProperties[] {\n${body(120)}\n}`,
		].join('\n');
		expect(longFunctions('src/x.ts', text, 80)).toEqual([
			'src/x.ts runAll: 83 lines',
			'src/x.ts step: 87 lines',
			'src/x.ts method: 92 lines',
		]);
	});
});

/** The lines of a TypeScript text holding code (a token of the program, not a comment). */
function codeLines(text: string): number {
	const source = ts.createSourceFile('code.ts', text, ts.ScriptTarget.Latest, true);
	const lines = new Set<number>();
	const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
	const visit = (node: ts.Node): void => {
		if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode)
			return;
		const children = node.getChildren(source);
		if (children.length) return children.forEach(visit);
		if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
		for (let line = lineOf(node.getStart(source)); line <= lineOf(node.getEnd()); line++)
			lines.add(line);
	};
	visit(source);
	return lines.size;
}

/**
 * The functions of a file longer than `max` lines (declarations, methods, arrow functions and
 * function expressions, named by what holds them), but those declared to return INodeProperties.
 */
function longFunctions(path: string, text: string, max: number): string[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const nameOf = (node: ts.Node): string => {
		const named = node as { name?: ts.Node };
		if (named.name) return named.name.getText(source);
		const parent = node.parent;
		if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
			return parent.name.getText(source);
		return '(anonymous)';
	};
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const lines = text.slice(node.getStart(source), node.getEnd()).split('\n').length;
			const returns = node.type?.getText(source) ?? '';
			if (lines > max && !returns.includes('INodeProperties'))
				found.push(`${path} ${nameOf(node)}: ${lines} lines`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

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
		const wide = [...product, ...sandbox].flatMap((file) =>
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
