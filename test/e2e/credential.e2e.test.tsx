/**
 * The API credential's Test button in a real n8n: the editor's request (POST
 * /rest/credentials/test) sent to a running n8n with the package installed, against the sandbox and
 * against a platform that implements only the spec. What n8n answers is what the user reads in the
 * credential panel.
 */
import { startSpecOnlyServer } from '../nodes/spec-only-server';
import type { SpecOnlyServer } from '../nodes/spec-only-server';
import { getRuntime, setUpOwner, startN8n } from './n8n-harness';
import type { RunningN8n } from './n8n-harness';
import { API_KEY, usePackageInN8n } from './package-setup';

jest.setTimeout(300_000);

const ctx = usePackageInN8n('am-e2e-credential-', () => []);
let n8n: RunningN8n;
let cookie: string;
let specOnly: SpecOnlyServer | undefined;

beforeAll(async () => {
	n8n = await startN8n(ctx.folder, { logLevel: 'debug' });
	cookie = await setUpOwner(n8n.url);
});

afterAll(async () => {
	await n8n?.stop();
});

afterEach(async () => {
	await specOnly?.close();
	specOnly = undefined;
});

/**
 * What the editor sends when the user presses Test: in n8n 2.x on a credential not saved yet (no
 * id). n8n 1.x tests saved credentials only (its editor saves, then tests; an unknown id is a 403):
 * there the credential is saved once, and each test sends its id with the data under test, which
 * 1.x tests as sent (the owner may edit it).
 */
let savedId: string | undefined;
async function testCredential(
	data: Record<string, unknown>,
): Promise<{ status: string; message: string }> {
	if (getRuntime().major < 2 && savedId === undefined) {
		const saved = await fetch(`${n8n.url}/rest/credentials`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({
				name: 'Audience Messaging',
				type: 'audienceMessagingApi',
				data: sandboxData(),
			}),
		});
		expect(saved.status).toBe(200);
		savedId = ((await saved.json()) as { data: { id: string } }).data.id;
		ctx.sandbox.clearRequests();
	}
	const response = await fetch(`${n8n.url}/rest/credentials/test`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({
			credentials: {
				id: savedId ?? '',
				name: 'Audience Messaging',
				type: 'audienceMessagingApi',
				data,
			},
		}),
	});
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: { status: string; message: string } }).data;
}

/**
 * What the credential panel says when a test fails. n8n 2.x shows the credential's own messages
 * (test.rules in credentials/AudienceMessagingApi.credentials.ts). n8n 1.x applies `responseCode`
 * rules only to errors that still carry the HTTP response (`error.cause.response`), and its
 * authenticated request helper has already wrapped the response in a NodeApiError: 1.x users read
 * n8n's generic texts for the same failures (2.x reads the NodeApiError's httpCode). Nothing a
 * package can change: the other way, a credentialTest method, has only the deprecated `request`
 * helper, which n8n's community-package scanner refuses.
 */
const rulesShown = getRuntime().major >= 2;
const failure = {
	refused: rulesShown
		? 'The platform refused the API key at the Wallet Base URL (HTTP 401): check that the key is correct, active and not expired'
		: 'Authorization failed - please check your credentials',
	notWallet: rulesShown
		? /^The Wallet Base URL does not answer like the platform's API \(HTTP 404\)/
		: /^The resource you are requesting could not be found$/,
	redirect: rulesShown
		? 'The Wallet Base URL redirects elsewhere (HTTP 307): put the final address in the credential'
		: 'Request failed with status code 307',
	unreachable: rulesShown
		? /ECONNREFUSED/
		: /^The service refused the connection - perhaps it is offline$/,
};

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
	expect(await testCredential(sandboxData())).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	const requests = ctx.sandbox.requests.map((r) => ({
		line: `${r.method} ${r.path}`,
		query: r.query,
		authorization: r.headers.authorization,
	}));
	expect(requests).toEqual([
		{
			line: 'GET /wallet/v2/wallet/templates',
			query: { limit: '1' },
			authorization: `Bearer ${API_KEY}`,
		},
	]);
});

it('accepts a Wallet Base URL typed with a trailing slash and spaces', async () => {
	expect(
		(await testCredential(sandboxData({ walletBaseUrl: ` ${ctx.sandbox.walletBaseUrl}/ ` })))
			.status,
	).toBe('OK');
	expect(ctx.sandbox.requests.map((r) => r.path)).toEqual(['/wallet/v2/wallet/templates']);
});

it('fails for a key the platform refuses, saying so without the key', async () => {
	const result = await testCredential(sandboxData({ apiKey: 'not-the-key-5e1f' }));
	expect(result).toEqual({ status: 'Error', message: failure.refused });
	expect(n8n.logs()).not.toContain('not-the-key-5e1f');
});

it('fails for a Wallet Base URL that is not the wallet API (404)', async () => {
	const result = await testCredential(
		sandboxData({ walletBaseUrl: `${ctx.sandbox.url}/not-wallet` }),
	);
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(failure.notWallet);
});

it('does not follow a redirect, so the key stays at the address given', async () => {
	ctx.sandbox.addFault({
		kind: 'redirect',
		path: '/wallet/',
		status: 307,
		location: `${ctx.sandbox.url}/steal`,
	});
	const result = await testCredential(sandboxData());
	expect(result).toEqual({ status: 'Error', message: failure.redirect });
	expect(ctx.sandbox.requests.map((r) => r.path)).toEqual(['/wallet/v2/wallet/templates']);
});

it('names an address nothing answers at', async () => {
	const result = await testCredential(sandboxData({ walletBaseUrl: 'http://127.0.0.1:9/wallet' }));
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(failure.unreachable);
});

it.each(['plain', 'json'] as const)(
	'passes against a platform that implements only the spec (unknown routes answer %s 404s)',
	async (notFound) => {
		specOnly = await startSpecOnlyServer({ apiKey: API_KEY, notFound });
		const data = {
			apiKey: API_KEY,
			listsBaseUrl: specOnly.listsBaseUrl,
			walletBaseUrl: specOnly.walletBaseUrl,
			baseUrl: specOnly.baseUrl,
		};
		expect(await testCredential(data)).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await testCredential({ ...data, apiKey: 'wrong-key' })).toEqual({
			status: 'Error',
			message: failure.refused,
		});
		expect((await testCredential({ ...data, walletBaseUrl: specOnly.baseUrl })).message).toMatch(
			failure.notWallet,
		);
		expect(specOnly.requests.every((r) => r.path.endsWith('/v2/wallet/templates'))).toBe(true);
	},
);

it("keeps the key out of n8n's own log, even at debug level", () => {
	expect(n8n.logs()).not.toContain(API_KEY);
});
