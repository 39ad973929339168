import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { MEDIA_FETCH_MAX_BYTES, startSandbox, type MediaFetch, type Sandbox } from '../sandbox';
import { call, startMediaServer, startReceiver, type MediaServer } from './test-helpers';

const FROM = '15550100';
const USER = '+33612345678';
/** PDF-like bytes, some of them not UTF-8: only a byte-exact read hashes to the same value. */
const PDF = Buffer.concat([
	Buffer.from('%PDF-1.4\n%'),
	Buffer.from([0xe2, 0xe3, 0xcf, 0xd3, 0x00, 0xff, 0x0d, 0x0a]),
	Buffer.from('1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
]);
const FIVE_MB = Buffer.alloc(MEDIA_FETCH_MAX_BYTES, 0x25);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A bound for waits on events, far above what a busy machine needs; not a measure of speed. */
const SETTLED = { timeoutMs: 20_000 };

function handle(path: string, res: ServerResponse): void {
	const url = new URL(path, 'http://media');
	const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
	if (hop && hop[1] !== '0') {
		res.writeHead(302, { location: `/hop/${Number(hop[1]) - 1}` }).end();
		return;
	}
	if (url.pathname === '/doc.pdf' || hop) {
		res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
	} else if (url.pathname === '/typed') {
		const type = url.searchParams.get('ct');
		res.writeHead(200, type === null ? {} : { 'content-type': type }).end(PDF);
	} else if (url.pathname === '/five-mb.pdf') {
		res.writeHead(200, { 'content-type': 'application/pdf' }).end(FIVE_MB);
	} else if (url.pathname === '/endless.pdf') {
		// A body that never ends: chunks for as long as the reader takes them.
		res.writeHead(200, { 'content-type': 'application/pdf' });
		const chunk = Buffer.alloc(64 * 1024, 0x25);
		const pump = () => {
			let more = true;
			while (more && !res.destroyed) more = res.write(chunk);
		};
		res.on('drain', pump);
		pump();
	} else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
}

let sandbox: Sandbox;
let media: MediaServer;
beforeAll(async () => {
	// A fetch that never ends would time out after 30 s: after waitForMedia's bound gives up.
	sandbox = await startSandbox({ mediaFetch: true, callbackDelayMs: 0, callbackTimeoutMs: 30_000 });
	media = await startMediaServer(handle);
});
afterAll(async () => {
	await sandbox.close();
	await media.close();
});
beforeEach(() => {
	sandbox.reset();
	media.hits.splice(0);
	sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: FROM, accountTier: 1 },
		{ active: true },
	);
	sandbox.simulateInbound(USER, FROM);
});

async function send(type: string, path: string, extra: Record<string, unknown> = {}) {
	const json = { from: FROM, to: USER, type, body: `${media.url}${path}`, ...extra };
	const res = await call(sandbox, 'POST', '/chatapp/messages', { baseUrl: sandbox.baseUrl, json });
	expect(res.status).toBe(200);
	expect(res.body.data.status).toBe('QUEUE');
	return res.body.data.id as string;
}

/** Sends a media message and answers its media record once fetched. */
async function fetched(type: string, path: string): Promise<MediaFetch> {
	const id = await send(type, path);
	const records = await sandbox.waitForMedia(id, SETTLED);
	expect(records).toHaveLength(1);
	expect(sandbox.messages().find((m) => m.id === id)?.media).toEqual(records[0]);
	return records[0];
}

describe('media fetch of accepted media messages (mediaFetch on)', () => {
	it('fetches the URL once, without credentials, and records the bytes served', async () => {
		sandbox.clock.freeze();
		sandbox.advanceTime(3_600_000);
		const at = sandbox.clock.iso();
		const record = await fetched('document', '/doc.pdf');
		expect(record).toEqual({
			url: `${media.url}/doc.pdf`,
			ok: true,
			httpStatus: 200,
			contentType: 'application/pdf',
			size: PDF.length,
			sha256: sha256(PDF),
			at,
		});
		expect(media.hits.map((h) => [h.method, h.path])).toEqual([['GET', '/doc.pdf']]);
		expect(media.hits[0].headers.authorization).toBeUndefined();
		expect(JSON.stringify(media.hits[0].headers)).not.toContain(sandbox.apiKey);
		const listed = (await (await fetch(`${sandbox.url}/__sandbox/chatapp/messages`)).json()) as any;
		expect(listed[0].media).toEqual(record);
		const waited = await fetch(`${sandbox.url}/__sandbox/chatapp/media/wait`, {
			method: 'POST',
			body: JSON.stringify({ timeoutMs: 1000 }),
		});
		expect(await waited.json()).toEqual({ done: true, media: [record] });
	});

	it('records a 404 as not ok; the status path and the callbacks stay the same', async () => {
		const receiver = await startReceiver();
		try {
			const id = await send('image', '/missing', { callbacks: receiver.url });
			const [record] = await sandbox.waitForMedia(id, SETTLED);
			expect(record).toEqual({
				url: `${media.url}/missing`,
				ok: false,
				httpStatus: 404,
				contentType: 'text/html',
				size: null,
				sha256: null,
				error: 'HTTP 404',
				at: expect.any(String),
			});
			await sandbox.waitForCallbacks(id, SETTLED);
			const path = ['QUEUE', 'DEQUEUED', 'SENT', 'DELIVERED', 'READ'];
			expect(sandbox.messages()[0].history.map((h) => h.status)).toEqual(path);
			expect(receiver.hits.map((h) => h.body.status)).toEqual(path);
		} finally {
			await receiver.close();
		}
	});

	it.each<[string, string | null, string | undefined]>([
		['image', 'image/jpeg', undefined],
		['image', 'IMAGE/PNG', undefined],
		['audio', 'audio/ogg; codecs=opus', undefined],
		['audio', 'Audio/OGG; Codecs="OPUS"', undefined],
		['audio', 'audio/mpeg', undefined],
		['audio', 'audio/amr', undefined],
		['video', 'video/3gpp', undefined],
		['document', 'document/pdf', undefined],
		['document', 'application/pdf; charset=binary', undefined],
		[
			'image',
			'text/plain',
			'content type text/plain does not fit type image (accepted: image/jpeg, image/png)',
		],
		[
			'image',
			'image/gif; x=1',
			'content type image/gif does not fit type image (accepted: image/jpeg, image/png)',
		],
		[
			'audio',
			'audio/ogg',
			'content type audio/ogg does not fit type audio: audio/ogg needs codecs=opus (accepted: audio/aac, audio/mp4, audio/amr, audio/mpeg, audio/ogg; codecs=opus)',
		],
		[
			'video',
			'video/webm',
			'content type video/webm does not fit type video (accepted: video/mp4, video/3gpp)',
		],
		[
			'document',
			'application/octet-stream',
			'content type application/octet-stream does not fit type document (accepted: document/pdf, application/pdf)',
		],
		['image', null, 'no Content-Type for type image (accepted: image/jpeg, image/png)'],
	])('judges type %s served as %s', async (type, contentType, error) => {
		const query = contentType === null ? '' : `?ct=${encodeURIComponent(contentType)}`;
		const record = await fetched(type, `/typed${query}`);
		expect(record).toEqual(
			expect.objectContaining({
				ok: error === undefined,
				httpStatus: 200,
				contentType,
				size: PDF.length,
				sha256: sha256(PDF),
			}),
		);
		expect(record.error).toBe(error);
	});

	it('takes exactly 5 MB; stops reading a body over 5 MB and says it is too large', async () => {
		expect(await fetched('document', '/five-mb.pdf')).toEqual(
			expect.objectContaining({ ok: true, size: MEDIA_FETCH_MAX_BYTES, sha256: sha256(FIVE_MB) }),
		);
		// The body never ends: only a fetch that stops reading after 5 MB + 1 byte gets an outcome.
		const record = await fetched('document', '/endless.pdf');
		expect(record).toEqual(
			expect.objectContaining({
				ok: false,
				httpStatus: 200,
				size: MEDIA_FETCH_MAX_BYTES + 1,
				sha256: null,
				error: `the file is larger than 5 MB (${MEDIA_FETCH_MAX_BYTES} bytes): reading stopped at ${MEDIA_FETCH_MAX_BYTES + 1} bytes`,
			}),
		);
		for (const start = Date.now(); (await media.connections()) > 0; ) {
			if (Date.now() - start > SETTLED.timeoutMs) throw new Error('the connection stayed open');
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
	});

	it('follows 3 redirects, not 4', async () => {
		expect(await fetched('document', '/hop/3')).toEqual(
			expect.objectContaining({ ok: true, httpStatus: 200, sha256: sha256(PDF) }),
		);
		expect(media.hits.map((h) => h.path)).toEqual(['/hop/3', '/hop/2', '/hop/1', '/hop/0']);
		media.hits.splice(0);
		expect(await fetched('document', '/hop/4')).toEqual(
			expect.objectContaining({
				ok: false,
				httpStatus: 302,
				size: null,
				sha256: null,
				error: 'more than 3 redirects (the next to /hop/0)',
			}),
		);
		expect(media.hits.map((h) => h.path)).toEqual(['/hop/4', '/hop/3', '/hop/2', '/hop/1']);
	});
});
