/**
 * The first ten minutes, as the README promises them: the no-account trial near the top with
 * commands that exist, the recipes it points to, and the stand-in account `npm start` puts in the
 * sandbox agreeing with the recipes' Settings. Each check names, in a comment, the drift it
 * catches.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const readme = read('README.md');
const recipes = read('docs/recipes.md');
const pkg = JSON.parse(read('package.json')) as {
	name: string;
	repository: { url: string };
	scripts: Record<string, string>;
};

interface Workflow {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
}
const workflowsDir = join(root, 'demo', 'workflows');
const workflows = readdirSync(workflowsDir)
	.filter((file) => file.endsWith('.json'))
	.map((file) => ({
		file,
		key: file.split('-')[0],
		workflow: JSON.parse(read(join('demo', 'workflows', file))) as Workflow,
	}));
const recipeFiles = workflows.filter(({ key }) => /^r\d+$/.test(key));

/** The values a workflow's Settings node (Edit Fields) sets, by name. */
function settingsOf(workflow: Workflow): Record<string, unknown> {
	const node = workflow.nodes.find((candidate) => candidate.name === 'Settings');
	const assignments = (
		node?.parameters.assignments as { assignments?: Array<{ name: string; value: unknown }> }
	)?.assignments;
	return Object.fromEntries((assignments ?? []).map(({ name, value }) => [name, value]));
}

describe('README: try it without an account', () => {
	const lines = readme.split('\n');
	const heading = lines.indexOf('## Try it without an account');

	// Drift: the no-account trial sinks under the reference again (it was on line 287 of 299).
	it('comes within the first 40 lines, with the clone, install and start commands', () => {
		expect(heading).toBeGreaterThan(0);
		const start = lines.findIndex((line) => /^npm start\b/.test(line));
		expect(start).toBeGreaterThan(heading);
		expect(start).toBeLessThan(40);
		expect(lines.slice(heading, start)).toContain('npm ci      # about a minute');
	});

	// Drift: the person who came to install the node scrolls past the trial's prerequisites.
	it('is preceded, within the first 25 lines, by how to install the package in n8n', () => {
		const install = lines.indexOf('## Install in your n8n');
		expect(install).toBeGreaterThan(0);
		expect(install).toBeLessThan(heading);
		const section = lines.slice(install, heading).join(' ');
		// The section ends where the trial begins.
		expect(heading).toBeLessThan(25);
		expect(section).toContain('Settings → Community Nodes');
		expect(section).toContain(`\`${pkg.name}\``);
		expect(section).toMatch(
			/\]\(https:\/\/docs\.n8n\.io\/integrations\/community-nodes\/installation\/\)/,
		);
	});

	// Drift: the trial writes gigabytes outside the clone without saying where.
	it('names the cache folder the first start fills, its size and how to remove it', () => {
		const trial = lines.slice(heading, heading + 30).join('\n');
		expect(trial).toContain('`~/.cache/n8n-nodes-audience-messaging/`');
		expect(trial).toMatch(/about \d+(\.\d)? GB\) into/);
		expect(trial).toContain('`rm -rf ~/.cache/n8n-nodes-audience-messaging`');
	});

	// Drift: the repository moves and the README's clone command points at the old one.
	it('clones the repository package.json names, into the folder it then enters', () => {
		const clone = lines.find((line) => line.startsWith('git clone '));
		expect(clone).toBe(`git clone ${pkg.repository.url.replace(/^git\+/, '')}`);
		const folder = /\/([^/]+?)(\.git)?$/.exec(clone!)![1];
		expect(lines).toContain(`cd ${folder}`);
	});

	// Drift: the README names a demo by a name or key the demo files no longer have.
	it('names demos that exist, and `npm run demo` keys that run', () => {
		expect(pkg.scripts.demo).toBe('node scripts/run-demo.mjs');
		for (const [, title] of readme.matchAll(/\*(Demo \d+[a-z]? · [^*]+)\*/g))
			expect(workflows.map(({ workflow }) => workflow.name.split(':')[0])).toContain(title);
		for (const [, key] of `${readme}\n${recipes}`.matchAll(/npm run demo -- (\w+)/g))
			expect(workflows.map((entry) => entry.key)).toContain(key);
	});
});

describe('the recipes', () => {
	// Drift: a recipe file added or removed without docs/recipes.md following.
	it('are each a workflow file that docs/recipes.md names, with a manual trigger', () => {
		expect(recipeFiles.length).toBe([...recipes.matchAll(/^## Recipe \d+:/gm)].length);
		expect(recipeFiles.length).toBeGreaterThanOrEqual(5);
		for (const { file, workflow } of recipeFiles) {
			expect(recipes).toContain(`File: \`demo/workflows/${file}\``);
			expect(workflow.name).toMatch(/^Recipe \d+ · /);
			expect(workflow.nodes.map((node) => node.type)).toContain('n8n-nodes-base.manualTrigger');
		}
	});

	// Drift: the stand-in account npm start seeds and the recipes' Settings disagree, so a recipe
	// fails in `npm start` (a sender ID, a phone number or the list's ID changed on one side).
	it("Settings hold the stand-in account's values", () => {
		// scripts/demo-account.mjs is an ES module: read in a child process.
		const account = JSON.parse(
			execFileSync(
				process.execPath,
				['-e', "import('./scripts/demo-account.mjs').then((m) => console.log(JSON.stringify(m)))"],
				{ cwd: root, encoding: 'utf8' },
			),
		) as {
			DEMO_SENDER: { id: string; address: string };
			DEMO_CUSTOMERS: Array<{ mobile: string; wroteIn: boolean }>;
			DEMO_LIST: { id: string };
		};
		const settings = Object.fromEntries(
			recipeFiles.map(({ key, workflow }) => [key, settingsOf(workflow)]),
		);
		expect(settings.r2).toMatchObject({
			listId: account.DEMO_LIST.id,
			senderPhone: account.DEMO_SENDER.address,
			senderId: account.DEMO_SENDER.id,
		});
		for (const key of ['r4', 'r5'])
			expect({ key, ...settings[key] }).toMatchObject({ key, ...settings.r2 });
		expect(settings.r3.senderPhone).toBe(account.DEMO_SENDER.address);
		const approver = account.DEMO_CUSTOMERS.find(
			({ mobile }) => mobile === settings.r3.approverPhone,
		);
		expect(approver?.wroteIn).toBe(true);
		// Recipe 2's story: someone did not write in, and comes out of Not Sent.
		expect(account.DEMO_CUSTOMERS.some(({ wroteIn }) => !wroteIn)).toBe(true);
	});

	// Drift: a recipe names a Settings field its nodes do not read (or the other way round).
	it('read every Settings field they set, and set every one they read', () => {
		for (const { file, workflow } of recipeFiles) {
			const set = Object.keys(settingsOf(workflow)).sort();
			const text = JSON.stringify(workflow.nodes.filter((node) => node.name !== 'Settings'));
			const read = [...text.matchAll(/\$(?:json|\('Settings'\)\.first\(\)\.json)\.(\w+)/g)]
				.map((match) => match[1])
				// The items' own fields: a subscriber's, Send's output, the answer's data.
				.filter(
					(name) =>
						set.includes(name) || !/^(mobile|first_name|timezone|error|status|to|data)$/.test(name),
				);
			expect({ file, read: [...new Set(read)].sort() }).toEqual({ file, read: set });
		}
	});
});

describe('the demo workflows', () => {
	// Drift: a parameter holding `{{ … }}` without n8n's leading "=" is sent as written, braces and
	// all (Demo 3 once greeted "Hello {{ $('Demo Numbers')… }}").
	it('mark every parameter that holds {{ … }} as an expression', () => {
		const literal: string[] = [];
		const visit = (where: string, value: unknown) => {
			if (typeof value === 'string') {
				if (value.includes('{{') && !value.startsWith('=')) literal.push(where);
			} else if (value && typeof value === 'object')
				for (const [key, entry] of Object.entries(value)) visit(`${where}.${key}`, entry);
		};
		for (const { file, workflow } of workflows)
			for (const node of workflow.nodes)
				if (!['n8n-nodes-base.stickyNote', 'n8n-nodes-base.code'].includes(node.type))
					visit(`${file} › ${node.name}`, node.parameters);
		expect(literal).toEqual([]);
	});
});
