/**
 * Once per jest run with e2e tests in it: n8n installed (test/n8n-runtime/install.mjs), then the
 * template user folder every package e2e file copies (makeTemplateFolder), named to the test
 * files in AM_E2E_TEMPLATE. global-teardown.tsx removes it.
 */
import { mkdtemp } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';

import { ensureRuntime, makeTemplateFolder, watchTempFolder } from './n8n-harness';
import { TEMPLATE_CREDENTIALS } from './package-setup';

export default async function globalSetup(): Promise<void> {
	await ensureRuntime();
	const root = await mkdtemp(join(tmpdir(), 'n8n-e2e-template-'));
	watchTempFolder(root);
	await makeTemplateFolder(root, TEMPLATE_CREDENTIALS);
	process.env.AM_E2E_TEMPLATE = root;
}
