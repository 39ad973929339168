/**
 * The editor as a user meets it: `npm start`'s stack, Debian's Chromium driven by
 * playwright-core. Logs in with the documented owner, opens a demo workflow, runs it with the
 * Execute button, opens a node's output and saves the screenshot the README shows.
 */
import { mkdtemp, rm } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

import { logIn, startStack, stopStack } from './demo-process';
import type { RunningStack } from './demo-process';
import { ensureRuntime, freePort, repoRoot } from './n8n-harness';

jest.setTimeout(300_000);

export const SCREENSHOT = join(repoRoot, 'docs', 'demo-blacklist-check.png');
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
	stack = await startStack({ DEMO_DIR: dir, N8N_PORT: String(await freePort()), SANDBOX_PORT: String(await freePort()) });
	browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
	});
	page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

afterAll(async () => {
	await browser?.close();
	if (stack) await stopStack(stack);
	if (dir) await rm(dir, { recursive: true, force: true });
});

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
	await page.goto(`${editorUrl}/workflow/${WORKFLOW_ID}`);
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
	await page.screenshot({ path: SCREENSHOT });

	// The same run, as n8n recorded it: the editor's Execute button ran the real nodes.
	const session = await logIn(stack!.ready);
	const executions = (await (await fetch(`${editorUrl}/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }))}`, { headers: session.headers })).json()) as {
		data: { results: Array<{ status: string; mode: string }> };
	};
	expect(executions.data.results.map((e) => [e.mode, e.status])).toEqual([['manual', 'success']]);
});
