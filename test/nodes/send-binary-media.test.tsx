/**
 * Message › Send, media from a binary field (Source: Binary File), through n8n-core's engine and
 * binary store against the sandbox: the body is n8n's signed link to the item's file, signed when
 * the message is sent; the file is checked before any request; the link's token stays out of a
 * preview, the output and errors; a second run of the same file is a message sent before.
 */
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { INodeExecutionData } from 'n8n-workflow';

import { binaryItem, runNode, setBinaryDataMode } from '../helpers/n8n';
import { processedData } from '../helpers/processed-data';
import { API_KEY, node, openConversation, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();
beforeEach(() => processedData.reset());
afterEach(async () => await setBinaryDataMode('filesystem'));

const USERS = ['+33612345678', '+33612345679', '+33612345680'];
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

const send = (extra: Record<string, unknown> = {}, options: Record<string, unknown> = {}) => ({
	resource: 'message',
	operation: 'send',
	messageType: 'document',
	mediaSource: 'binary',
	from: '+1 555 010 0100',
	to: '={{ $json.to }}',
	options: { messagesPerSecond: 0, skipSentBefore: false, ...options },
	...extra,
});

const file = async (to: string, data = PDF, mimeType = 'application/pdf', name = 'invoice.pdf') =>
	await binaryItem({ to }, 'data', data, name, mimeType);

function open(): void {
	openConversation(ctx.sandbox);
	for (const user of USERS.slice(1)) ctx.sandbox.simulateInbound(user, '15550100100');
}

const messagePosts = () =>
	ctx.sandbox.requests.filter((request) => request.path.endsWith('/chatapp/messages'));

/** The link's token, and the JWT's claims. */
function tokenOf(url: string): { token: string; claims: { id: string; iat: number; exp: number } } {
	const token = new URL(url).searchParams.get('token')!;
	const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
	return { token, claims };
}

describe('Message › Send › Source: Binary File', () => {
	it("sends n8n's signed link to each item's own file, valid for an hour; nothing of the link comes out", async () => {
		open();
		const items = [await file(USERS[0]), await file(USERS[1], Buffer.from('%PDF-1.7 other'))];
		const output = outputOf(await run(ctx.credentials, send(), items));
		const bodies = messagePosts().map((request) => (request.body as { body: string }).body);
		expect(bodies).toHaveLength(2);
		const service = Container.get(BinaryDataService);
		bodies.forEach((body, index) => {
			expect(body).toMatch(
				/^http:\/\/localhost:5678\/rest\/binary-data\/signed\?token=[\w-]+\.[\w-]+\.[\w-]+$/,
			);
			const { token, claims } = tokenOf(body);
			// n8n's own check of the link gives back the item's file.
			expect(service.validateSignedToken(token)).toBe(items[index].binary!.data.id);
			expect(claims.exp - claims.iat).toBe(3600);
			// The link names the file and its validity, nothing else: no key, no credential.
			expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'id']);
			expect(body).not.toContain(API_KEY);
			expect(JSON.stringify(output)).not.toContain(token);
		});
		expect(messagePosts()[0].body).toMatchObject({ type: 'document', to: USERS[0] });
		expect(output.map((item) => item.json.status)).toEqual(['QUEUE', 'QUEUE']);
	});

	it("copies a trigger's upload (n8n's temp folder, moved when the execution ends) once into the execution's own storage, and links the copy", async () => {
		open();
		const upload = await binaryItem(
			{ to: USERS[0] },
			'data',
			PDF,
			'upload.pdf',
			'application/pdf',
			'temp',
		);
		const uploadId = upload.binary!.data.id!;
		expect(uploadId).toMatch(/\/temp\//);
		// Two recipients of the one upload.
		const items = [upload, { ...upload, json: { to: USERS[1] } }];
		outputOf(await run(ctx.credentials, send(), items));
		const ids = ctx.sandbox
			.messages()
			.map((message) => tokenOf((message.request as { body: string }).body).claims.id);
		expect(ids[0]).not.toBe(uploadId);
		expect(ids[0]).not.toMatch(/\/temp\//);
		expect(ids[1]).toBe(ids[0]);
		const service = Container.get(BinaryDataService);
		expect(await service.getAsBuffer({ id: ids[0], data: '', mimeType: '' })).toEqual(PDF);
		expect((await service.getMetadata(ids[0])).fileName).toBe('upload.pdf');
	});

	it("gives n8n's store a file held in the item (a Code node's), once, and links it", async () => {
		open();
		const inline = {
			data: PDF.toString('base64'),
			mimeType: 'application/pdf',
			fileName: 'made.pdf',
		};
		const items = USERS.slice(0, 2).map((to) => ({ json: { to }, binary: { data: inline } }));
		outputOf(await run(ctx.credentials, send(), items));
		const ids = ctx.sandbox
			.messages()
			.map((message) => tokenOf((message.request as { body: string }).body).claims.id);
		expect(ids[0]).toMatch(/^filesystem/);
		expect(ids[1]).toBe(ids[0]);
		const service = Container.get(BinaryDataService);
		expect(await service.getAsBuffer({ id: ids[0], data: '', mimeType: '' })).toEqual(PDF);
	});

	it("finds the file in the item's JSON when the workflow keeps files there (n8n 2.x's binary mode combined)", async () => {
		open();
		const { binary } = await file(USERS[0]);
		const items = [{ json: { to: USERS[0], files: { invoice: binary!.data } } }];
		const parameters = send({ binaryPropertyName: 'files.invoice' });
		const result = await runNode({
			nodeType: node,
			credentials: ctx.credentials,
			parameters,
			items,
			workflowSettings: { binaryMode: 'combined' },
		});
		expect(outputOf(result)[0].json.status).toBe('QUEUE');
		const [message] = ctx.sandbox.messages();
		const { claims } = tokenOf((message.request as { body: string }).body);
		expect(claims.id).toBe(binary!.data.id);
		// Not in the workflows that keep files apart (the default): there the field names a file.
		const apart = await run(ctx.credentials, parameters, items);
		expect(apart.error?.message).toMatch(/no binary property "files\.invoice"/);
	});

	it('signs each link when the node starts sending its message, not when it checks the items', async () => {
		open();
		const items = await Promise.all(USERS.map(async (user) => await file(user)));
		const options = { messagesPerSecond: 0.5, parallelRequests: 1, linkValidFor: 5 };
		outputOf(await run(ctx.credentials, send({}, options), items));
		const messages = ctx.sandbox.messages();
		const claims = messages.map(
			(message) => tokenOf((message.request as { body: string }).body).claims,
		);
		for (const claim of claims) expect(claim.exp - claim.iat).toBe(300);
		// One at a time, 2 s apart: the third is signed after the second was sent (the items were all
		// checked before the first).
		expect(claims[2].iat).toBeGreaterThanOrEqual(
			Math.floor(Date.parse(messages[1].createdAt) / 1000),
		);
	});

	it.each([
		[
			'a missing binary field',
			async () => ({ json: { to: USERS[1] } }),
			/no binary property "data"/,
		],
		[
			'a text file',
			async () => await file(USERS[1], Buffer.from('hello'), 'text/plain', 'note.txt'),
			/the file "note\.txt" is text\/plain; document messages take document\/pdf, application\/pdf/,
		],
		[
			'a file over 5 MB',
			async () => await file(USERS[1], Buffer.alloc(6 * 1024 * 1024, 32)),
			/the file "invoice\.pdf" is 6\.0 MB; media messages take at most 5 MB/,
		],
	])(
		'%s in item 1 is refused before any request, naming the item and the field',
		async (_, bad, message) => {
			open();
			const result = await run(ctx.credentials, send(), [await file(USERS[0]), await bad()]);
			expect(result.error?.message).toMatch(/^Invalid "Input Binary Field" in item 1: /);
			expect(result.error?.message).toMatch(message);
			expect(messagePosts()).toHaveLength(0);
		},
	);

	it('an image message takes only an image, and an Ogg audio only with the Opus codec', async () => {
		open();
		const image = await run(ctx.credentials, send({ messageType: 'image' }), [
			await file(USERS[0]),
		]);
		expect(image.error?.message).toMatch(
			/application\/pdf; image messages take image\/jpeg, image\/png/,
		);
		const ogg = await run(ctx.credentials, send({ messageType: 'audio' }), [
			await file(USERS[0], Buffer.from('OggS'), 'audio/ogg', 'voice.ogg'),
		]);
		expect(ogg.error?.message).toMatch(/plain audio\/ogg is not taken/);
		const opus = await run(ctx.credentials, send({ messageType: 'audio' }), [
			await file(USERS[0], Buffer.from('OggS'), 'audio/ogg; codecs=opus', 'voice.ogg'),
		]);
		expect(outputOf(opus)[0].json.status).toBe('QUEUE');
		expect(messagePosts()).toHaveLength(1);
	});

	it('a file n8n keeps in memory is refused before any request, naming N8N_DEFAULT_BINARY_DATA_MODE', async () => {
		open();
		await setBinaryDataMode('default');
		const result = await run(ctx.credentials, send(), [await file(USERS[0])]);
		expect(result.error?.message).toMatch(
			/^Invalid "Input Binary Field" in item 0: n8n keeps this file in memory \(N8N_DEFAULT_BINARY_DATA_MODE=default\)/,
		);
		expect(messagePosts()).toHaveLength(0);
	});

	it('with Continue On Fail, each bad item is its own error item and the good ones are sent', async () => {
		open();
		const items: INodeExecutionData[] = [
			await file(USERS[0]),
			{ json: { to: USERS[1] } },
			await file(USERS[2]),
		];
		const result = await run(ctx.credentials, send(), items, true);
		const output = outputOf(result);
		expect(output.map((item) => item.json.status ?? 'error')).toEqual(['QUEUE', 'error', 'QUEUE']);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(messagePosts()).toHaveLength(2);
	});

	it('Link Valid For outside 1 minute to a week is refused before any request', async () => {
		open();
		const result = await run(ctx.credentials, send({}, { linkValidFor: 20000 }), [
			await file(USERS[0]),
		]);
		expect(result.error?.message).toMatch(/Link Valid For.*1 to 10080 minutes/);
		expect(messagePosts()).toHaveLength(0);
	});

	it('Preview Without Sending shows the link with its token hidden', async () => {
		open();
		const output = outputOf(
			await run(ctx.credentials, send({}, { preview: true }), [await file(USERS[0])]),
		);
		const body = (output[0].json.request as { body: { body: string } }).body.body;
		expect(body).toMatch(/^http:\/\/localhost:5678\/rest\/binary-data\/signed\?token=\*\*\*$/);
		expect(messagePosts()).toHaveLength(0);
	});

	it('Skip Messages Sent Before: the same file to the same person is not sent again, another file is', async () => {
		open();
		const options = { skipSentBefore: true };
		const first = outputOf(await run(ctx.credentials, send({}, options), [await file(USERS[0])]));
		expect(first[0].json.status).toBe('QUEUE');
		// A new run: the same bytes stored anew (a new binary ID, a new link).
		const again = outputOf(await run(ctx.credentials, send({}, options), [await file(USERS[0])]));
		expect(again[0].json).toMatchObject({
			status: 'sentBefore',
			messageKey: first[0].json.messageKey,
		});
		const other = await file(USERS[0], Buffer.from('%PDF-1.4 the next invoice'));
		const next = outputOf(await run(ctx.credentials, send({}, options), [other]));
		expect(next[0].json.status).toBe('QUEUE');
		expect(messagePosts()).toHaveLength(2);
	});
});
