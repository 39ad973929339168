/**
 * The API credential's Test button in a real n8n: the editor's request (POST /rest/credentials/test)
 * sent to a running n8n with the package installed, against the sandbox and against a platform
 * that implements only the spec. What n8n answers is what the user reads in the credential panel.
 */
import { startSpecOnlyServer } from '../nodes/spec-only-server';
import type { SpecOnlyServer } from '../nodes/spec-only-server';
import { startN8n } from './n8n-harness';
import type { RunningN8n } from './n8n-harness';
import { API_KEY, usePackageInN8n } from './package-setup';

jest.setTimeout(300_000);

const ctx = usePackageInN8n('am-e2e-credential-', () => []);
let n8n: RunningN8n;
let cookie: string;
let specOnly: SpecOnlyServer | undefined;

beforeAll(async () => {
	n8n = await startN8n(ctx.folder, { logLevel: 'debug' });
	const owner = await fetch(`${n8n.url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: 'owner@example.com', firstName: 'E2E', lastName: 'Owner', password: 'E2e-owner-pass-1' }),
	});
	expect(owner.status).toBe(200);
	cookie = owner.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
});

afterAll(async () => {
	await n8n?.stop();
});

afterEach(async () => {
	await specOnly?.close();
	specOnly = undefined;
});

/** What the editor sends when the user presses Test on a credential not saved yet. */
async function testCredential(data: Record<string, unknown>): Promise<{ status: string; message: string }> {
	const response = await fetch(`${n8n.url}/rest/credentials/test`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({ credentials: { id: '', name: 'Audience Messaging', type: 'audienceMessagingApi', data } }),
	});
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: { status: string; message: string } }).data;
}

const sandboxData = (data: Record<string, unknown> = {}) => ({
	apiKey: API_KEY,
	listsBaseUrl: ctx.sandbox.listsBaseUrl,
	walletBaseUrl: ctx.sandbox.walletBaseUrl,
	baseUrl: ctx.sandbox.baseUrl,
	timeout: 60,
	...data,
});

beforeEach(() => ctx.sandbox.reset());

it('passes with one request of the spec, the wallet template list, carrying the key', async () => {
	expect(await testCredential(sandboxData())).toEqual({ status: 'OK', message: 'Connection successful!' });
	const requests = ctx.sandbox.requests.map((r) => ({ line: `${r.method} ${r.path}`, query: r.query, authorization: r.headers.authorization }));
	expect(requests).toEqual([{ line: 'GET /wallet/v2/wallet/templates', query: { limit: '1' }, authorization: `Bearer ${API_KEY}` }]);
});

it('accepts a Wallet Base URL typed with a trailing slash and spaces', async () => {
	expect((await testCredential(sandboxData({ walletBaseUrl: ` ${ctx.sandbox.walletBaseUrl}/ ` }))).status).toBe('OK');
	expect(ctx.sandbox.requests.map((r) => r.path)).toEqual(['/wallet/v2/wallet/templates']);
});

it('fails for a key the platform refuses, saying so without the key', async () => {
	const result = await testCredential(sandboxData({ apiKey: 'not-the-key-5e1f' }));
	expect(result).toEqual({ status: 'Error', message: 'The platform refused the API key at the Wallet Base URL (HTTP 401): check that the key is correct, active and not expired' });
	expect(n8n.logs()).not.toContain('not-the-key-5e1f');
});

it('fails for a Wallet Base URL that is not the wallet API (404)', async () => {
	const result = await testCredential(sandboxData({ walletBaseUrl: `${ctx.sandbox.url}/not-wallet` }));
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(/^The Wallet Base URL does not answer like the platform's API \(HTTP 404\)/);
});

it('does not follow a redirect, so the key stays at the address given', async () => {
	ctx.sandbox.addFault({ kind: 'redirect', path: '/wallet/', status: 307, location: `${ctx.sandbox.url}/steal` });
	const result = await testCredential(sandboxData());
	expect(result).toEqual({ status: 'Error', message: 'The Wallet Base URL redirects elsewhere (HTTP 307): put the final address in the credential' });
	expect(ctx.sandbox.requests.map((r) => r.path)).toEqual(['/wallet/v2/wallet/templates']);
});

it('names an address nothing answers at', async () => {
	const result = await testCredential(sandboxData({ walletBaseUrl: 'http://127.0.0.1:9/wallet' }));
	expect(result.status).toBe('Error');
	expect(result.message).toContain('ECONNREFUSED');
});

it.each(['plain', 'json'] as const)('passes against a platform that implements only the spec (unknown routes answer %s 404s)', async (notFound) => {
	specOnly = await startSpecOnlyServer({ apiKey: API_KEY, notFound });
	const data = { apiKey: API_KEY, listsBaseUrl: specOnly.listsBaseUrl, walletBaseUrl: specOnly.walletBaseUrl, baseUrl: specOnly.baseUrl };
	expect(await testCredential(data)).toEqual({ status: 'OK', message: 'Connection successful!' });
	expect((await testCredential({ ...data, apiKey: 'wrong-key' })).message).toMatch(/^The platform refused the API key at the Wallet Base URL \(HTTP 401\)/);
	expect((await testCredential({ ...data, walletBaseUrl: specOnly.baseUrl })).message).toMatch(/^The Wallet Base URL does not answer like the platform's API \(HTTP 404\)/);
	expect(specOnly.requests.every((r) => r.path.endsWith('/v2/wallet/templates'))).toBe(true);
});

it("keeps the key out of n8n's own log, even at debug level", () => {
	expect(n8n.logs()).not.toContain(API_KEY);
});
