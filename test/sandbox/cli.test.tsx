import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const ROOT = path.resolve(__dirname, '../..');

function startCli(
	args: string[],
	env: Record<string, string> = {},
): { child: ChildProcessWithoutNullStreams; firstLine: Promise<string> } {
	const child = spawn(process.execPath, ['--import', 'tsx', 'test/sandbox/cli.tsx', ...args], {
		cwd: ROOT,
		env: { ...process.env, ...env },
	});
	const firstLine = new Promise<string>((resolve, reject) => {
		readline.createInterface({ input: child.stdout }).once('line', resolve);
		child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
	});
	return { child, firstLine };
}

const exited = (child: ChildProcessWithoutNullStreams) =>
	new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.once('exit', (code, signal) => resolve({ code, signal })),
	);

describe('cli', () => {
	it('prints the URLs, serves with the given key and exits cleanly on SIGTERM', async () => {
		const { child, firstLine } = startCli(['--port', '0', '--api-key', 'xyz']);
		const urls = JSON.parse(await firstLine);
		expect(urls).toEqual({
			url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
			listsBaseUrl: `${urls.url}/audience/v3`,
			walletBaseUrl: `${urls.url}/wallet`,
			baseUrl: `${urls.url}/messaging`,
		});
		expect((await fetch(`${urls.url}/__sandbox/health`)).status).toBe(200);
		expect(
			(await fetch(`${urls.listsBaseUrl}/lists`, { headers: { authorization: 'Bearer xyz' } }))
				.status,
		).toBe(200);
		const exit = exited(child);
		child.kill('SIGTERM');
		expect(await exit).toEqual({ code: 0, signal: null });
	}, 120_000);

	it('reads SANDBOX_PORT and SANDBOX_API_KEY and exits cleanly on SIGINT', async () => {
		const probe = await import('node:net').then(
			(net) =>
				new Promise<number>((resolve) => {
					const server = net.createServer().listen(0, '127.0.0.1', () => {
						const { port } = server.address() as { port: number };
						server.close(() => resolve(port));
					});
				}),
		);
		const { child, firstLine } = startCli([], {
			SANDBOX_PORT: String(probe),
			SANDBOX_API_KEY: 'from-env',
		});
		const urls = JSON.parse(await firstLine);
		expect(urls.url).toBe(`http://127.0.0.1:${probe}`);
		expect(
			(await fetch(`${urls.listsBaseUrl}/lists`, { headers: { authorization: 'Bearer from-env' } }))
				.status,
		).toBe(200);
		const exit = exited(child);
		child.kill('SIGINT');
		expect(await exit).toEqual({ code: 0, signal: null });
	}, 120_000);

	it('loads wallet templates from --templates or SANDBOX_TEMPLATES and fails to start on a bad file', async () => {
		const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
		try {
			const file = path.join(dir, 'templates.json');
			writeFileSync(
				file,
				JSON.stringify([
					{
						serial: 'tpl-cli',
						name: 'From file',
						walletPayCompatible: true,
						creationDate: '2024-01-02T03:04:05Z',
					},
				]),
			);
			for (const [args, env] of [
				[['--templates', file], {}],
				[[], { SANDBOX_TEMPLATES: file }],
			] as Array<[string[], Record<string, string>]>) {
				const { child, firstLine } = startCli(args, env);
				const urls = JSON.parse(await firstLine);
				const res = await fetch(`${urls.walletBaseUrl}/v2/wallet/templates`, {
					headers: { authorization: 'Bearer sandbox-key' },
				});
				expect(((await res.json()) as { items: unknown[] }).items).toEqual([
					{
						serial: 'tpl-cli',
						name: 'From file',
						description: '',
						walletPayCompatible: true,
						creationDate: '2024-01-02T03:04:05.000Z',
					},
				]);
				const exit = exited(child);
				child.kill('SIGTERM');
				expect(await exit).toEqual({ code: 0, signal: null });
			}

			const bad = path.join(dir, 'bad.json');
			writeFileSync(bad, JSON.stringify({ serial: 'not-an-array' }));
			const child = spawn(
				process.execPath,
				['--import', 'tsx', 'test/sandbox/cli.tsx', '--templates', bad],
				{ cwd: ROOT },
			);
			let stderr = '';
			child.stderr.on('data', (chunk) => (stderr += chunk));
			const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
			expect(code).toBe(1);
			expect(stderr).toMatch(/must hold a JSON array of wallet templates/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, 120_000);

	it('passes the chat-app options and refuses invalid ones', async () => {
		const { child, firstLine } = startCli(
			['--quota-exceeded', 'status', '--callback-statuses', 'QUEUE, DEQUEUED, SENT'],
			{ SANDBOX_CALLBACK_MAX_ATTEMPTS: '2' },
		);
		const urls = JSON.parse(await firstLine);
		const settings = (await (await fetch(`${urls.url}/__sandbox/chatapp/config`)).json()) as any;
		expect(settings).toEqual(
			expect.objectContaining({
				quotaExceeded: 'status',
				callbackStatuses: ['QUEUE', 'DEQUEUED', 'SENT'],
				callbackMaxAttempts: 2,
				callbackDelayMs: 20,
			}),
		);
		const exit = exited(child);
		child.kill('SIGTERM');
		expect(await exit).toEqual({ code: 0, signal: null });

		const bad = spawn(
			process.execPath,
			['--import', 'tsx', 'test/sandbox/cli.tsx', '--quota-exceeded', 'drop'],
			{ cwd: ROOT },
		);
		let stderr = '';
		bad.stderr.on('data', (chunk) => (stderr += chunk));
		expect(await new Promise<number | null>((resolve) => bad.once('close', resolve))).toBe(1);
		expect(stderr).toMatch(
			/sandbox failed to start: quotaExceeded must be "reject" or "status" \(got "drop"\)/,
		);
	}, 120_000);

	it('passes --rate-limit-window and --rate-limit-burst (or SANDBOX_RATE_LIMIT_WINDOW and SANDBOX_RATE_LIMIT_BURST) and refuses invalid ones', async () => {
		for (const [args, env, expected] of [
			[
				['--rate-limit-window', 'sliding'],
				{},
				{ rateLimitWindow: 'sliding', rateLimitBurst: null },
			],
			[
				['--rate-limit-burst', '7'],
				{ SANDBOX_RATE_LIMIT_WINDOW: 'tokenBucket' },
				{ rateLimitWindow: 'tokenBucket', rateLimitBurst: 7 },
			],
			[[], { SANDBOX_RATE_LIMIT_BURST: '3' }, { rateLimitWindow: 'second', rateLimitBurst: 3 }],
		] as Array<[string[], Record<string, string>, Record<string, unknown>]>) {
			const { child, firstLine } = startCli(args, {
				SANDBOX_RATE_LIMIT_WINDOW: '',
				SANDBOX_RATE_LIMIT_BURST: '',
				...env,
			});
			const urls = JSON.parse(await firstLine);
			expect(await (await fetch(`${urls.url}/__sandbox/chatapp/config`)).json()).toEqual(
				expect.objectContaining(expected),
			);
			const exit = exited(child);
			child.kill('SIGTERM');
			expect(await exit).toEqual({ code: 0, signal: null });
		}

		for (const [args, message] of [
			[
				['--rate-limit-window', 'leaky'],
				/sandbox failed to start: rateLimitWindow must be one of "second", "sliding", "tokenBucket" \(got "leaky"\)/,
			],
			[
				['--rate-limit-burst', '0'],
				/sandbox failed to start: rateLimitBurst must be an integer >= 1, or null for the sender's rateLimit \(got 0\)/,
			],
		] as Array<[string[], RegExp]>) {
			const bad = spawn(process.execPath, ['--import', 'tsx', 'test/sandbox/cli.tsx', ...args], {
				cwd: ROOT,
			});
			let stderr = '';
			bad.stderr.on('data', (chunk) => (stderr += chunk));
			expect(await new Promise<number | null>((resolve) => bad.once('close', resolve))).toBe(1);
			expect(stderr).toMatch(message);
		}
	}, 120_000);
	it('passes --media-fetch (or SANDBOX_MEDIA_FETCH 1/true) and refuses another SANDBOX_MEDIA_FETCH', async () => {
		for (const [args, env, expected] of [
			[['--media-fetch'], {}, true],
			[[], { SANDBOX_MEDIA_FETCH: '1' }, true],
			[[], { SANDBOX_MEDIA_FETCH: 'true' }, true],
			[[], {}, false],
		] as Array<[string[], Record<string, string>, boolean]>) {
			const { child, firstLine } = startCli(args, { SANDBOX_MEDIA_FETCH: '', ...env });
			const urls = JSON.parse(await firstLine);
			const settings = (await (await fetch(`${urls.url}/__sandbox/chatapp/config`)).json()) as any;
			expect(settings.mediaFetch).toBe(expected);
			const exit = exited(child);
			child.kill('SIGTERM');
			expect(await exit).toEqual({ code: 0, signal: null });
		}
		const bad = spawn(process.execPath, ['--import', 'tsx', 'test/sandbox/cli.tsx'], {
			cwd: ROOT,
			env: { ...process.env, SANDBOX_MEDIA_FETCH: 'yes' },
		});
		let stderr = '';
		bad.stderr.on('data', (chunk) => (stderr += chunk));
		expect(await new Promise<number | null>((resolve) => bad.once('close', resolve))).toBe(1);
		expect(stderr).toMatch(
			/sandbox failed to start: SANDBOX_MEDIA_FETCH must be 1, true, 0 or false \(got "yes"\)/,
		);
	}, 120_000);
});
