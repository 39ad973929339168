/**
 * Message › Send › Skip Messages Sent Before in a real n8n (regular mode, SQLite), the package
 * installed from its tarball, against the sandbox: the scenarios of send-once-scenarios.tsx.
 */
import { publishWorkflow, setUpOwner, startN8n } from './n8n-harness';
import type { RunningN8n } from './n8n-harness';
import { usePackageInN8n } from './package-setup';
import {
	SEND_ONCE_PATHS,
	seedSendOnce,
	sendOnceScenarios,
	sendOnceWorkflows,
} from './send-once-scenarios';

jest.setTimeout(300_000);

const ctx = usePackageInN8n('am-e2e-send-once-', sendOnceWorkflows);
let n8n: RunningN8n;
let cookie: string;

beforeAll(async () => {
	seedSendOnce(ctx);
	for (const wf of sendOnceWorkflows()) await publishWorkflow(ctx.folder, wf.id);
	n8n = await startN8n(ctx.folder, { webhooks: SEND_ONCE_PATHS.map((path) => ({ path })) });
	cookie = await setUpOwner(n8n.url);
});

afterAll(async () => {
	await n8n?.stop();
});

describe('Skip Messages Sent Before in a real n8n', () => {
	sendOnceScenarios(ctx, () => ({ webhookUrl: n8n.url, mainUrl: n8n.url, cookie }));
});
