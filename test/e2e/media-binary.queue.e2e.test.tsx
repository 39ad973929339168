/**
 * Message › Send with Source: Binary File in n8n's queue mode (main, a worker, a webhook process,
 * Redis and PostgreSQL; binary data in n8n's database mode, queue mode's default), behind one
 * public address as n8n's docs set it up (front-proxy.tsx): a PDF posted to the webhook process
 * is sent by the worker as a document message, and the link the worker signed is answered by the
 * main process, from the database, with the same bytes.
 */
import { createHash, randomBytes } from 'node:crypto';

import { finishedExecution, publishWorkflow, waitForWebhook } from './n8n-harness';
import { audienceNode, chain, usePackageInN8n } from './package-setup';
import { prepareQueueMode } from './queue-harness';
import type { QueueStack } from './queue-harness';

jest.setTimeout(600_000);

const SENDER = '15550100400';
const USER = '+33612344000';
const PATH = 'am-queue-media';

const workflow = {
	id: 'amE2eQueueMedia',
	name: 'e2e: queue, media from binary',
	nodes: [
		{
			id: 'hook-queue-media',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [-220, 0],
			webhookId: 'b1a4c0de-0000-4c61-9e8b-3a1f6d2c4b80',
			parameters: { httpMethod: 'POST', path: PATH, responseMode: 'onReceived', options: {} },
		},
		audienceNode('Send', 1, {
			resource: 'message',
			operation: 'send',
			messageType: 'document',
			mediaSource: 'binary',
			from: `+${SENDER}`,
			to: USER,
		}),
	],
	connections: chain('Webhook', 'Send'),
};

let startQueue: ((opts: { workers: number }) => Promise<QueueStack>) | undefined;
let stack: QueueStack;

const ctx = usePackageInN8n('am-e2e-queue-media-', () => [workflow], {
	beforeImport: async (folder) => {
		const queue = await prepareQueueMode(folder, { front: true });
		startQueue = queue.start;
		return queue.stop;
	},
});

beforeAll(async () => {
	ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.simulateInbound(USER, SENDER);
	ctx.sandbox.configureChatapp({ mediaFetch: true });
	await publishWorkflow(ctx.folder, workflow.id);
	stack = await startQueue!({ workers: 1 });
	await waitForWebhook(stack.webhook, PATH, { timeoutMs: 120_000 });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

it("the worker sends the webhook's PDF as a document; its link, through the public address, is answered by main from the database", async () => {
	const file = Buffer.concat([
		Buffer.from('%PDF-1.4\n'),
		randomBytes(4096),
		Buffer.from('\n%%EOF\n'),
	]);
	const front = stack.front!;
	const answer = await fetch(`${front.url}/webhook/${PATH}`, {
		method: 'POST',
		headers: { 'content-type': 'application/pdf' },
		body: file,
	});
	expect(answer.status).toBe(200);
	const execution = await finishedExecution(ctx.folder, workflow.id);
	expect(execution.status).toBe('success');
	expect(stack.workers[0].logs()).toContain(`Worker finished execution ${execution.id} `);
	const [message] = ctx.sandbox.messages();
	const url = (message.request as { body: string }).body;
	expect(url.startsWith(`${front.url}/rest/binary-data/signed?token=`)).toBe(true);
	// The file is in n8n's database (queue mode's binary data mode), not on the worker's disk.
	const { id } = JSON.parse(
		Buffer.from(new URL(url).searchParams.get('token')!.split('.')[1], 'base64url').toString(),
	) as { id: string };
	expect(id).toMatch(/^database:/);
	const [media] = await ctx.sandbox.waitForMedia(message.id);
	expect(media).toMatchObject({
		ok: true,
		httpStatus: 200,
		size: file.length,
		sha256: sha256(file),
	});
	expect(front.requests.filter((request) => request.path.startsWith('/rest/binary-data/'))).toEqual(
		[expect.objectContaining({ method: 'GET', to: 'main', status: 200 })],
	);
	// After the execution, still served.
	const again = await fetch(url);
	expect(sha256(Buffer.from(await again.arrayBuffer()))).toBe(sha256(file));
});
