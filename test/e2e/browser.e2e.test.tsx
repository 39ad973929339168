/**
 * The editor as a user meets it: `npm start`'s stack, Debian's Chromium driven by
 * playwright-core. Logs in with the documented owner, opens a demo workflow, runs it with the
 * Execute button, opens a node's output and saves the screenshot the README shows.
 */
import { mkdirSync } from 'fs';
import { mkdtemp, rm } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

import { atMostOneFileBeside } from '../helpers/machine-share';
import { logIn, startStack, stopStack } from './demo-process';
import type { RunningStack } from './demo-process';
import { ensureRuntime, freePort, repoRoot } from './n8n-harness';

jest.setTimeout(300_000);
// Chromium parsing n8n's editor and n8n beside two other files took over a minute a page.
atMostOneFileBeside();

/**
 * The README's pictures are rewritten only when asked (`npm run screenshots`, which sets
 * UPDATE_SCREENSHOTS=1); any other run saves them in a temporary folder, so `npm test` leaves the
 * work tree as it found it.
 */
const SHOTS =
	process.env.UPDATE_SCREENSHOTS === '1'
		? join(repoRoot, 'docs')
		: join(tmpdir(), 'am-screenshots');
mkdirSync(SHOTS, { recursive: true });
export const SCREENSHOT = join(SHOTS, 'demo-blacklist-check.png');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WORKFLOW_ID = 'amDemoBlacklst1';
const NODE = 'Check Blacklist';

let dir: string;
let stack: RunningStack | undefined;
let browser: Browser | undefined;
let page: Page;

beforeAll(async () => {
	await ensureRuntime();
	dir = await mkdtemp(join(tmpdir(), 'am-e2e-browser-'));
	stack = await startStack({
		DEMO_DIR: dir,
		N8N_PORT: String(await freePort()),
		SANDBOX_PORT: String(await freePort()),
	});
	browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

afterAll(async () => {
	await browser?.close();
	if (stack) await stopStack(stack);
	if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * Opens a workflow in the editor as a link inside it does: through the editor's own router, so the
 * page keeps the editor's code (loading the address again parses it anew: about 8 s a page on the
 * 2-core machine); by its address when the page has no editor yet or the route did not change.
 */
async function openWorkflow(id: string): Promise<void> {
	const path = `/workflow/${id}`;
	const routed = await page
		.evaluate(async (to) => {
			// In the page (this file's types have no DOM).
			const win = globalThis as unknown as {
				document: { querySelector(selector: string): unknown };
				location: { pathname: string };
			};
			type Router = { push(to: string): Promise<unknown> };
			const app = win.document.querySelector('#app') as {
				__vue_app__?: { config: { globalProperties: { $router?: Router } } };
			} | null;
			const router = app?.__vue_app__?.config.globalProperties.$router;
			if (!router) return false;
			await router.push(to);
			return win.location.pathname.endsWith(to);
		}, path)
		.catch(() => false);
	if (!routed) await page.goto(`${stack!.ready.editorUrl}${path}`);
}

it('logs in with the documented owner and lands on the workflows', async () => {
	const { editorUrl, login } = stack!.ready;
	await page.goto(`${editorUrl}/signin`);
	await page.fill('input[name=emailOrLdapLoginId]', login.email);
	await page.fill('input[name=password]', login.password);
	await page.click('[data-test-id=form-submit-button]');
	await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 60_000 });
	await page.getByText('Demo 4 · Blacklist').first().waitFor({ state: 'visible', timeout: 30_000 });
});

it('opens a demo workflow, runs it with Execute workflow, and shows the node output', async () => {
	const { editorUrl } = stack!.ready;
	await openWorkflow(WORKFLOW_ID);
	const execute = page.locator('[data-test-id=execute-workflow-button]');
	await execute.waitFor({ timeout: 60_000 });
	await execute.click();
	const check = page.locator('[data-test-id=canvas-node]').filter({ hasText: NODE });
	await check.locator('[data-test-id=canvas-node-status-success]').waitFor({ timeout: 60_000 });
	await check.dblclick();
	const output = page.locator('[data-test-id=output-panel]');
	await output.waitFor({ timeout: 30_000 });
	await output.getByText('2 items').first().waitFor({ state: 'visible', timeout: 10_000 });
	await output.getByText('+447700900123').first().waitFor({ state: 'visible', timeout: 10_000 });
	await page.screenshot({ path: SCREENSHOT, animations: 'disabled' });

	// The same run, as n8n recorded it: the editor's Execute button ran the real nodes.
	const session = await logIn(stack!.ready);
	const executions = (await (
		await fetch(
			`${editorUrl}/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }))}`,
			{ headers: session.headers },
		)
	).json()) as {
		data: { results: Array<{ status: string; mode: string }> };
	};
	expect(executions.data.results.map((e) => [e.mode, e.status])).toEqual([['manual', 'success']]);
});

/**
 * Demo 8 as the person asked meets it: a phone's browser opens the approve link of the message the
 * sandbox received, sees the confirm page (in n8n's sandbox CSP), presses its one button, and the
 * execution goes on with the approval.
 */
it("Demo 8: the approve link opens the confirm page in a phone's browser, and its button answers", async () => {
	const { editorUrl, sandbox } = stack!.ready;
	const session = await logIn(stack!.ready);
	const started = await fetch(`${editorUrl}/rest/workflows/amDemoAskPerson1/run`, {
		method: 'POST',
		headers: session.headers,
		body: JSON.stringify({
			triggerToStartFrom: { name: 'When clicking ‘Execute workflow’' },
		}),
	});
	expect(started.status).toBe(200);
	const executionId = String(
		((await started.json()) as { data: { executionId: string } }).data.executionId,
	);
	const execution = async () =>
		(
			(await (
				await fetch(`${editorUrl}/rest/executions/${executionId}`, { headers: session.headers })
			).json()) as { data: { status: string; data: string } }
		).data;
	const until = async (status: string) => {
		const deadline = Date.now() + 120_000;
		while ((await execution()).status !== status) {
			if (Date.now() > deadline) throw new Error(`execution ${executionId} is not ${status}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	};
	await until('waiting');
	const state = (await (await fetch(`${sandbox.url}/__sandbox/state`)).json()) as {
		chatapp: { messages: Array<{ request: { body?: string } }> };
	};
	const approve = [
		...(state.chatapp.messages.at(-1)?.request.body ?? '').matchAll(/https?:\/\/\S+/g),
	]
		.map((match) => match[0])
		.find(
			(link) => link.includes(`/webhook-waiting/${executionId}/`) && link.includes('approved=true'),
		);
	expect(approve).toBeDefined();
	const phone = await browser!.newContext({
		userAgent:
			'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
		viewport: { width: 390, height: 844 },
	});
	try {
		const tab = await phone.newPage();
		await tab.goto(approve!);
		await tab.getByRole('heading', { name: '✓ Approve?' }).waitFor({ timeout: 30_000 });
		await tab.getByText('shall we publish the spring campaign').waitFor();
		expect((await execution()).status).toBe('waiting');
		await tab.getByRole('button', { name: '✓ Approve' }).click();
		await tab.getByText('Got it, thanks').waitFor({ timeout: 30_000 });
	} finally {
		await phone.close();
	}
	await until('success');
	expect((await execution()).data).toContain('approved');
});

/**
 * The panels the editor polish changed, as a user sees them, each saved as a screenshot the
 * README shows (docs/editor-*.png). Each test waits for what it asserts, then takes its picture.
 */
describe('the editor panels', () => {
	const shot = (name: string) => join(SHOTS, `editor-${name}.png`);
	let panelsWorkflowId: string;

	beforeAll(async () => {
		const node = (name: string, x: number, parameters: Record<string, unknown>) => ({
			id: `panel-${x}`,
			name,
			type: 'n8n-nodes-audience-messaging.audienceMessaging',
			typeVersion: 1,
			position: [x, 0],
			parameters,
			credentials: {
				audienceMessagingApi: { id: 'amDemoSandboxCrd', name: 'Audience Messaging (sandbox)' },
			},
		});
		const session = await logIn(stack!.ready);
		const response = await fetch(`${stack!.ready.editorUrl}/rest/workflows`, {
			method: 'POST',
			headers: session.headers,
			body: JSON.stringify({
				name: 'Editor panels',
				nodes: [
					node('Message Templates', 0, {
						resource: 'messageTemplate',
						operation: 'getMany',
						senderId: 'snd_demo',
					}),
					node('Get List', 300, {
						resource: 'list',
						operation: 'get',
						listId: { __rl: true, mode: 'id', value: '1' },
					}),
					node('Send Contact Card', 600, {
						resource: 'message',
						operation: 'send',
						messageType: 'contacts',
						from: '+1 555 010 0100',
						to: '+33 6 12 34 56 78',
						contacts: { contact: [{ formattedName: '', firstName: 'Ada', lastName: 'Lovelace' }] },
					}),
				],
				connections: {},
				settings: {},
			}),
		});
		expect(response.status).toBe(200);
		panelsWorkflowId = ((await response.json()) as { data: { id: string } }).data.id;
	});

	/** Opens a node of the panels workflow (closing the one open) and waits for its parameters. */
	async function openNode(name: string) {
		const ndv = page.locator('[data-test-id=ndv]');
		if (new URL(page.url()).pathname.endsWith(`/workflow/${panelsWorkflowId}`)) {
			if (await ndv.isVisible()) {
				await page.keyboard.press('Escape');
				await ndv.waitFor({ state: 'hidden', timeout: 30_000 });
			}
		} else await openWorkflow(panelsWorkflowId);
		const node = page.locator('[data-test-id=canvas-node]').filter({ hasText: name });
		await node.waitFor({ timeout: 60_000 });
		await node.dblclick();
		const parameters = page.locator('[data-test-id=node-parameters]');
		await parameters.waitFor({ timeout: 30_000 });
		// The parameters show once n8n has the credential.
		await page
			.locator('[data-test-id=ndv] [data-test-id=node-credentials-select]')
			.waitFor({ state: 'visible', timeout: 30_000 });
		return parameters;
	}

	it('finds the node by "blacklist" in the nodes panel (codex aliases)', async () => {
		await openWorkflow(WORKFLOW_ID);
		await page.locator('[data-test-id=canvas-node]').first().waitFor({ timeout: 60_000 });
		await page.locator('[data-test-id=node-creator-plus-button]').click();
		const creator = page.locator('[data-test-id=node-creator]');
		await creator.locator('[data-test-id=node-creator-search-bar]').waitFor({ timeout: 30_000 });
		await page.keyboard.type('blacklist');
		await creator
			.getByText('Audience Messaging', { exact: true })
			.first()
			.waitFor({ state: 'visible', timeout: 30_000 });
		await page.screenshot({ path: shot('nodes-panel'), animations: 'disabled' });
	});

	it('names the message type of each Send node on the canvas (subtitles), never its recipient', async () => {
		await openWorkflow('amDemoChatApp01');
		const send = page.locator('[data-test-id=canvas-node]').filter({ hasText: 'Send Image' });
		await send.getByText('send: image message').waitFor({ state: 'visible', timeout: 60_000 });
		await page
			.locator('[data-test-id=canvas-node]')
			.filter({ hasText: 'Send Text' })
			.getByText('send: text message')
			.waitFor({ state: 'visible' });
		await page.screenshot({ path: shot('send-subtitles'), animations: 'disabled' });
	});

	it('shows the AI agent demo: the node as the agent tool beside its model', async () => {
		await openWorkflow('amDemoAgentTool1');
		await page
			.locator('[data-test-id=canvas-node]')
			.filter({ hasText: 'Check Blacklist' })
			.waitFor({ state: 'visible', timeout: 60_000 });
		await page
			.locator('[data-test-id=canvas-node]')
			.filter({ hasText: 'AI Agent' })
			.waitFor({ state: 'visible' });
		await page
			.locator('[data-test-id=canvas-node]')
			.filter({ hasText: 'Scripted Model' })
			.waitFor({ state: 'visible' });
		await page.screenshot({ path: shot('agent-tool'), animations: 'disabled' });
	});

	it('shows Message Template › Get Many with its scope notice, Return All and Limit', async () => {
		const parameters = await openNode('Message Templates');
		await parameters
			.getByText('Give a Sender ID, a Business Account ID, or both')
			.waitFor({ state: 'visible' });
		await parameters
			.locator('[data-test-id=parameter-input-returnAll]')
			.waitFor({ state: 'visible' });
		await parameters.locator('[data-test-id=parameter-input-limit]').waitFor({ state: 'visible' });
		await page.screenshot({ path: shot('message-template'), animations: 'disabled' });
	});

	it('shows Simplify on List › Get, on by default', async () => {
		const parameters = await openNode('Get List');
		const simplify = parameters.locator('[data-test-id=parameter-input-simplify]');
		await simplify.waitFor({ state: 'visible' });
		expect(
			await simplify.locator('.is-checked, [aria-checked=true], input:checked').count(),
		).toBeGreaterThan(0);
		await page.screenshot({ path: shot('list-simplify'), animations: 'disabled' });
	});

	it('flags an empty Formatted Name of a contact as required', async () => {
		const parameters = await openNode('Send Contact Card');
		const formattedName = parameters.locator('[data-test-id=parameter-input-formattedName]');
		await formattedName.evaluate((element) => element.scrollIntoView({ block: 'center' }));
		// n8n's own check of a required parameter: the issue mark in the empty field (and only there).
		await formattedName
			.locator('[data-test-id=parameter-issues]')
			.waitFor({ state: 'visible', timeout: 30_000 });
		expect(
			await parameters
				.locator('[data-test-id=parameter-input-firstName] [data-test-id=parameter-issues]')
				.count(),
		).toBe(0);
		await page.screenshot({ path: shot('contacts'), animations: 'disabled' });
	});
});
