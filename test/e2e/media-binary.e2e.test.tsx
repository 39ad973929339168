/**
 * Message › Send with Source: Binary File in a real n8n (the package installed from its tarball,
 * binary data in n8n's filesystem mode), against the sandbox, which fetches a media message's URL
 * as a platform does: a PDF posted to a webhook goes out as a document message whose link serves
 * the same bytes, and is refused by n8n once Link Valid For is over; a file too large, of the
 * wrong type, or missing is refused before any request, naming the item; so is a file n8n keeps
 * in memory (N8N_DEFAULT_BINARY_DATA_MODE=default).
 */
import { createHash, randomBytes } from 'node:crypto';

import {
	executeWorkflow,
	finishedExecution,
	listExecutions,
	publishWorkflow,
	startN8n,
} from './n8n-harness';
import type { ExecuteResult, RunningN8n } from './n8n-harness';
import {
	audienceNode,
	chain,
	codeNode,
	manualTrigger,
	usePackageInN8n,
	webhookTrigger,
} from './package-setup';

jest.setTimeout(300_000);

const SENDER = '15550100100';

/** A small PDF with some random bytes in its stream: each test's file is its own. */
function pdf(extraBytes = 2048): Buffer {
	const stream = randomBytes(extraBytes);
	return Buffer.concat([
		Buffer.from(`%PDF-1.4\n1 0 obj << /Length ${stream.length} >>\nstream\n`),
		stream,
		Buffer.from('\nendstream\nendobj\ntrailer << >>\n%%EOF\n'),
	]);
}

/** A webhook whose posted file (n8n stores a body that is not JSON as binary `data`) is sent. */
const mediaWorkflow = (id: string, path: string, messageType: string) => ({
	id,
	name: `e2e: media from binary (${path})`,
	nodes: [
		webhookTrigger(path),
		audienceNode('Send', 1, {
			resource: 'message',
			operation: 'send',
			messageType,
			mediaSource: 'binary',
			from: `+${SENDER}`,
			to: '={{ $json.query.to }}',
			options: { linkValidFor: 1 },
		}),
	],
	connections: chain('Webhook', 'Send'),
});

const documents = mediaWorkflow('amE2eMediaDocum', 'media-document', 'document');
const images = mediaWorkflow('amE2eMediaImage', 'media-image', 'image');
/** A file made by a Code node: in memory mode it stays in the item. */
const inMemory = {
	id: 'amE2eMediaMemor',
	name: 'e2e: media from binary (memory mode)',
	nodes: [
		manualTrigger,
		codeNode(
			'File',
			1,
			"return [{ json: { to: '+33612349999' }, binary: { data: { data: Buffer.from('%PDF-1.4 memory').toString('base64'), mimeType: 'application/pdf', fileName: 'memo.pdf' } } }];",
		),
		audienceNode('Send', 2, {
			resource: 'message',
			operation: 'send',
			messageType: 'document',
			mediaSource: 'binary',
			from: `+${SENDER}`,
			to: '={{ $json.to }}',
		}),
	],
	connections: chain('Start', 'File', 'Send'),
};

const WORKFLOWS = [documents, images, inMemory];
const ctx = usePackageInN8n('am-e2e-media-binary-', () => WORKFLOWS);
let n8n: RunningN8n;
let memoryRun: ExecuteResult;
let recipient = 0;

beforeAll(async () => {
	ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.configureChatapp({ mediaFetch: true });
	// Before the server starts: a run of its own with n8n keeping binary data in memory.
	memoryRun = await executeWorkflow(ctx.folder, inMemory.id, {
		env: { N8N_DEFAULT_BINARY_DATA_MODE: 'default' },
	});
	for (const wf of [documents, images]) await publishWorkflow(ctx.folder, wf.id);
	n8n = await startN8n(ctx.folder, {
		// n8n 2.x's default; n8n 1.x keeps binary data in memory unless told.
		env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' },
		webhooks: ['media-document', 'media-image'].map((path) => ({ path, method: 'POST' })),
	});
});

afterAll(async () => {
	await n8n?.stop();
});

/**
 * Posts `body` to the workflow's webhook for a new recipient (a text or bytes as the body, or a
 * multipart form); resolves with its execution and the messages the sandbox got meanwhile.
 */
async function post(
	workflow: { id: string },
	path: string,
	body: Buffer | string | FormData,
	type?: string,
) {
	const to = `+3361234${String(++recipient).padStart(4, '0')}`;
	ctx.sandbox.simulateInbound(to, SENDER);
	const count = (await listExecutions(ctx.folder, workflow.id)).length;
	const before = ctx.sandbox.messages().length;
	const answer = await fetch(`${n8n.url}/webhook/${path}?to=${encodeURIComponent(to)}`, {
		method: 'POST',
		headers: type ? { 'content-type': type } : {},
		body,
	});
	expect(answer.status).toBe(200);
	const execution = await finishedExecution(ctx.folder, workflow.id, count);
	// n8n stores run data flatted, as JSON: its quotes come escaped.
	const stored = execution.stored.replace(/\\"/g, '"');
	return { execution, stored, messages: ctx.sandbox.messages().slice(before), to };
}

/** A multipart form with one file in the field `data` (n8n's Webhook names the binary after it). */
function form(content: string, type: string, name: string): FormData {
	const data = new FormData();
	data.append('data', new Blob([content], { type }), name);
	return data;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

it("sends a document message whose link serves the PDF's bytes; once Link Valid For is over, n8n refuses it", async () => {
	const file = pdf();
	const { execution, messages, to } = await post(
		documents,
		'media-document',
		file,
		'application/pdf',
	);
	expect(execution.status).toBe('success');
	expect(messages).toHaveLength(1);
	const [message] = messages;
	expect(message).toMatchObject({ to, type: 'document' });
	const url = (message.request as { body: string }).body;
	expect(url).toMatch(/\/rest\/binary-data\/signed\?token=/);
	// The platform fetched it (the sandbox, as a platform does): the same bytes, as a PDF.
	const [media] = await ctx.sandbox.waitForMedia(message.id);
	expect(media).toMatchObject({
		ok: true,
		httpStatus: 200,
		size: file.length,
		sha256: sha256(file),
	});
	expect(media.contentType).toMatch(/^application\/pdf/);
	// The execution has ended (n8n moved the webhook's upload to the execution's folder): the link
	// still serves the file.
	const again = await fetch(url);
	expect(again.status).toBe(200);
	expect(sha256(Buffer.from(await again.arrayBuffer()))).toBe(sha256(file));
	// Nothing of the link is kept in n8n's execution data.
	const token = new URL(url).searchParams.get('token')!;
	expect(execution.stored).not.toContain(token);
	// Link Valid For is 1 minute: a minute later n8n refuses the link.
	const { exp } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as {
		exp: number;
	};
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 1500));
	const late = await fetch(url);
	expect(late.status).toBe(400);
	expect(await late.text()).toMatch(/expired/);
});

it.each([
	[
		'a 6 MB file',
		documents,
		'media-document',
		pdf(6 * 1024 * 1024),
		'application/pdf',
		/is 6\.0 MB; media messages take at most 5 MB/,
	],
	[
		'a text/plain file for an image message',
		images,
		'media-image',
		form('hello', 'text/plain', 'note.txt'),
		undefined,
		/the file "note\.txt" is text\/plain; image messages take image\/jpeg, image\/png/,
	],
	[
		'no file (a JSON body)',
		documents,
		'media-document',
		'{"no":"file"}',
		'application/json',
		/the input item has no binary property "data"/,
	],
])(
	'%s is refused before any request, naming the item and the field',
	async (_, workflow, path, body, type, reason) => {
		const requests = ctx.sandbox.requests.length;
		const { execution, stored, messages } = await post(workflow, path, body, type);
		expect(execution.status).toBe('error');
		expect(stored).toMatch(/Invalid "Input Binary Field" in item 0: /);
		expect(stored).toMatch(reason);
		expect(messages).toHaveLength(0);
		expect(ctx.sandbox.requests.slice(requests)).toHaveLength(0);
	},
);

it('a file n8n keeps in memory (N8N_DEFAULT_BINARY_DATA_MODE=default) is refused before any request, naming the setting', () => {
	expect(memoryRun.error).toBeDefined();
	expect(JSON.stringify(memoryRun.error)).toMatch(
		/Invalid \\?"Input Binary Field\\?" in item 0: n8n keeps this file in memory \(N8N_DEFAULT_BINARY_DATA_MODE=default\)/,
	);
	expect(ctx.sandbox.messages().filter((message) => message.to === '+33612349999')).toHaveLength(0);
});
