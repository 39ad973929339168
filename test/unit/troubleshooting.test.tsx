/**
 * docs/troubleshooting.md lists every error and warning message the nodes can show: each message
 * the shipped code writes (an error's own message, a Share Pace reason, an execution hint) is found
 * in the code with TypeScript's parser, and its fixed words must be in the page.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const PLACEHOLDER = '\u0000';

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** The texts an expression can give, placeholders where it inserts values; [] if not text. */
function texts(node: ts.Expression | undefined): string[] {
	if (!node) return [];
	if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
	if (ts.isTemplateExpression(node))
		return [
			node.head.text + node.templateSpans.map((span) => PLACEHOLDER + span.literal.text).join(''),
		];
	if (ts.isConditionalExpression(node)) return [...texts(node.whenTrue), ...texts(node.whenFalse)];
	if (ts.isParenthesizedExpression(node)) return texts(node.expression);
	return [];
}

const property = (object: ts.Expression | undefined, name: string) =>
	object && ts.isObjectLiteralExpression(object)
		? object.properties.find(
				(p): p is ts.PropertyAssignment =>
					ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name,
			)?.initializer
		: undefined;

/** Every message of an error, a Share Pace reason or an execution hint, with where it is. */
function messages(): Array<{ where: string; text: string }> {
	const found: Array<{ where: string; text: string }> = [];
	for (const file of [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'nodes'))]) {
		const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
		const visit = (node: ts.Node) => {
			let message: ts.Expression | undefined;
			if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
				const args = node.arguments ?? [];
				if (node.expression.text === 'NodeOperationError') message = args[1];
				if (node.expression.text === 'NodeApiError') message = property(args[2], 'message');
				if (node.expression.text === 'TurnsUnavailable') message = args[0];
			}
			if (
				ts.isCallExpression(node) &&
				ts.isPropertyAccessExpression(node.expression) &&
				node.expression.name.text === 'addExecutionHints'
			)
				message = property(node.arguments[0], 'message');
			const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
			for (const text of texts(message))
				found.push({ where: `${relative(ROOT, file)}:${line}`, text });
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	return found;
}

/**
 * What the page must quote of a message: the first six words of its first fixed part of three
 * words or more (undefined when it has none, as `Invalid "<field>" in item N: <problem>`, which
 * the page gives as a pattern).
 */
function quotable(text: string): string | undefined {
	const part = text
		.split(PLACEHOLDER)
		.map((piece) => piece.trim())
		.find((piece) => piece.split(/\s+/).length >= 3);
	return part?.split(/\s+/).slice(0, 6).join(' ');
}

const page = readFileSync(join(ROOT, 'docs', 'troubleshooting.md'), 'utf8').replace(/\s+/g, ' ');

it('finds the messages of errors, Share Pace reasons and hints in the shipped code', () => {
	const found = messages();
	// A realistic count: the parser misses nothing it should find (each kind is there).
	expect(found.length).toBeGreaterThan(30);
	for (const start of [
		'May have been applied',
		'Share Pace Across Workers',
		'the trigger answered',
	])
		expect(found.some(({ text }) => text.startsWith(start))).toBe(true);
});

it('lists in docs/troubleshooting.md every error and warning message the nodes can show', () => {
	const missing = messages()
		.map(({ where, text }) => ({ where, quote: quotable(text) }))
		.filter(({ quote }) => quote !== undefined && !page.includes(quote));
	expect(missing).toEqual([]);
});
