import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { HarnessCredentials } from '../helpers/n8n';
import { callCredentialTest } from '../helpers/n8n';
import { API_KEY, credentialsFor, node, useSandbox } from './context';
import { startSpecOnlyServer } from './spec-only-server';
import type { SpecOnlyServer } from './spec-only-server';

const ctx = useSandbox();
const test = async (credentials: HarnessCredentials) => await callCredentialTest(node, 'audienceMessagingApiTest', credentials);
const withData = (credentials: HarnessCredentials, data: ICredentialDataDecryptedObject): HarnessCredentials => ({ ...credentials, data: { ...credentials.data, ...data } });

describe('credential test against the sandbox', () => {
	it('passes with requests of the spec only, one per base URL plus the not-found controls', async () => {
		const result = await test(ctx.credentials);
		expect(result).toEqual({ status: 'OK', message: 'The API key works at all three base URLs' });
		const paths = ctx.sandbox.requests.map((r) => `${r.method} ${r.path}`).sort();
		expect(paths).toEqual(
			[
				'GET /audience/v3/lists/2147483647',
				'GET /audience/v3/lists/2147483647/__credential-test-no-such-route',
				'GET /messaging/__credential-test-no-such-route',
				'GET /messaging/subscribers',
				'GET /wallet/v2/wallet/templates',
			].sort(),
		);
		expect(ctx.sandbox.requests.every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
		expect(ctx.sandbox.requests.some((r) => r.path === '/audience/v3/lists')).toBe(false);
	});

	it('names every wrong URL in one message', async () => {
		const wrong = withData(ctx.credentials, {
			listsBaseUrl: `${ctx.sandbox.url}/audience`,
			walletBaseUrl: `${ctx.sandbox.url}/not-wallet`,
			baseUrl: ctx.sandbox.listsBaseUrl,
		});
		const result = await test(wrong);
		expect(result.status).toBe('Error');
		expect(result.message).toContain(`Lists Base URL (${ctx.sandbox.url}/audience) does not answer like the platform's API`);
		expect(result.message).toContain(`the Wallet Base URL (${ctx.sandbox.url}/not-wallet) does not answer like the platform's API (HTTP 404`);
		expect(result.message).toContain(`the Messaging Base URL (${ctx.sandbox.listsBaseUrl}) does not answer like the platform's API (HTTP 404`);
	});

	it('names an unreachable base URL and still checks the others', async () => {
		const result = await test(withData(ctx.credentials, { baseUrl: 'http://127.0.0.1:9/messaging' }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The Messaging Base URL \(http:\/\/127\.0\.0\.1:9\/messaging\) could not be reached/);
		expect(result.message).not.toContain('Lists Base URL');
		expect(ctx.sandbox.requests.some((r) => r.path === '/wallet/v2/wallet/templates')).toBe(true);
	});

	it('refuses a URL without http(s) before any request', async () => {
		const result = await test(withData(ctx.credentials, { walletBaseUrl: 'ftp://example.com/wallet' }));
		expect(result.message).toContain('Wallet Base URL must start with http:// or https://');
		expect(ctx.sandbox.requests.some((r) => r.path.includes('wallet'))).toBe(false);
	});

	it('does not follow a redirect, so the key stays at the address given', async () => {
		ctx.sandbox.addFault({ kind: 'redirect', path: '/wallet/', status: 307, location: 'http://127.0.0.1:9/steal' });
		const result = await test(ctx.credentials);
		expect(result.status).toBe('Error');
		expect(result.message).toContain('Wallet Base URL');
		expect(result.message).toContain('redirects to http://127.0.0.1:9/steal');
	});
});

describe('credential test against a platform that implements only the spec', () => {
	let server: SpecOnlyServer;
	afterEach(async () => await server.close());
	const credentialsOf = (s: SpecOnlyServer, data: ICredentialDataDecryptedObject = {}): HarnessCredentials => ({
		...credentialsFor(ctx.sandbox, API_KEY),
		data: { apiKey: API_KEY, listsBaseUrl: s.listsBaseUrl, walletBaseUrl: s.walletBaseUrl, baseUrl: s.baseUrl, ...data },
	});

	it.each(['plain', 'json'] as const)('passes for the right key and URLs (unknown routes answer %s 404s)', async (notFound) => {
		server = await startSpecOnlyServer({ apiKey: API_KEY, notFound });
		expect(await test(credentialsOf(server))).toEqual({ status: 'OK', message: 'The API key works at all three base URLs' });
	});

	it.each(['plain', 'json'] as const)('fails for each wrong URL, naming it (unknown routes answer %s 404s)', async (notFound) => {
		server = await startSpecOnlyServer({ apiKey: API_KEY, notFound });
		const lists = await test(credentialsOf(server, { listsBaseUrl: `${server.url}/api/lists-service` }));
		expect(lists.status).toBe('Error');
		expect(lists.message).toContain(`Lists Base URL (${server.url}/api/lists-service) does not answer like the platform's API`);
		const messaging = await test(credentialsOf(server, { baseUrl: server.listsBaseUrl }));
		expect(messaging.status).toBe('Error');
		expect(messaging.message).toContain(`Messaging Base URL (${server.listsBaseUrl}) does not answer like the platform's API`);
		const wallet = await test(credentialsOf(server, { walletBaseUrl: server.baseUrl }));
		expect(wallet.message).toContain(`Wallet Base URL (${server.baseUrl}) does not answer like the platform's API (HTTP 404`);
	});

	it('fails for a wrong key, naming each URL', async () => {
		server = await startSpecOnlyServer({ apiKey: API_KEY });
		const result = await test(credentialsOf(server, { apiKey: 'wrong-key' }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^The platform refused the API key at the Lists Base URL \(HTTP 401: bad token\)/);
		expect(result.message).toContain('Messaging Base URL (HTTP 401');
	});
});
