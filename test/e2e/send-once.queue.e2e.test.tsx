/**
 * Message › Send › Skip Messages Sent Before in n8n's queue mode: main + two workers + one webhook
 * process, Redis and PostgreSQL (queue-harness.tsx), the package installed from its tarball, the
 * history in PostgreSQL. The scenarios of send-once-scenarios.tsx: the workflows start on the
 * webhook process and run on the workers; n8n's Retry, asked of the main process, runs on a
 * worker too.
 */
import { publishWorkflow, setUpOwner, waitForWebhook } from './n8n-harness';
import { usePackageInN8n } from './package-setup';
import { prepareQueueMode } from './queue-harness';
import type { QueueStack } from './queue-harness';
import {
	SEND_ONCE_PATHS,
	seedSendOnce,
	sendOnceScenarios,
	sendOnceWorkflows,
} from './send-once-scenarios';

jest.setTimeout(600_000);

let startQueue: ((opts: { workers: number }) => Promise<QueueStack>) | undefined;
let stack: QueueStack;
let cookie: string;

const ctx = usePackageInN8n('am-e2e-send-once-queue-', sendOnceWorkflows, {
	beforeImport: async (folder) => {
		const queue = await prepareQueueMode(folder);
		startQueue = queue.start;
		return queue.stop;
	},
});

beforeAll(async () => {
	seedSendOnce(ctx);
	for (const wf of sendOnceWorkflows()) await publishWorkflow(ctx.folder, wf.id);
	stack = await startQueue!({ workers: 2 });
	for (const path of SEND_ONCE_PATHS)
		await waitForWebhook(stack.webhook, path, { timeoutMs: 120_000 });
	cookie = await setUpOwner(stack.main.url);
});

describe('Skip Messages Sent Before in queue mode', () => {
	sendOnceScenarios(ctx, () => ({
		webhookUrl: stack.webhook.url,
		mainUrl: stack.main.url,
		cookie,
	}));
});
