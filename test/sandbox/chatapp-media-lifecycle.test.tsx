import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CHATAPP_SETTINGS, startSandbox, type Sandbox } from '../sandbox';
import { call, startMediaServer, type MediaServer } from './test-helpers';

const FROM = '15550100';
const USER = '+33612345678';
/** Bounds for waits on events, far above what a busy machine needs; never a measure of speed. */
const BOUND_MS = 20_000;
const SETTLED = { timeoutMs: BOUND_MS };

/** Answers with a PNG type, except /hang (never answers) and /stall (a head and 10 bytes, then nothing). */
const held: ServerResponse[] = [];
function handle(path: string, res: ServerResponse): void {
	if (path === '/hang') held.push(res);
	else if (path === '/stall') {
		held.push(res);
		res.writeHead(200, { 'content-type': 'image/png' }).write(Buffer.alloc(10, 1));
	} else res.writeHead(200, { 'content-type': 'image/png' }).end('png');
}

let sandbox: Sandbox;
let media: MediaServer;
beforeAll(async () => {
	sandbox = await startSandbox({ mediaFetch: true, callbackDelayMs: 0 });
	media = await startMediaServer(handle);
});
afterAll(async () => {
	await sandbox.close();
	await media.close();
});
beforeEach(() => {
	sandbox.reset();
	media.hits.splice(0);
	held.splice(0);
	ready(sandbox);
});

function ready(target: Sandbox) {
	target.seedSender(
		{ providerId: 'p', name: 'ACME', address: FROM, accountTier: 1 },
		{ active: true },
	);
	target.simulateInbound(USER, FROM);
}

async function send(path: string, extra: Record<string, unknown> = {}, target = sandbox) {
	const json = { from: FROM, to: USER, type: 'image', body: `${media.url}${path}`, ...extra };
	const res = await call(target, 'POST', '/chatapp/messages', { baseUrl: target.baseUrl, json });
	expect(res.status).toBe(200);
	return res.body.data as { id: string; status: string };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
	for (const start = Date.now(); !(await condition()); ) {
		if (Date.now() - start > BOUND_MS)
			throw new Error(`${what} did not happen within ${BOUND_MS} ms`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

/** `promise`, or a rejection naming `what` once BOUND_MS passed without it settling. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const bound = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(
			() => reject(new Error(`${what} did not happen within ${BOUND_MS} ms`)),
			BOUND_MS,
		);
	});
	try {
		return await Promise.race([promise, bound]);
	} finally {
		clearTimeout(timer);
	}
}

const paths = () => media.hits.map((h) => h.path);

describe('which messages are fetched', () => {
	it('none with the setting off (the default), nor text messages', async () => {
		expect(DEFAULT_CHATAPP_SETTINGS.mediaFetch).toBe(false);
		const plain = await startSandbox();
		try {
			expect(plain.chatappSettings().mediaFetch).toBe(false);
			ready(plain);
			const { id } = await send('/off-by-default', {}, plain);
			expect(await plain.waitForMedia(id, SETTLED)).toEqual([]);
			expect(plain.messages()[0].media).toBeNull();
		} finally {
			await plain.close();
		}
		sandbox.configureChatapp({ mediaFetch: false });
		await send('/off');
		sandbox.configureChatapp({ mediaFetch: true });
		await send('/text', { type: 'text' });
		await send('/on');
		// waitForMedia() waits for every fetch started: one of /off or /text would be in the hits.
		expect(await sandbox.waitForMedia(undefined, SETTLED)).toEqual([
			expect.objectContaining({ url: `${media.url}/on`, ok: true }),
		]);
		expect(paths()).toEqual(['/on']);
		expect(sandbox.messages().map((m) => m.media?.url ?? null)).toEqual([
			null,
			null,
			`${media.url}/on`,
		]);
	});

	it('not a message accepted as BLACKLISTED or QUOTA_EXCEEDED', async () => {
		sandbox.configureChatapp({ quotaExceeded: 'status' });
		sandbox.approveSender(sandbox.senders()[0].id, { dailyQuota: 1 });
		for (const user of ['+33612345601', '+33612345602']) sandbox.simulateInbound(user, FROM);
		sandbox.seedBlacklist({ to: USER, reason: 'STOP', type: 'CHATAPP', from: FROM });
		expect((await send('/blacklisted')).status).toBe('BLACKLISTED');
		expect((await send('/sent', { to: '+33612345601' })).status).toBe('QUEUE');
		expect((await send('/over-quota', { to: '+33612345602' })).status).toBe('QUOTA_EXCEEDED');
		await send('/sent-again', { to: '+33612345601' });
		await sandbox.waitForMedia(undefined, SETTLED);
		expect(paths()).toEqual(['/sent', '/sent-again']);
		expect(sandbox.messages().map((m) => m.media?.ok ?? null)).toEqual([null, true, null, true]);
	});
});

describe('a fetch in the background', () => {
	it('leaves the answer and media null while pending; waitForMedia times out, reset() aborts it', async () => {
		sandbox.configureChatapp({ callbackTimeoutMs: 600_000 });
		const { id } = await send('/hang');
		await until(() => held.length === 1, 'the media request');
		expect(sandbox.messages()[0].media).toBeNull();
		await expect(sandbox.waitForMedia(id, { timeoutMs: 50 })).rejects.toThrow(
			`waitForMedia timed out after 50 ms: media fetch still pending for message ${id}`,
		);
		const timeout = await fetch(`${sandbox.url}/__sandbox/chatapp/media/wait`, {
			method: 'POST',
			body: JSON.stringify({ timeoutMs: 50 }),
		});
		expect(timeout.status).toBe(408);
		const waiting = sandbox.waitForMedia(undefined, { timeoutMs: 600_000 });
		sandbox.reset();
		expect(await within(waiting, 'waitForMedia resolving on reset()')).toEqual([]);
		await until(async () => (await media.connections()) === 0, 'the fetch connection closing');
	});

	it('close() during a hanging fetch resolves waitForMedia and leaves no connection open', async () => {
		const own = await startSandbox({ mediaFetch: true, callbackTimeoutMs: 600_000 });
		ready(own);
		const { id } = await send('/hang', {}, own);
		await until(() => held.length === 1, 'the media request');
		const cut = new Promise((resolve) => held[0].once('close', resolve));
		const waiting = own.waitForMedia(id, { timeoutMs: 600_000 });
		// Events, not a stopwatch: without the abort, the fetch would wait on a server that never answers.
		await within(own.close(), 'close()');
		await within(cut, 'the media server seeing the fetch cut');
		expect(await within(waiting, 'waitForMedia resolving on close()')).toEqual([]);
		expect(own.messages()[0].media).toBeNull();
		await until(async () => (await media.connections()) === 0, 'the fetch connection closing');
	});

	it('gives up after callbackTimeoutMs, with or without an answer begun', async () => {
		sandbox.configureChatapp({ callbackTimeoutMs: 1_000 });
		const hang = await send('/hang');
		const stall = await send('/stall');
		const [hung] = await sandbox.waitForMedia(hang.id, SETTLED);
		expect(hung).toEqual(
			expect.objectContaining({
				ok: false,
				httpStatus: null,
				contentType: null,
				size: null,
				sha256: null,
				error: 'no answer within 1000 ms',
			}),
		);
		const [stalled] = await sandbox.waitForMedia(stall.id, SETTLED);
		expect(stalled).toEqual(
			expect.objectContaining({
				ok: false,
				httpStatus: 200,
				contentType: 'image/png',
				size: 10,
				sha256: null,
				error: 'the body was not fully read within 1000 ms (10 bytes read)',
			}),
		);
	});

	it('records an unreachable URL with httpStatus null', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise((resolve) => closed.close(resolve));
		const json = { from: FROM, to: USER, type: 'video', body: `http://127.0.0.1:${port}/v.mp4` };
		const res = await call(sandbox, 'POST', '/chatapp/messages', {
			baseUrl: sandbox.baseUrl,
			json,
		});
		const [record] = await sandbox.waitForMedia(res.body.data.id, SETTLED);
		expect(record).toEqual(
			expect.objectContaining({ ok: false, httpStatus: null, size: null, sha256: null }),
		);
		expect(record.error).toMatch(/ECONNREFUSED/);
	});
});

describe('the mediaFetch setting', () => {
	it('is a start option, configurable until reset(), and must be a boolean', async () => {
		await expect(startSandbox({ mediaFetch: 'yes' as unknown as boolean })).rejects.toThrow(
			'mediaFetch must be a boolean (got "yes")',
		);
		expect(() => sandbox.configureChatapp({ mediaFetch: 1 as unknown as boolean })).toThrow(
			'mediaFetch must be a boolean (got 1)',
		);
		const config = `${sandbox.url}/__sandbox/chatapp/config`;
		const bad = await fetch(config, { method: 'POST', body: '{"mediaFetch":"true"}' });
		expect(bad.status).toBe(400);
		expect(((await bad.json()) as any).error.message).toBe(
			'mediaFetch must be a boolean (got "true")',
		);
		const off = await fetch(config, { method: 'POST', body: '{"mediaFetch":false}' });
		expect(((await off.json()) as any).mediaFetch).toBe(false);
		expect(sandbox.chatappSettings().mediaFetch).toBe(false);
		sandbox.reset();
		expect(sandbox.chatappSettings().mediaFetch).toBe(true);
	});
});
