/**
 * The docs' checkable claims, read against the code and the project's files (no network, no
 * build). The README's: the operations it documents, the credential fields, the labels it names,
 * the links n8n shows ("Docs" of the nodes and credentials), the developer commands, the
 * supported n8n versions, the runtime dependencies and the limits. Every Markdown file's: the
 * operations, options, fields, demos, npm scripts, files and jest projects it names, the messages
 * it quotes, the values it writes in code style and the bounds it states. Each check names, in a
 * comment, the drift it catches.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ICredentialType, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import * as ts from 'typescript';

import { AudienceMessagingApi } from '../../credentials/AudienceMessagingApi.credentials';
import { AudienceMessagingCallbackApi } from '../../credentials/AudienceMessagingCallbackApi.credentials';
import { AudienceMessaging } from '../../nodes/AudienceMessaging/AudienceMessaging.node';
import {
	DEFAULT_BATCH_SIZE,
	MAX_BATCH_SIZE,
} from '../../nodes/AudienceMessaging/resources/subscriber/addMany/fields';
import {
	DEFAULT_PASS_BATCH_SIZE,
	MAX_PASS_BATCH_SIZE,
} from '../../nodes/AudienceMessaging/resources/walletPass/create/fields';
import { AudienceMessagingTrigger } from '../../nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node';
import { CALLBACK_MAX_BYTES, CALLBACK_STATUSES } from '../../src/platform/callbacks';
import { REPEAT_MAX_EVENTS, REPEAT_WINDOW_MS } from '../../src/platform/callback-repeats';
import { SECRET_KEPT_MS } from '../../nodes/AudienceMessagingTrigger/secret';
import { MAX_PAGES } from '../../src/http/pagination';
import { MEDIA_MAX_BYTES } from '../../src/platform/chatapp/schema';
import { messageSchema } from '../../src/platform/chatapp/message';
import { messageWithLinks } from '../../nodes/AudienceMessaging/resources/message/sendAndWait/links';
import {
	FIRST_BACKOFF_RATE,
	MAX_HOLD_MS,
	MIN_RATE,
	PROBE_AFTER_MS,
	SHARED_BELOW,
	SHARED_HOLD_MS,
} from '../../src/pace/pacer';
import { SENDER_SHARERS } from '../../src/pace/pace';
import { REPLY_BUTTONS_MAX, REPLY_TITLE_MAX } from '../../src/platform/chatapp/message-parts';
import { CSV_MAX_BYTES } from '../../src/csv/header';
import { OUTCOMES } from '../../src/http/outcomes';
import { parseJsonReference } from '../../src/base/expressions';
import { DEFAULT_TIMEOUT_SECONDS } from '../../src/http/endpoints';

const root = resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const readme = read('README.md');
const pkg = JSON.parse(read('package.json')) as {
	engines?: Record<string, string>;
	dependencies?: Record<string, string>;
	devDependencies: Record<string, string>;
	peerDependencies?: Record<string, string>;
	devEngines?: { packageManager?: { name: string; version: string } };
	scripts: Record<string, string>;
};
/** Every Markdown file the repository holds (and so ships, on GitHub or in the package). */
const ALL_DOCS = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
	.trim()
	.split('\n');
/** The docs besides the README. */
const OWN_DOCS = ALL_DOCS.filter((file) => file !== 'README.md');
/** The operations reference: every operation, the trigger, how requests are sent. */
const reference = read('docs/operations.md');

const node = new AudienceMessaging().description;
const trigger = new AudienceMessagingTrigger().description;
const credentials: ICredentialType[] = [
	new AudienceMessagingApi(),
	new AudienceMessagingCallbackApi(),
];

// ------------------------------------------------------------------ Markdown, as GitHub reads it

/** The text's lines outside fenced code blocks (a "## " inside a code block is no heading). */
function proseLines(text: string): string[] {
	let fenced = false;
	return text.split('\n').map((line) => {
		if (/^\s*```/.test(line)) {
			fenced = !fenced;
			return '';
		}
		return fenced ? '' : line;
	});
}

const headings = (text: string) =>
	proseLines(text)
		.map((line) => /^(#{1,6}) (.+?)\s*$/.exec(line))
		.filter((match): match is RegExpExecArray => match !== null)
		.map((match) => ({ level: match[1].length, title: match[2] }));

/**
 * GitHub's anchor of a heading: lower case, punctuation dropped (› and ` included), spaces to '-'.
 */
const slug = (title: string) =>
	title
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

/** Every anchor of a document, with GitHub's -1, -2 suffixes for repeated headings. */
function anchors(text: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const { title } of headings(text)) {
		const base = slug(title);
		const count = seen.get(base) ?? 0;
		result.add(count ? `${base}-${count}` : base);
		seen.set(base, count + 1);
	}
	return result;
}

/**
 * The body of the level-`level` section titled `title`, up to the next heading of that level or
 * above.
 */
function section(text: string, title: string, level = 2): string {
	const lines = text.split('\n');
	const start = lines.findIndex((line) => line === `${'#'.repeat(level)} ${title}`);
	if (start < 0)
		throw new Error(
			`the ${text === readme ? 'README' : 'document'} has no "${'#'.repeat(level)} ${title}" section`,
		);
	const endOffset = lines
		.slice(start + 1)
		.findIndex((line) => new RegExp(`^#{1,${level}} `).test(line));
	return lines.slice(start + 1, endOffset < 0 ? undefined : start + 1 + endOffset).join('\n');
}

/**
 * The prose of a text on one line: lines joined and runs of spaces made one, as a reader sees a
 * wrapped paragraph.
 */
const flat = (text: string) => proseLines(text).join('\n').replace(/\s+/g, ' ');

const bold = (text: string) =>
	[...flat(text).matchAll(/\*\*([^*]+)\*\*/g)].map((match) => match[1].trim());

// ------------------------------------------------------------------ the node's description

const resources = (node.properties.find((p) => p.name === 'resource')?.options ?? []) as Array<{
	name: string;
	value: string;
}>;

/** "Resource › Operation" as the editor labels them, from the node's own description. */
function operationsOf(description: INodeTypeDescription): Map<string, string[]> {
	const byResource = new Map<string, string[]>();
	for (const resource of resources) {
		const operations = description.properties.filter(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
		);
		byResource.set(
			resource.name,
			operations.flatMap((p) =>
				(p.options ?? []).map((option) => (option as { name: string }).name),
			),
		);
	}
	return byResource;
}
const operations = operationsOf(node);
/**
 * Whether "<resource> › <words>" names an operation of that resource. The capture may run on into
 * the sentence ("Sender › Get Outputs…"), so the longest operation name of any resource that
 * starts the words is the one meant: "List › Get Many" means Get Many, which List lacks.
 */
function namesOperation(resource: string, words: string): boolean {
	const meant = [...new Set([...operations.values()].flat())]
		.filter((operation) => words === operation || words.startsWith(`${operation} `))
		.sort((a, b) => b.length - a.length)[0];
	return meant !== undefined && (operations.get(resource) ?? []).includes(meant);
}
const operationLabels = [...operations]
	.flatMap(([resource, names]) => names.map((name) => `${resource} › ${name}`))
	.sort();

/**
 * Every label a user sees in the nodes' and credentials' panels: field names, option names,
 * collection entries, locator modes.
 */
function labelsOf(
	properties: INodeProperties[] | undefined,
	into = new Set<string>(),
): Set<string> {
	for (const property of properties ?? []) {
		into.add(property.displayName);
		for (const option of (property.options ?? []) as unknown as Array<Record<string, unknown>>) {
			if (typeof option.name === 'string' && !('type' in option) && !('values' in option))
				into.add(option.name);
			if (typeof option.displayName === 'string') into.add(option.displayName);
			if ('type' in option) labelsOf([option as unknown as INodeProperties], into);
			if (Array.isArray(option.values)) labelsOf(option.values as INodeProperties[], into);
		}
		for (const mode of (property as { modes?: Array<{ displayName: string }> }).modes ?? [])
			into.add(mode.displayName);
	}
	return into;
}
const uiLabels = labelsOf([
	...node.properties,
	...trigger.properties,
	...credentials.flatMap((c) => c.properties),
]);
for (const name of [
	node.displayName,
	trigger.displayName,
	...credentials.map((c) => c.displayName),
])
	uiLabels.add(name);
/**
 * n8n's own words the README sets in bold: the trigger panel's Production URL, a credential's Test
 * button, the editor's Execute workflow button and the n8n nodes a quick start adds.
 */
const N8N_LABELS = [
	'Production URL',
	'Test',
	'Execute workflow',
	'Manual Trigger',
	'Edit Fields (Set)',
	'Listen for test event',
];

// ------------------------------------------------------------------ the checks

describe('README and the operations reference: operations', () => {
	const operationsSection = section(reference, 'Operations');
	const documented = headings(operationsSection)
		.filter((h) => h.level === 3 && h.title.includes(' › '))
		.map((h) => h.title)
		.sort();

	// Drift: an operation added to (or renamed in) the node without its section, or a section left
	// for an operation that was removed or renamed.
	it('has one "### Resource › Operation" section per operation the node offers, and no other', () => {
		expect(operationLabels.length).toBeGreaterThan(10);
		expect(documented).toEqual(operationLabels);
	});

	// Drift: the README (or a doc) refers to "Sender › Update", "List › Import" or any other
	// operation the node does not have, outside the sections the check above reads.
	it('names only existing operations wherever it writes "Resource › Operation"', () => {
		const names = resources.map((r) => r.name).sort((a, b) => b.length - a.length);
		const mention = new RegExp(
			`\\b(${names.join('|')}) › ([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*)`,
			'g',
		);
		const unknown: string[] = [];
		for (const file of ['README.md', ...OWN_DOCS]) {
			for (const [, resource, words] of flat(read(file)).matchAll(mention)) {
				if (!namesOperation(resource, words)) unknown.push(`${file}: ${resource} › ${words}`);
			}
		}
		expect(unknown).toEqual([]);
	});

	// Drift: a field or option renamed in the node ("Batch Size" -> "Rows per Request") while the
	// README goes on naming the old label. Bold text in these sections is, by convention, a label,
	// but for a step's run-in heading, which ends with a full stop ("**Its status.**").
	it('sets in bold only labels the nodes and credentials show', () => {
		const named = [
			...['Quick start', 'Credentials', 'Operations', 'Audience Messaging Trigger'].flatMap(
				(title) => bold(section(readme, title)),
			),
			...['Operations', 'Audience Messaging Trigger'].flatMap((title) =>
				bold(section(reference, title)),
			),
			...bold(read('docs/rate-limits.md')),
		];
		expect(named.length).toBeGreaterThan(50);
		expect(
			named.filter(
				(label) => !uiLabels.has(label) && !N8N_LABELS.includes(label) && !label.endsWith('.'),
			),
		).toEqual([]);
	});

	// Drift: a status added to (or dropped from) the trigger's Statuses without the README's list.
	it("lists every status the trigger's Statuses offers", () => {
		const triggerSection = section(reference, 'Audience Messaging Trigger');
		const listed = [...triggerSection.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1]);
		expect([...new Set(listed)].sort()).toEqual([...CALLBACK_STATUSES].sort());
	});
});

describe('README: credentials', () => {
	// Drift: a credential field added, renamed or removed without the README's table following.
	it.each(credentials.map((credential) => [credential.displayName, credential] as const))(
		'documents every field of %s, and no other',
		(displayName, credential) => {
			const table = section(section(readme, 'Credentials'), displayName, 3);
			const fields = [...table.matchAll(/^\| ([^|]+?) \|/gm)]
				.map((match) => match[1])
				.filter((cell) => cell !== 'Field' && !/^-+$/.test(cell));
			expect(fields.sort()).toEqual(credential.properties.map((p) => p.displayName).sort());
		},
	);
});

describe('README: links', () => {
	const readmeAnchors = anchors(readme);

	// Drift: a README heading renamed ("## Credentials" -> "## Setting up credentials") breaks the
	// Docs links n8n shows in the credential dialog and the node panel.
	it('has the anchors the credentials and codex files link to', () => {
		const urls = [
			...credentials.map((c) => String(c.documentationUrl)),
			...[
				'nodes/AudienceMessaging/AudienceMessaging.node.json',
				'nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node.json',
			].flatMap((file) => {
				const codex = JSON.parse(read(file)) as {
					resources?: Record<string, Array<{ url: string }>>;
				};
				return Object.values(codex.resources ?? {}).flatMap((links) =>
					links.map((link) => link.url),
				);
			}),
		];
		const wanted = urls
			.filter((url) => url.startsWith(String((pkg as { homepage?: string }).homepage)))
			.map((url) => url.split('#')[1])
			.filter(Boolean);
		expect(wanted.length).toBeGreaterThanOrEqual(4);
		expect(wanted.filter((anchor) => !readmeAnchors.has(anchor))).toEqual([]);
	});

	// Drift: a link to a section that was renamed, or to a doc or picture that was moved.
	it('links only to anchors, files and pictures that exist', () => {
		const broken: string[] = [];
		for (const file of ['README.md', ...OWN_DOCS]) {
			const text = proseLines(read(file)).join('\n');
			for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^[a-z]+:/.test(target)) continue;
				const [path, anchor] = target.split('#');
				const linked = path ? join(dirname(join(root, file)), path) : join(root, file);
				if (!existsSync(linked)) broken.push(`${file}: ${target}`);
				else if (
					anchor &&
					linked.endsWith('.md') &&
					!anchors(readFileSync(linked, 'utf8')).has(anchor)
				)
					broken.push(`${file}: ${target}`);
			}
		}
		expect(broken).toEqual([]);
	});

	// Drift: a machine's own folder (a home or work directory) pasted into the docs; a user's folder
	// is written `~/.n8n`, which holds on any machine.
	it('names no machine paths', () => {
		for (const file of ['README.md', ...OWN_DOCS]) {
			const paths =
				read(file).match(/(?<![\w.~-])\/(?:root|work|home|Users|tmp)\/[^\s)`'"]*/g) ?? [];
			expect({ file, paths }).toEqual({ file, paths: [] });
		}
	});
});

describe('README: development', () => {
	const commands = proseLines(read('.ci/run'))
		.map((line) => line.replace(/#.*/, '').trim())
		.filter((line) => line && !/^(set|cd)\b/.test(line));
	const block = /## Development\n[\s\S]*?```bash\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
	const lines = block
		.split('\n')
		.map((line) => line.replace(/#.*/, '').trim())
		.filter(Boolean);

	// Drift: the README tells developers `npm ci --ignore-scripts` (or `npm install`) while CI's
	// .ci/run runs `npm ci`, or its test command differs from what CI runs.
	it('gives the two commands CI runs: install && start, then test', () => {
		expect(commands.length).toBeGreaterThanOrEqual(2);
		expect(lines).toHaveLength(2);
		const [install, start] = lines[0].split('&&').map((part) => part.trim());
		expect({ install, test: lines[1] }).toEqual({
			install: commands[0],
			test: commands[commands.length - 1],
		});
		expect(start).toBe('npm start');
		expect(pkg.scripts.start).toBeDefined();
		expect(pkg.scripts.test).toBeDefined();
	});

	// Drift: package.json raises the Node (engines.node) or npm (devEngines) a clone needs and the
	// README still says the old one.
	it('states the Node.js and npm versions package.json asks for', () => {
		const npm = pkg.devEngines?.packageManager;
		expect(npm?.name).toBe('npm');
		const minimum = (range: string | undefined) =>
			/^>=(\d+\.\d+)(?:\.0)?$/.exec(range ?? '')?.[1] ?? `(not a ">=x.y" range: "${range}")`;
		const development = flat(section(readme, 'Development'));
		expect(development).toContain(
			`Node.js ${minimum(pkg.engines?.node)} or later and npm ${minimum(npm?.version)} or later`,
		);
	});
});

describe('README: supported versions and dependencies', () => {
	const supported = section(readme, 'Supported versions');

	// Drift: engines.n8n changes (a new major, a raised floor) and the README still states the old
	// range, in its exact form or in words.
	it('states the n8n range package.json declares (engines.n8n), exactly and in words', () => {
		const range = pkg.engines?.n8n;
		if (!range)
			throw new Error(
				'package.json has no engines.n8n: the README\'s "Supported versions" states a range that nothing declares',
			);
		expect(/`engines\.n8n`\): `([^`]+)`/.exec(supported)?.[1]).toBe(range);
		const bounds = /^>=(\d+)\.(\d+)\.\d+ <(\d+)\.0\.0$/.exec(range);
		if (!bounds)
			throw new Error(
				`engines.n8n "${range}" is not of the form ">=A.B.C <D.0.0" this test reads in words: update the test with the README`,
			);
		const [floorMajor, floorMinor, ceilingMajor] = bounds.slice(1).map(Number);
		const majors = [`${floorMajor}.${floorMinor}.x`];
		for (let major = floorMajor + 1; major < ceilingMajor; major++) majors.push(`${major}.x`);
		const words =
			majors.length === 1
				? majors[0]
				: `${majors.slice(0, -1).join(', ')} and ${majors[majors.length - 1]}`;
		expect(supported).toContain(`n8n ${words} (tested on `);
	});

	// Drift: a version added to (or dropped from) the compatibility matrix's runtimes without the
	// README's "tested on" list, or a listed version outside the declared range.
	it('names as tested exactly the n8n versions with a committed runtime, each in the range', () => {
		const tested = (/\(tested on ([^)]+)\)/.exec(supported)?.[1] ?? '').split(/, | and /);
		// The runtimes and the range check the matrix itself uses (test/n8n-runtime/paths.mjs,
		// scripts/matrix.mjs): ES modules, read in a child process.
		const script = `Promise.all([import('./test/n8n-runtime/paths.mjs'), import('./scripts/matrix.mjs')]).then(([paths, matrix]) => console.log(JSON.stringify({ runtimes: paths.availableVersions(), inRange: ${JSON.stringify(tested)}.map((v) => matrix.satisfies(v, ${JSON.stringify(pkg.engines?.n8n ?? '')})) })))`;
		const { runtimes, inRange } = JSON.parse(
			execFileSync(process.execPath, ['-e', script], {
				cwd: root,
				encoding: 'utf8',
				env: { ...process.env, N8N_VERSION: '' },
			}),
		) as { runtimes: string[]; inRange: boolean[] };
		expect([...tested].sort()).toEqual([...runtimes].sort());
		expect(Object.fromEntries(tested.map((version, i) => [version, inRange[i]]))).toEqual(
			Object.fromEntries(tested.map((version) => [version, true])),
		);
	});

	// Drift: a runtime dependency added to package.json (n8n Cloud and verified community nodes
	// accept none) while the README says there is none; or the README naming another peer or
	// bundled library than the code uses.
	it('says "no runtime dependencies" as package.json does, with the peer and bundled libraries it has', () => {
		const installed = flat(section(readme, 'What gets installed', 3));
		expect(installed).toContain('The package has no runtime dependencies');
		expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
		const peers = Object.keys(pkg.peerDependencies ?? {});
		expect(peers).toEqual(['n8n-workflow']);
		expect(installed).toContain(`${peers[0]} is a peer dependency`);
		const listed = /: (.+?) are bundled into its files by esbuild/.exec(installed)?.[1] ?? '';
		const bundled = listed.split(/, | and /).sort();
		// What the shipped code imports besides n8n-workflow and Node.js: the bundled libraries.
		const imported = new Set(
			codeFiles('nodes', 'src', 'credentials')
				.filter((file) => file.endsWith('.ts'))
				.flatMap((file) => [...read(file).matchAll(/from '([^.'][^']*)'/g)].map((m) => m[1]))
				.filter((library) => !library.startsWith('node:') && library !== 'n8n-workflow')
				.map((library) =>
					library
						.split('/')
						.slice(0, library.startsWith('@') ? 2 : 1)
						.join('/'),
				),
		);
		expect(bundled).toEqual([...imported].sort());
		for (const library of bundled)
			expect({ library, dev: library in pkg.devDependencies }).toEqual({ library, dev: true });
	});
});

describe('the operations reference: limits', () => {
	const limits = section(reference, 'Limits');
	const row = (start: string) => {
		const found = limits.split('\n').find((line) => line.startsWith(`| ${start}`));
		if (!found) throw new Error(`the Limits table has no row starting "${start}"`);
		return found;
	};
	const n = (value: number) => value.toLocaleString('en-US');

	// Drift: a limit or default changed in the code (a batch size raised, the CSV cap moved) while
	// the README's table keeps the old figure.
	it('gives the limits and defaults the code enforces', () => {
		expect(row('CSV file')).toContain(`${CSV_MAX_BYTES / 1024 / 1024} MB`);
		expect(row('Subscriber › Add Many, Batch Size')).toContain(
			`1 to ${n(MAX_BATCH_SIZE)} rows per request (default ${n(DEFAULT_BATCH_SIZE)})`,
		);
		expect(row('Wallet Pass › Create, Batch Size')).toContain(
			`1 to ${n(MAX_PASS_BATCH_SIZE)} passes per request (default ${n(DEFAULT_PASS_BATCH_SIZE)})`,
		);
		expect(row('Media message')).toContain(`${MEDIA_MAX_BYTES / 1024 / 1024} MB`);
		expect(row('Reply buttons')).toContain(
			`1 to ${REPLY_BUTTONS_MAX}, unique IDs, titles of at most ${REPLY_TITLE_MAX} characters`,
		);
		expect(row('Return All')).toContain(`${n(MAX_PAGES)} pages`);
		expect(row('Callback body')).toContain(`${CALLBACK_MAX_BYTES / 1024} KB`);
		expect(row('Callback secret')).toContain(
			`a change takes effect within ${SECRET_KEPT_MS / 1000} s`,
		);
		expect(row('Callback repeats')).toContain(
			`within ${REPEAT_WINDOW_MS / 60_000} minutes starts nothing; at most ${n(REPEAT_MAX_EVENTS)} events`,
		);
		const timeout = new AudienceMessagingApi().properties.find((p) => p.name === 'timeout');
		expect(row('Request Timeout')).toContain(
			`${timeout?.typeOptions?.minValue} to ${timeout?.typeOptions?.maxValue} s (default ${DEFAULT_TIMEOUT_SECONDS})`,
		);
		expect(timeout?.default).toBe(DEFAULT_TIMEOUT_SECONDS);
	});

	// Drift: the message schema's text or External ID limit changes and the README's does not.
	it('gives the text and External ID lengths the message check accepts, and not one more', () => {
		const textMax = Number(/(\d+) characters/.exec(row('Text message'))?.[1]);
		const idMax = Number(/at most (\d+)/.exec(row('External ID'))?.[1]);
		const message = (fields: Record<string, unknown>) =>
			messageSchema.safeParse({
				from: '15550100100',
				to: '+33612345678',
				type: 'text',
				body: 'hello',
				...fields,
			}).success;
		expect([
			message({ body: 'x'.repeat(textMax) }),
			message({ body: 'x'.repeat(textMax + 1) }),
		]).toEqual([true, false]);
		// How it counts, as the row says: an emoji 2, "é" 1, the ends trimmed, Send and Wait's links.
		const [fit, over] = (/([\d,]+) emoji fit, ([\d,]+) do not/.exec(row('Text message')) ?? [])
			.slice(1)
			.map((count) => Number(count.replace(/,/g, '')));
		expect([fit, over]).toEqual([textMax / 2, textMax / 2 + 1]);
		expect([message({ body: '😀'.repeat(fit) }), message({ body: '😀'.repeat(over) })]).toEqual([
			true,
			false,
		]);
		expect(row('Text message')).toContain(`${n(textMax)} "é" fit`);
		expect(message({ body: 'é'.repeat(textMax) })).toBe(true);
		expect(message({ body: ` \n${'x'.repeat(textMax)}\n ` })).toBe(true);
		const links = [{ label: 'Approve', url: 'https://n8n.example.com/webhook-waiting/1/x' }];
		expect(message({ body: messageWithLinks('x'.repeat(textMax - 50), links, false) })).toBe(false);
		expect([
			message({ externalId: 'a'.repeat(idMax) }),
			message({ externalId: 'a'.repeat(idMax + 1) }),
		]).toEqual([true, false]);
	});
});

/**
 * The operations ("Resource › Operation", as the editor names them) whose Options collection holds
 * the option `name`, following the collection's and the option's displayOptions.
 */
function operationsWithOption(name: string): Set<string> {
	const resourceNames = new Map(
		(node.properties.find((p) => p.name === 'resource')?.options ?? []).map((o) => [
			(o as { value: string }).value,
			(o as { name: string }).name,
		]),
	);
	const operationNames = new Map<string, string>();
	for (const property of node.properties.filter((p) => p.name === 'operation')) {
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const option of (property.options ?? []) as Array<{ value: string; name: string }>)
				operationNames.set(
					`${resource}.${option.value}`,
					`${resourceNames.get(resource)} › ${option.name}`,
				);
		}
	}
	const withOption = new Set<string>();
	for (const property of node.properties.filter((p) => p.name === 'options')) {
		const option = (property.options ?? []).find((o) => (o as INodeProperties).name === name) as
			| INodeProperties
			| undefined;
		if (!option) continue;
		const show = property.displayOptions?.show ?? {};
		const onlyFor = option.displayOptions?.show?.['/operation'] as string[] | undefined;
		for (const resource of (show.resource ?? []) as string[]) {
			// Without an operation in displayOptions, the collection shows for every operation of the
			// resource.
			const operations =
				(show.operation as string[] | undefined) ??
				[...operationNames.keys()]
					.filter((key) => key.startsWith(`${resource}.`))
					.map((key) => key.slice(resource.length + 1));
			for (const operation of operations.filter((one) => !onlyFor || onlyFor.includes(one)))
				withOption.add(
					operationNames.get(`${resource}.${operation}`) ?? `${resource}.${operation}`,
				);
		}
	}
	return withOption;
}

/**
 * The operations a list in words names ("Message › Send, Send and Wait for Response, Blacklist ›
 * Add and Check"): "Resource › " is said once for the operations that follow it. `known` tells an
 * operation whose name holds " and " (Send and Wait for Response), which is one name, not two.
 */
function operationsNamed(words: string, known: Set<string>): Set<string> {
	const named = new Set<string>();
	const AND = '\u0000';
	const whole = [...known]
		.map((operation) => operation.split(' › ')[1])
		.filter((operation) => operation.includes(' and '));
	let list = words.replace(/\s+/g, ' ');
	for (const operation of whole)
		list = list.split(operation).join(operation.split(' and ').join(AND));
	for (const part of list.split(/, | and (?=[A-Z])/)) {
		const match = /^(?:(.+?) › )?(.+)$/.exec(part.trim());
		if (!match) continue;
		const resource = match[1] ?? [...named].at(-1)?.split(' › ')[0];
		for (const operation of match[2].split(' and '))
			named.add(`${resource} › ${operation.trim().split(AND).join(' and ')}`);
	}
	return named;
}

describe('README: outcomes and the wait budget', () => {
	const requests = section(reference, 'How requests are sent');

	// Drift: an outcome added to (or renamed in) the code without a row telling users what to do.
	it('has one row per outcome the nodes report in `status`, and no other', () => {
		const rows = [
			...section(requests, 'Outcomes: unknown, accepted, not sent', 3).matchAll(/^\| `(\w+)` \|/gm),
		]
			.map((match) => match[1])
			.filter((cell) => cell !== 'status');
		expect(rows.sort()).toEqual([...OUTCOMES].sort());
	});

	// Drift: "Max Wait When Rate Limited" added to an operation (or taken away) without the README's
	// list following.
	it('names as having Max Wait When Rate Limited exactly the operations whose Options hold it', () => {
		const withOption = operationsWithOption('rateLimitWait');
		const bullet =
			/\*\*One wait budget per run\*\*[\s\S]*?Max Wait When Rate Limited \(Seconds\)\*\*\s+\(([^;]+);/.exec(
				requests,
			)?.[1] ?? '';
		const named = operationsNamed(bullet, withOption);
		expect(withOption.size).toBeGreaterThanOrEqual(5);
		expect([...named].sort()).toEqual([...withOption].sort());
	});

	// Drift: the pacer's bounds change and rate-limits.md's account of a 429 does not.
	it("gives in rate-limits.md the pacer's bounds after a 429: the first back-off, the floor, the waits before speeding up", () => {
		const text = flat(section(read('docs/rate-limits.md'), 'What the node does on a 429'));
		expect(text).toContain(`halves its rate instead, to at most ${FIRST_BACKOFF_RATE} per second`);
		expect(text).toContain(`below one message every ${1 / MIN_RATE} seconds, or, with Sender ID`);
		expect(text).toContain(`an eighth of the sender's \`rateLimit\``);
		expect(SENDER_SHARERS).toBe(8);
		const s = (ms: number) => ms / 1000;
		expect(text).toContain(
			`${s(PROBE_AFTER_MS)} to ${s(PROBE_AFTER_MS) * 1.5} seconds after a 429`,
		);
		expect(text).toContain(
			`up to ${s(MAX_HOLD_MS) / 60} to ${(s(MAX_HOLD_MS) * 1.5) / 60} minutes`,
		);
		expect(text).toContain(`(under ${SHARED_BELOW * 100} % of it:`);
		expect(text).toContain(`after ${s(SHARED_HOLD_MS)} to ${s(SHARED_HOLD_MS) * 1.5} seconds`);
	});

	// Drift: rate-limits.md's list of the operations that have the option besides Message › Send
	// (whose table row sets it) leaving one out, as it once left out Send and Wait for Response.
	it('names in rate-limits.md, besides Message › Send, every operation whose Options hold Max Wait When Rate Limited', () => {
		const withOption = operationsWithOption('rateLimitWait');
		const sentence =
			/([A-Z][^.|]*?) have \*\*Max Wait When Rate Limited \(Seconds\)\*\* too\./.exec(
				flat(read('docs/rate-limits.md')),
			)?.[1] ?? '';
		const named = operationsNamed(sentence, withOption);
		expect(withOption.has('Message › Send')).toBe(true);
		expect([...named].sort()).toEqual(
			[...withOption].filter((operation) => operation !== 'Message › Send').sort(),
		);
	});

	// Drift: an operation that writes without Preview Without Sending, or the README's list not
	// following.
	it('names as having Preview Without Sending exactly the operations whose Options hold it, which are all the writing ones', () => {
		const withOption = operationsWithOption('preview');
		const preview = section(requests, 'Preview Without Sending', 3);
		const named = [...preview.matchAll(/^- ([A-Z][\w ]+ › [A-Z][\w ]+)/gm)].map((match) =>
			match[1].trim(),
		);
		expect([...withOption].sort()).toEqual(named.sort());
		expect(named.sort()).toEqual([
			'Blacklist › Add',
			'List › Create',
			'List › Create From CSV',
			'List › Delete',
			'Message › Send',
			'Message › Send and Wait for Response',
			'Sender › Create',
			'Subscriber › Add Many',
			'Subscriber › Delete',
			'Wallet Pass › Create',
		]);
	});
});

describe('README: plain $json references', () => {
	const operations = section(reference, 'Common to every operation', 3);
	const bullet =
		/^- A field whose whole value is a reference to the input item's own data[\s\S]*?(?=\n- |\n\n)/m.exec(
			operations,
		)?.[0] ?? '';
	const examples = (text: string) =>
		[...text.matchAll(/`(\{\{[^`]*\}\})`/g)].map((match) => `=${match[1]}`);

	// Drift: the README promises as fast a form of reference the reader does not take (or the parser
	// lost).
	it('gives as read from the item only references the fast path takes', () => {
		expect(examples(bullet).length).toBeGreaterThanOrEqual(4);
		for (const example of examples(bullet))
			expect([example, parseJsonReference(example)]).toEqual([example, expect.any(Array)]);
	});

	// Drift: a computed expression the README gives as evaluated by n8n turned into one the reader
	// takes.
	it('gives as computed only expressions the fast path leaves to n8n', () => {
		const computed = examples(section(reference, 'Wallet Pass › Create', 3)).filter((example) =>
			example.includes('+'),
		);
		expect(computed.length).toBeGreaterThanOrEqual(1);
		for (const example of computed)
			expect([example, parseJsonReference(example)]).toEqual([example, undefined]);
	});
});

// ------------------------------------------------------------------ the front page and the reference

/** The fields shown for `resource`.`operation`, and the entries of its collections (Options…). */
function labelsShownFor(resource: string, operation: string): string[] {
	const shown = (property: INodeProperties, key: string, value: string) => {
		const values = property.displayOptions?.show?.[key] as unknown[] | undefined;
		return !values || values.includes(value);
	};
	const labels: string[] = [];
	for (const property of node.properties) {
		if (['resource', 'operation'].includes(property.name) || property.type === 'notice') continue;
		if (!property.displayOptions?.show?.resource) continue;
		if (!shown(property, 'resource', resource) || !shown(property, 'operation', operation))
			continue;
		labels.push(property.displayName);
		if (property.type !== 'collection') continue;
		for (const option of (property.options ?? []) as INodeProperties[])
			if (shown(option, '/operation', operation)) labels.push(option.displayName);
	}
	return labels;
}

describe('README: the front page', () => {
	// Drift: the README grows back into the reference (issue 39: a front page read in minutes).
	it('is at most 300 lines and has the front page sections', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(300);
		const titles = headings(readme).map((heading) => heading.title);
		for (const title of [
			'Supported versions',
			'Release status',
			'Installation',
			'Queue mode',
			'Quick start',
			'Credentials',
			'Operations',
			'Audience Messaging Trigger',
			'Use with AI agents',
			'Not supported, and what to do instead',
			'Limits',
			'Troubleshooting',
			'Development',
		])
			expect({ title, present: titles.includes(title) }).toEqual({ title, present: true });
	});

	// Drift: an operation added to the node without its line in the README's table, or a line left
	// for one that is gone.
	it("lists every operation once in the Operations table, linked to the reference's section", () => {
		const rows = [
			...section(readme, 'Operations').matchAll(
				/^\| \[([^\]]+)\]\(docs\/operations\.md#([^)]+)\) \|/gm,
			),
		];
		expect(rows.map((row) => row[1]).sort()).toEqual(operationLabels);
		for (const [, label, anchor] of rows)
			expect({ label, anchor }).toEqual({ label, anchor: slug(label) });
	});
});

describe('the operations reference: every field and option', () => {
	const resourceValues = new Map(resources.map((r) => [r.name, r.value]));
	const cases = node.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) =>
			((p.displayOptions?.show?.resource ?? []) as string[]).flatMap((resource) =>
				(p.options as Array<{ name: string; value: string }>).map((option) => ({
					resource,
					operation: option.value,
					label: `${resources.find((r) => r.value === resource)?.name} › ${option.name}`,
				})),
			),
		);

	// Drift: a field or option added to an operation without a word in its section of the reference
	// (a user cannot find what it does), or renamed in the node only.
	it.each(cases.map((c) => [c.label, c] as const))(
		'names in bold, in "%s", every field and option the editor shows for it',
		(label, { resource, operation }) => {
			expect(resourceValues.get(label.split(' › ')[0])).toBe(resource);
			const named = new Set(bold(section(reference, label, 3)));
			const missing = labelsShownFor(resource, operation).filter((name) => !named.has(name));
			expect({ label, missing }).toEqual({ label, missing: [] });
		},
	);
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('messages and docs name only what exists', () => {
	const resourceNames = resources.map((r) => r.name).sort((a, b) => b.length - a.length);
	const mention = new RegExp(
		`\\b(${resourceNames.join('|')}) › ([A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)*)`,
		'g',
	);
	const sources = (dir: string): string[] =>
		execFileSync('git', ['ls-files', dir], { cwd: root, encoding: 'utf8' })
			.split('\n')
			.filter((file) => /\.ts$/.test(file));

	// Drift: an error message, hint or tooltip sends users to "List › Get Many" (there is none) or
	// any other operation the node does not have.
	it('names only existing operations in the shipped code (errors, hints, tooltips)', () => {
		const unknown: string[] = [];
		for (const file of [...sources('nodes'), ...sources('src'), ...sources('credentials')]) {
			for (const [, resource, words] of read(file).replace(/\s+/g, ' ').matchAll(mention)) {
				if (!namesOperation(resource, words)) unknown.push(`${file}: ${resource} › ${words}`);
			}
		}
		expect(unknown).toEqual([]);
	});

	// Drift: a doc or message names "Options › Rows per Request" after the option was renamed.
	it('names only existing options wherever it writes "Options › <option>"', () => {
		const optionLabels = new Set(
			node.properties
				.filter((p) => p.type === 'collection')
				.flatMap((p) => (p.options as INodeProperties[]).map((option) => option.displayName)),
		);
		const unknown: string[] = [];
		const files = ['README.md', ...OWN_DOCS, ...sources('nodes'), ...sources('src')];
		for (const file of files) {
			for (const [, rest] of flat(read(file)).matchAll(/Options\*{0,2} › \*{0,2}([A-Z].{0,60})/g)) {
				if (![...optionLabels].some((label) => new RegExp(`^${escaped(label)}(?!\\w)`).test(rest)))
					unknown.push(`${file}: Options › ${rest.slice(0, 40)}`);
			}
		}
		expect(unknown).toEqual([]);
	});
});

// ------------------------------------------------------------------ quoted messages and values

/**
 * The docs a user of the nodes reads: what they quote must be the shipped code's words (or a demo
 * workflow's). The others (how the project is built and tested) may quote any of its code.
 */
const USER_DOCS = [
	'README.md',
	'CHANGELOG.md',
	'demo/README.md',
	'docs/operations.md',
	'docs/recipes.md',
	'docs/troubleshooting.md',
	'docs/rate-limits.md',
];

/**
 * Quotes of what others say, never the node: each doc quote of two words or more must be the
 * node's own words (see staleQuotes) or one of these. A quote that no user doc has any more fails
 * the test below, so the list stays short and true.
 */
const NOT_OURS: Record<string, string> = {
	'Invalid Form Link': "n8n's page for a resume link whose query or signature was changed",
	'No action required':
		"n8n's page for a link of an execution that went on (this node's page for an earlier wait's link has the same title)",
	'Unrecognized node type': "n8n's error on a process without the package",
	'Authorization failed - please check your credentials': "n8n 1.x's credential test, HTTP 401",
	'The resource you are requesting could not be found': "n8n 1.x's credential test, HTTP 404",
	'Request failed with status code 30x': "n8n 1.x's credential test, a redirect",
	'The service refused the connection - perhaps it is offline':
		"n8n 1.x's credential test, no connection",
	'429 Too Many Requests': "HTTP's name of the status the platform answers",
	'one of 4 kinds depending on pass type': "the platform's interface specification",
	'use pnpm': "eslint-plugin-n8n-nodes-base's check before its install",
	'Failed to start Python task runner in internal mode': "n8n's log at start",
	'[license SDK] Skipping renewal': "n8n's log at start",
	'This proxy is only available for Data table nodes':
		"n8n 2.40's answer to a node other than its Data table nodes",
	'Database is not ready!': "n8n's 503 while its database is busy",
	'There was a problem executing the workflow':
		"n8n's 500 when its webhook process could not start the execution",
};

/** In a code string: a value put in at run time (`${…}`, a variable added to a string). */
const SLOT = '\u0001';
/** In a quote: `…`, `...`, `<field>`, N or M, which stand for anything. */
const ANY = '\u0002';
/** The most quote characters one SLOT stands for. */
const MAX_SLOT = 30;
/**
 * Half a quote's letters, and at least this many (all, when it has fewer), must be matched by the
 * code's own letters, not by its slots.
 */
const MIN_LETTERS = 8;

const normalised = (text: string) =>
	text
		.replace(/[\u2018\u2019]/g, "'")
		.replace(/\s+/g, ' ')
		.trim()
		.toLowerCase();

/**
 * Every string of the shipped code (string literals, templates, and strings added together), each
 * value put in at run time as a SLOT, and of the codex files (the nodes panel's search words);
 * normalised, without repeats.
 */
function codeStrings(files: string[]): string[] {
	const strings = new Set<string>();
	const collect = (value: unknown): void => {
		if (typeof value === 'string') strings.add(normalised(value));
		else if (value && typeof value === 'object') Object.values(value).forEach(collect);
	};
	const textOf = (expression: ts.Node): string | undefined => {
		if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
			return expression.text;
		if (ts.isTemplateExpression(expression))
			return (
				expression.head.text +
				expression.templateSpans.map((span) => SLOT + span.literal.text).join('')
			);
		if (ts.isParenthesizedExpression(expression)) return textOf(expression.expression);
		if (
			ts.isBinaryExpression(expression) &&
			expression.operatorToken.kind === ts.SyntaxKind.PlusToken
		) {
			const left = textOf(expression.left);
			const right = textOf(expression.right);
			if (left === undefined && right === undefined) return undefined;
			return (left ?? SLOT) + (right ?? SLOT);
		}
		return undefined;
	};
	for (const file of files) {
		if (file.endsWith('.json')) {
			collect(JSON.parse(read(file)));
			continue;
		}
		const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022);
		const visit = (child: ts.Node): void => {
			const text = textOf(child);
			if (text !== undefined) strings.add(normalised(text));
			ts.forEachChild(child, visit);
		};
		visit(source);
	}
	return [...strings];
}

/**
 * The double-quoted passages of a Markdown text's prose (outside code blocks and code spans), each
 * paragraph, list item and table row apart. A quote may hold one (`"the CSV file "…" has N
 * problems"`): a `"` opens after a space or a bracket and before a non-space, and closes after a
 * non-space and before anything but a letter or a digit.
 */
function quotedPassages(markdown: string): string[] {
	const blocks: string[] = [];
	let block: string[] = [];
	const end = () => {
		if (block.length) blocks.push(block.join(' '));
		block = [];
	};
	for (const line of proseLines(markdown)) {
		if (!line.trim() || /^\s*(#|\|)/.test(line)) {
			end();
			if (line.trim()) blocks.push(line);
		} else {
			if (/^\s*(?:[-*]|\d+\.) /.test(line)) end();
			block.push(line);
		}
	}
	end();
	const quotes: string[] = [];
	for (const raw of blocks) {
		const prose = raw.replace(/`[^`]*`/g, '`·`').replace(/\s+/g, ' ');
		const open: number[] = [];
		for (let at = 0; at < prose.length; at++) {
			if (prose[at] !== '"') continue;
			const before = prose[at - 1] ?? ' ';
			const after = prose[at + 1] ?? ' ';
			if (open.length && !/\s/.test(before) && !/[\p{L}\p{N}]/u.test(after)) {
				const start = open.pop() as number;
				if (!open.length) quotes.push(prose.slice(start + 1, at));
			} else if (/[\s([|]/.test(before) && !/\s/.test(after)) open.push(at);
		}
	}
	return quotes;
}

/**
 * How many of the quote's letters the code string holds in place, or -1 when it does not hold the
 * quote: the quote's ANY stands for any run of the string, and each SLOT of the string for up to
 * MAX_SLOT characters of the quote. Both are normalised.
 */
function lettersMatched(quote: string[], text: string[]): number {
	const n = quote.length;
	const letter = quote.map((char) => /\p{L}/u.test(char));
	// column[i]: the most letters matched with the quote's first i characters ending before text[j].
	let column = new Int32Array(n + 1).fill(-1);
	let best = -1;
	for (let j = 0; j <= text.length; j++) {
		const next = new Int32Array(n + 1).fill(-1);
		column[0] = Math.max(column[0], 0);
		for (let i = 0; i <= n; i++) {
			const here = column[i];
			if (here < 0) continue;
			if (i === n) {
				best = Math.max(best, here);
				continue;
			}
			if (quote[i] === ANY) {
				column[i + 1] = Math.max(column[i + 1], here);
				if (j < text.length) next[i] = Math.max(next[i], here);
				continue;
			}
			if (j === text.length) continue;
			if (text[j] === SLOT) {
				for (let k = 0; k <= MAX_SLOT && i + k <= n; k++) next[i + k] = Math.max(next[i + k], here);
			} else if (text[j] === quote[i]) {
				next[i + 1] = Math.max(next[i + 1], here + (letter[i] ? 1 : 0));
			}
		}
		column = next;
	}
	return best;
}

/** Whether a string of the code holds the quote (see staleQuotes). */
function inCode(quote: string, strings: string[]): boolean {
	const pattern = normalised(quote).replace(/…|\.\.\.|<[^>]+>|\b[nm]\b/g, ANY);
	const letters = (pattern.match(/\p{L}/gu) ?? []).length;
	const needed = Math.min(letters, Math.max(MIN_LETTERS, Math.ceil(letters / 2)));
	const words = [...new Set(pattern.match(/\p{L}{4,}/gu) ?? [])];
	const quoteChars = [...pattern];
	return strings
		.map((text) => ({ text, shared: words.filter((word) => text.includes(word)).length }))
		.filter(({ shared }) => shared >= Math.min(2, words.length))
		.sort((a, b) => b.shared - a.shared)
		.some(({ text }) => lettersMatched(quoteChars, [...text]) >= needed);
}

/**
 * The quoted messages of a Markdown text that the shipped code does not produce.
 *
 * A quoted message is a double-quoted passage of the prose (quotedPassages) of two words or more:
 * the docs quote the node's errors, warnings, hints, notes and pages that way ("Not sent: the
 * platform kept rate limiting this run", "may exist"). One word ("blacklist", a search word) is
 * not checked, nor is code style: JSON, or a message shown whole (`Invalid "<field>" in item N:
 * …`), is no quote of the prose.
 *
 * A quote is the node's when a string of the shipped code or of the codex files (the nodes panel's
 * search words, such as "chat app") holds it, case and spacing aside. In the quote, `…`, `...`,
 * `<field>` and the words N and M stand for anything; in the code, a value put in at run time
 * stands for up to MAX_SLOT characters ("Lists Base URL", "N problems in M rows"), and at least
 * half the quote's letters (and MIN_LETTERS) must be the code's own.
 *
 * Exempt: NOT_OURS (n8n's, HTTP's and the platform's words), and the descriptions n8n gives the
 * node as an AI agent's tool (an operation's action, then " in Audience Messaging").
 */
function staleQuotes(markdown: string, strings: string[]): string[] {
	const toolDescriptions = new Set(
		node.properties
			.filter((p) => p.name === 'operation')
			.flatMap((p) => (p.options ?? []) as Array<{ action?: string }>)
			.map((option) => `${option.action} in ${node.displayName}`),
	);
	return quotedPassages(markdown).filter(
		(quote) =>
			quote.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length >= 2 &&
			!(quote in NOT_OURS) &&
			!toolDescriptions.has(quote) &&
			!inCode(quote, strings),
	);
}

/** The files whose strings a quote may be, with each doc's headings (a quote may name a section). */
const codeFiles = (...dirs: string[]) =>
	execFileSync('git', ['ls-files', ...dirs], { cwd: root, encoding: 'utf8' })
		.split('\n')
		.filter(
			(file) => /\.(ts|tsx|mjs|js)$/.test(file) || /(\.node|workflows\/.+)\.json$/.test(file),
		);
const docHeadings = ALL_DOCS.flatMap((file) =>
	headings(read(file)).map((h) => normalised(h.title)),
);
let shippedStrings: string[] | undefined;
let repositoryStrings: string[] | undefined;
/** The strings of nodes/, src/, credentials/ and the demo workflows, read once. */
const shipped = () =>
	(shippedStrings ??= [
		...codeStrings(codeFiles('nodes', 'src', 'credentials', 'demo')),
		...docHeadings,
	]);
/** Those and the strings of the tests, the sandbox and the scripts, read once. */
const repository = () =>
	(repositoryStrings ??= [...shipped(), ...codeStrings(codeFiles('test', 'scripts'))]);
const quotable = (file: string) => (USER_DOCS.includes(file) ? shipped() : repository());

describe('user docs: quoted messages', () => {
	// Drift: a message reworded in the code (or never written) while a doc goes on quoting it, such
	// as troubleshooting.md's "may exist" warning, which no code gave.
	it.each(ALL_DOCS)('%s quotes only messages the code produces', (file) => {
		const text = read(file);
		expect({ file, stale: staleQuotes(text, quotable(file)) }).toEqual({ file, stale: [] });
	});

	it('checks the quotes of the user docs, most of them against the code', () => {
		const quotes = ALL_DOCS.flatMap((file) => quotedPassages(read(file)));
		const checked = quotes.filter((quote) => !(quote in NOT_OURS) && quote.split(' ').length >= 2);
		expect(checked.length).toBeGreaterThan(40);
	});

	// The check itself: a made-up message, and a real one with a word changed, are caught; a real
	// one with its values left out (…, N, a nested quote, a number the code puts in) is not.
	it('finds a quote that no code produces, and accepts one with placeholders', () => {
		const text = [
			'| "Not sent: the moon is in the wrong phase" | Wait for the full moon. |',
			'| "Not sent: the platform kept rate limiting this batch" | Raise Max Wait. |',
			// troubleshooting.md's row before issue 49: the first quote was no code's.
			'| `status: "unknown"` ("may exist", "check the list before sending these rows again") | |',
			'',
			'The run fails with "Not sent: the platform kept rate limiting this run (HTTP 429…)", or',
			'"the CSV file "…" has N problems in M rows, the first on line …", or "The platform',
			'answered with a redirect (HTTP 302) to https://…"; n8n shows "Invalid Form Link".',
		].join('\n');
		expect(staleQuotes(text, shipped())).toEqual([
			'Not sent: the moon is in the wrong phase',
			'Not sent: the platform kept rate limiting this batch',
			'may exist',
		]);
	});

	// Drift: an exemption kept after the docs stopped quoting it (the list would grow stale).
	it('keeps no exemption that no user doc quotes', () => {
		const quoted = new Set(ALL_DOCS.flatMap((file) => quotedPassages(read(file))));
		expect(Object.keys(NOT_OURS).filter((quote) => !quoted.has(quote))).toEqual([]);
	});
});

// ------------------------------------------------------------------ values in code style

/** Every field of the nodes and credentials, collections' and fixed collections' entries included. */
function allFields(
	properties: INodeProperties[] | undefined,
	into: INodeProperties[] = [],
): INodeProperties[] {
	for (const property of properties ?? []) {
		into.push(property);
		for (const option of (property.options ?? []) as unknown as Array<Record<string, unknown>>) {
			if ('type' in option) allFields([option as unknown as INodeProperties], into);
			if (Array.isArray(option.values)) allFields(option.values as INodeProperties[], into);
		}
	}
	return into;
}
const fields = allFields([
	...node.properties,
	...trigger.properties,
	...credentials.flatMap((c) => c.properties),
]);
/** Fields with a choice of values (options, multiOptions), by the label the editor shows. */
const choices = new Map<string, Set<string>>();
for (const field of fields.filter((f) => f.type === 'options' || f.type === 'multiOptions')) {
	const values = choices.get(field.displayName) ?? new Set<string>();
	for (const option of (field.options ?? []) as Array<{ name: string; value: unknown }>) {
		values.add(String(option.value));
		values.add(option.name);
	}
	choices.set(field.displayName, values);
}

/**
 * Values a Markdown text writes for a field in code style that the node's description lacks:
 * - "**Label** (default `value`)" or "(**Label**, default `value`)", and the same with a number
 *   ("**Limit** (default 50)"): some field labelled so has that default;
 * - "Label `value`", "**Label**: `value`", "Label set to `value`" or "(operation `value`)", for a
 *   field with a choice of values (Input Data, Channel, Operation…): one of its options has that
 *   value or that name. The label must start a name ("Input Binary Field `data`" is no "Field").
 */
function unknownValues(markdown: string): string[] {
	const text = flat(markdown);
	const wrong: string[] = [];
	for (const [, label, value] of text.matchAll(
		/\*\*([^*]+)\*\*,? \(?default:? (`[^`]+`|\d[\d,]*)/g,
	)) {
		const labelled = fields.filter((field) => field.displayName === label);
		if (!labelled.length) continue;
		const wanted = value.startsWith('`') ? value.slice(1, -1) : Number(value.replace(/,/g, ''));
		if (!labelled.some((field) => field.default === wanted))
			wrong.push(`${label}: default ${value}`);
	}
	const labels = [...choices.keys(), 'operation', 'resource'].sort((a, b) => b.length - a.length);
	const named = new RegExp(
		`(?<![A-Za-z] )(?<![A-Za-z]\\*\\* )(?:\\*\\*)?\\b(${labels.map(escaped).join('|')})(?:\\*\\*)?(?::| set to| at| is)? \`([^\`]+)\``,
		'g',
	);
	for (const [, label, value] of text.matchAll(named)) {
		const values =
			choices.get(label) ?? choices.get(label[0].toUpperCase() + label.slice(1)) ?? new Set();
		if (!values.has(value)) wrong.push(`${label} \`${value}\``);
	}
	return wrong;
}

describe('user docs: values in code style', () => {
	// Drift: a default changed in the node ("Respond" -> "Reply") or an option value renamed while a
	// doc still gives the old one.
	it.each(ALL_DOCS)(
		'%s writes only defaults and option values the nodes and credentials have',
		(file) => {
			expect({ file, wrong: unknownValues(read(file)) }).toEqual({ file, wrong: [] });
		},
	);

	it('reads the defaults the docs give', () => {
		const given = [
			...flat(read('docs/operations.md')).matchAll(/\*\*[^*]+\*\*,? \(?default:? `[^`]+`/g),
		];
		expect(given.length).toBeGreaterThanOrEqual(5);
	});

	// The check itself, on a small text: a wrong default and an option value the field lacks.
	it('finds a default or an option value the node lacks', () => {
		const text = [
			'- **Key Column** (default `id`), **Message Button Label** (default `Reply`).',
			'- **Limit** (default 50), **Batch Size** (default 250).',
			'- Input Data `csv` reads a file; Input Data `csvFile` does not exist (operation `sendAndWait`).',
			'- **Input Binary Field** `data` is no Field.',
		].join('\n');
		expect(unknownValues(text)).toEqual([
			'Message Button Label: default `Reply`',
			'Batch Size: default 250',
			'Input Data `csvFile`',
		]);
	});
});

describe('demo/README.md', () => {
	// Drift: a demo renamed in its workflow file while the table keeps the old name (what the user
	// looks for in n8n's list of workflows).
	it('names each workflow of its table as n8n shows it, and every workflow of demo/workflows', () => {
		const rows = [...read('demo/README.md').matchAll(/^\| `([^`]+\.json)` \| ([^|]+?) \|/gm)];
		const named = rows.map(([, file, name]) => ({ file, name }));
		const files = execFileSync('git', ['ls-files', 'demo/workflows/*.json'], { cwd: root })
			.toString()
			.trim()
			.split('\n');
		expect(named.map(({ file }) => `demo/workflows/${file}`).sort()).toEqual(files.sort());
		for (const { file, name } of named)
			expect({ file, name }).toEqual({
				file,
				name: (JSON.parse(read(`demo/workflows/${file}`)) as { name: string }).name,
			});
	});
});

// ------------------------------------------------------------------ every doc: commands, paths, names

/** A text's code: its code spans and fenced code blocks, one entry each. */
function codeOf(markdown: string): string[] {
	const blocks = [...markdown.matchAll(/^\s*```[^\n]*\n([\s\S]*?)^\s*```/gm)].map((m) => m[1]);
	const prose = proseLines(markdown).join('\n');
	return [...blocks, ...[...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1])];
}

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
const trackedSet = new Set(tracked);
/** Whether a repository path (a file, or a folder with a tracked file) exists. */
const inRepository = (path: string) => {
	const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
	return trackedSet.has(clean) || tracked.some((file) => file.startsWith(`${clean}/`));
};
/** The jest projects jest.config.js declares (their displayName). */
const jestProjects = new Set(
	[...read('jest.config.js').matchAll(/displayName: '([\w-]+)'/g)].map((match) => match[1]),
);
/** The repository's own top folders: a code span starting with one of them names a path. */
const TOP =
	/^(?:\.\/)?((?:src|nodes|credentials|scripts|test|docs|demo|\.ci|\.github)\/[\w./@+-]*)$/;

/**
 * What a Markdown text's code names that the repository lacks: an npm script (`npm run x`, `npm
 * start`, `npm test`), a script or test file run by `node`, a jest project (`--selectProjects`) or
 * a path of the repository (a code span such as `src/csv/header.ts`; one with a placeholder, `<…>`
 * or `*`, is not read).
 */
function unknownCommands(markdown: string, seen: string[] = []): string[] {
	const wrong: string[] = [];
	for (const code of codeOf(markdown)) {
		for (const [, script] of code.matchAll(/\bnpm run ([\w:.-]+)/g))
			if (!(script in pkg.scripts)) wrong.push(`npm run ${script}`);
		for (const [, script] of code.matchAll(/\bnpm (start|test)\b/g))
			if (!(script in pkg.scripts)) wrong.push(`npm ${script}`);
		for (const [, file] of code.matchAll(/\bnode ((?:scripts|test|demo)\/[\w./-]+)/g))
			if (!trackedSet.has(file)) wrong.push(`node ${file}`);
		for (const [, names] of code.matchAll(/--selectProjects((?: [a-z0-9]+)+)/g))
			for (const name of names.trim().split(' '))
				if (!jestProjects.has(name)) wrong.push(`--selectProjects ${name}`);
		const path = TOP.exec(code.trim())?.[1];
		if (path && !inRepository(path)) wrong.push(path);
		if (/\bnpm (run|start|test)\b|\bnode (scripts|test)\/|--selectProjects/.test(code) || path)
			seen.push(code);
	}
	return wrong;
}

/** The workflows of demo/workflows by the key n8n's name starts with ("Demo 7", "Recipe 2"). */
const workflowNames = new Map(
	tracked
		.filter((file) => /^demo\/workflows\/.+\.json$/.test(file))
		.map((file) => (JSON.parse(read(file)) as { name: string }).name)
		.map((name) => [name.split(' · ')[0], name] as const),
);

/**
 * The demos and recipes a Markdown text names that demo/workflows lacks: "Demo 7" or "Recipe 2"
 * must be a workflow, and "Demo 7 · <title>", when given, its name as n8n shows it.
 */
function unknownWorkflows(markdown: string, seen: string[] = []): string[] {
	const wrong: string[] = [];
	const text = flat(markdown).replace(/\*\*/g, '');
	for (const [, key, words] of text.matchAll(
		/\b((?:Demo|Recipe) \d+[a-z]?)\b(?: · ((?:(?!(?:Demo|Recipe) \d)[^|"`\]*_])+))?/g,
	)) {
		const title = workflowNames.get(key)?.slice(key.length + 3);
		// The words may run on into the sentence: the title, or a short form up to a comma or colon.
		const short = words?.split(/[,.:;]/)[0].trim();
		seen.push(key);
		if (title === undefined) wrong.push(key);
		else if (words !== undefined && !words.startsWith(title) && !(short && title.startsWith(short)))
			wrong.push(`${key} · ${short}`);
	}
	return wrong;
}

/** Every label the editor shows for an operation: its fields, their options and entries. */
function labelsShownWithin(resource: string, operation: string): Set<string> {
	const shown = (property: INodeProperties) => {
		const show = property.displayOptions?.show;
		return (
			(!show?.resource || show.resource.includes(resource)) &&
			(!show?.operation || show.operation.includes(operation))
		);
	};
	return labelsOf(node.properties.filter(shown));
}

/**
 * "Resource › Operation › Label" where the operation does not show that label (a field or option
 * renamed, or moved to another operation). The capture may run on into the sentence, so a label
 * that starts it is the one meant.
 */
function unknownFieldPaths(markdown: string, seen: string[] = []): string[] {
	const text = flat(markdown).replace(/\*\*/g, '');
	const values = new Map(resources.map((r) => [r.name, r.value]));
	const wrong: string[] = [];
	const names = resources.map((r) => r.name).sort((a, b) => b.length - a.length);
	const path = new RegExp(`\\b(${names.join('|')}) › ([^›]{1,40}?) › ([A-Z][^›]{0,60})`, 'g');
	for (const [, resource, operationName, rest] of text.matchAll(path)) {
		const operation = node.properties
			.filter(
				(p) =>
					p.name === 'operation' &&
					p.displayOptions?.show?.resource?.includes(values.get(resource)),
			)
			.flatMap((p) => (p.options ?? []) as Array<{ name: string; value: string }>)
			.find((option) => option.name === operationName.trim());
		if (!operation) continue; // "Resource › Operation" itself is checked above
		seen.push(rest);
		const labels = [...labelsShownWithin(values.get(resource) as string, operation.value)];
		if (!labels.some((label) => new RegExp(`^${escaped(label)}(?![\\w(])`).test(rest)))
			wrong.push(`${resource} › ${operationName} › ${rest.split(/[.,:;)]/)[0]}`);
	}
	return wrong;
}

describe('every doc: commands, paths, demos and field paths', () => {
	// Drift: `npm run bench:csv` after the script was renamed, a test file moved, a jest project
	// renamed, a source file split ("src/csv/scan.ts" after it became two files).
	it.each(ALL_DOCS)('%s names only npm scripts, files and jest projects that exist', (file) => {
		expect({ file, wrong: unknownCommands(read(file)) }).toEqual({ file, wrong: [] });
	});

	// Drift: "Demo 7 · CSV check" after n8n's name became another (what a user looks for), or a demo
	// removed while a doc still sends users to it.
	it.each(ALL_DOCS)('%s names only demos and recipes that exist, as n8n shows them', (file) => {
		expect({ file, wrong: unknownWorkflows(read(file)) }).toEqual({ file, wrong: [] });
	});

	// Drift: "Message › Send › Options › Rows per Request", a field renamed or moved.
	it.each(ALL_DOCS)(
		'%s names only fields an operation shows in "Resource › Operation › Field"',
		(file) => {
			expect({ file, wrong: unknownFieldPaths(read(file)) }).toEqual({ file, wrong: [] });
		},
	);

	// Drift: a benchmark added to `npm run bench` while benchmarks.md goes on listing the old ones
	// ("four parts" when it ran six).
	it('docs/benchmarks.md names every part `npm run bench` runs, and counts them right', () => {
		const parts = [...pkg.scripts.bench.matchAll(/(test\/bench\/[\w.-]+\.tsx)/g)].map((m) => m[1]);
		const intro = section(read('docs/benchmarks.md'), 'Method and figures').trim().split('\n\n')[0];
		const counted = /in (\w+) parts/.exec(intro)?.[1];
		const words = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
		expect(words.indexOf(counted ?? '')).toBe(parts.length);
		expect([...new Set(intro.match(/test\/bench\/[\w.-]+\.tsx/g))].sort()).toEqual(parts.sort());
	});

	it('reads the commands, paths, demos and field paths of the docs', () => {
		const seen = { commands: [] as string[], workflows: [] as string[], fields: [] as string[] };
		for (const file of ALL_DOCS) {
			unknownCommands(read(file), seen.commands);
			unknownWorkflows(read(file), seen.workflows);
			unknownFieldPaths(read(file), seen.fields);
		}
		expect(seen.commands.length).toBeGreaterThan(100);
		expect(new Set(seen.workflows).size).toBe(workflowNames.size);
		expect(seen.fields.length).toBeGreaterThanOrEqual(4);
	});

	// The checks themselves, on a small text.
	it('finds a missing script, file, project, demo or field', () => {
		const text = [
			'Run `npm run bench:csv`, then `npm run bench` and `npm test`; `node scripts/nope.mjs`.',
			'```bash',
			'npx jest --selectProjects unit nodez',
			'```',
			'See `src/csv/nothing.ts` and `src/csv/`, `test/<name>.tsx`.',
			'Open Demo 7 · CSV check, Demo 12, then Demo 8 · Ask a person: send a message, and Recipe 2.',
			'Set Message › Send › Rows per Request, or Message › Send › From.',
		].join('\n');
		expect(unknownCommands(text)).toEqual([
			'--selectProjects nodez',
			'npm run bench:csv',
			'node scripts/nope.mjs',
			'src/csv/nothing.ts',
		]);
		expect(unknownWorkflows(text)).toEqual(['Demo 7 · CSV check', 'Demo 12']);
		expect(unknownFieldPaths(text)).toEqual(['Message › Send › Rows per Request']);
	});
});

// ------------------------------------------------------------------ every doc: bounds

/**
 * Every number the shipped code holds: its numeric literals, products and sums of them (`5 * 1024
 * * 1024`), and the bounds of its patterns (`{16,128}`).
 */
function codeNumbers(...dirs: string[]): Set<number> {
	const numbers = new Set<number>();
	const valueOf = (expression: ts.Node): number | undefined => {
		if (ts.isNumericLiteral(expression)) return Number(expression.text.replace(/_/g, ''));
		if (ts.isParenthesizedExpression(expression)) return valueOf(expression.expression);
		if (
			ts.isPrefixUnaryExpression(expression) &&
			expression.operator === ts.SyntaxKind.MinusToken
		) {
			const operand = valueOf(expression.operand);
			return operand === undefined ? undefined : -operand;
		}
		if (ts.isBinaryExpression(expression)) {
			const [left, right] = [valueOf(expression.left), valueOf(expression.right)];
			if (left === undefined || right === undefined) return undefined;
			const kind = expression.operatorToken.kind;
			if (kind === ts.SyntaxKind.AsteriskToken) return left * right;
			if (kind === ts.SyntaxKind.SlashToken) return left / right;
			if (kind === ts.SyntaxKind.PlusToken) return left + right;
			if (kind === ts.SyntaxKind.AsteriskAsteriskToken) return left ** right;
		}
		return undefined;
	};
	for (const file of codeFiles(...dirs).filter((f) => /\.tsx?$/.test(f))) {
		const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.ES2022);
		const visit = (child: ts.Node): void => {
			const value = valueOf(child);
			if (value !== undefined) numbers.add(value);
			if (ts.isRegularExpressionLiteral(child))
				for (const [, low, high] of child.text.matchAll(/\{(\d+),(\d+)?\}/g)) {
					numbers.add(Number(low));
					if (high) numbers.add(Number(high));
				}
			ts.forEachChild(child, visit);
		};
		visit(source);
	}
	return numbers;
}
const COUNTS =
	'characters|letters|digits|values|messages|pages|rows|passes|buttons|recipients|items';
/** A unit's factors to what the code may count in: bytes, milliseconds. */
const FACTORS: Record<string, number[]> = {
	KB: [1024],
	MB: [1024 ** 2],
	GB: [1024 ** 3],
	s: [1, 1000],
	seconds: [1, 1000],
	minutes: [1, 60, 60_000],
};
const number = (text: string) => Number(text.replace(/,/g, '').replace('−', '-'));

/**
 * The bounds a Markdown text states that the code does not hold: "at most N <unit>", "up to N
 * <unit>" and "A to B <unit>" for a count (characters, values, pages…) or a size (KB, MB), each
 * number a number of the shipped code (a size in bytes); and "**Label** (…)" for a number field:
 * its "A to B" and "at most B" the field's own bounds.
 */
function unknownBounds(markdown: string, numbers: Set<number>, seen: string[] = []): string[] {
	const text = flat(markdown);
	const wrong: string[] = [];
	const holds = (value: number, unit: string) =>
		(FACTORS[unit] ?? [1]).some((factor) => numbers.has(value * factor));
	// A time range ("15 to 30 s") is measured or derived, so only a time's "at most" is read.
	const bound = new RegExp(
		`\\b(?:(?:at most|up to) (\\d[\\d,]*) (${COUNTS}|KB|MB|GB|s|seconds|minutes)|(\\d[\\d,]*) to (\\d[\\d,]*) (${COUNTS}|KB|MB|GB))\\b`,
		'g',
	);
	for (const [claim, most, mostUnit, low, high, rangeUnit] of text.matchAll(bound)) {
		seen.push(claim);
		const values = most ? [number(most)] : [number(low), number(high)];
		if (!values.every((value) => holds(value, mostUnit ?? rangeUnit))) wrong.push(claim);
	}
	const numberFields = fields.filter((field) => field.type === 'number');
	for (const [claim, label, inner] of text.matchAll(/\*\*([^*]+)\*\* \(([^)]*)\)/g)) {
		const labelled = numberFields.filter((field) => field.displayName === label);
		if (!labelled.length) continue;
		const range = /(−?-?\d[\d,]*) to (−?-?\d[\d,]*)/.exec(inner);
		const most = /at most (\d[\d,]*)/.exec(inner);
		if (!range && !most) continue;
		seen.push(claim);
		const fits = labelled.some(({ typeOptions }) =>
			range
				? typeOptions?.minValue === number(range[1]) && typeOptions?.maxValue === number(range[2])
				: typeOptions?.maxValue === number((most as RegExpExecArray)[1]),
		);
		if (!fits) wrong.push(claim);
	}
	return wrong;
}

describe('every doc: bounds', () => {
	const shippedNumbers = codeNumbers('nodes', 'src', 'credentials');
	/** The sandbox's README states the sandbox's bounds; the other docs, the package's. */
	const numbersFor = (file: string) =>
		file.startsWith('test/sandbox/') ? codeNumbers('test/sandbox') : shippedNumbers;

	// Drift: the CSV cap raised to 300 MB, a title limit or a batch size's bounds changed in the
	// code, while a doc (any of them) keeps the old figure.
	it.each(ALL_DOCS)('%s states only bounds the code holds', (file) => {
		expect({ file, wrong: unknownBounds(read(file), numbersFor(file)) }).toEqual({
			file,
			wrong: [],
		});
	});

	it('reads the bounds of the docs', () => {
		const seen: string[] = [];
		for (const file of ALL_DOCS) unknownBounds(read(file), numbersFor(file), seen);
		expect(seen.length).toBeGreaterThan(40);
		expect(seen.filter((claim) => claim.startsWith('**')).length).toBeGreaterThan(5);
	});

	// The check itself: each bound below is one the code does not hold.
	it('finds a size, a count or a field bound the code lacks', () => {
		const text = [
			'A CSV file up to 300 MB (the platform: up to 200 MB); titles of at most 21 characters.',
			'**Batch Size** (default 500, 1 to 9,999) rows; **Parallel Requests** (default 10, at most',
			'51); **Latitude** (−90 to 90); a wait of at most 86,401 s; 7 to 15 digits.',
		].join('\n');
		expect(unknownBounds(text, shippedNumbers)).toEqual([
			'up to 300 MB',
			'at most 21 characters',
			'at most 86,401 s',
			'**Batch Size** (default 500, 1 to 9,999)',
			'**Parallel Requests** (default 10, at most 51)',
		]);
	});
});

describe('CHANGELOG.md', () => {
	// The next release's section: "## Unreleased", or before the first release "## 0.1.0" (undated).
	const heading =
		/^## (Unreleased|\d+\.\d+\.\d+)$/m.exec(read('CHANGELOG.md'))?.[1] ?? 'Unreleased';
	const release = section(read('CHANGELOG.md'), heading);
	/** The section's sentences: each list entry apart, split after . ! or ? and a space. */
	const sentences = release
		.split(/\n(?=- |#)/)
		.flatMap((entry) => flat(entry.replace(/^- /, '')).split(/(?<=[.!?])\s+/))
		.filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
	const words = (sentence: string) =>
		sentence.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

	// Drift: the release notes grow back into a log of the repository's history (a 33-word average,
	// 51 sentences over 40 before 0.1.0), which a user reading what they get does not need.
	it('tells what the release gives in sentences of at most 35 words, without issue numbers or hashes', () => {
		expect(sentences.length).toBeGreaterThan(10);
		expect(sentences.filter((sentence) => words(sentence) > 35)).toEqual([]);
		expect(release).not.toMatch(/\bissue \d|\b[0-9a-f]{7,40}\b/i);
	});
});
