/**
 * The README's way out for what the node does not cover: n8n's own HTTP Request node with
 * Authentication → Predefined Credential Type → Audience Messaging API, in a real n8n with the
 * package installed.
 *
 * At run time it works: a workflow of HTTP Request nodes using the credential reaches the sandbox
 * with the key as `Authorization: Bearer <key>`, like the node's own requests, without the key in
 * the output. The HTTP Request node (n8n-nodes-base.httpRequest) is a "full access" node (n8n-core
 * FULL_ACCESS_NODE_TYPES): it may use any credential type that is not `restrictToSupportedNodes`.
 *
 * In the editor it does not (n8n 2.40.7): the "Credential Type" list of that node takes the
 * credential types that `has:authenticate` in what n8n serves the editor (/types/credentials.json),
 * and n8n builds that from an own-property copy of the credential instance
 * (`{ ...credential }` in LoadNodesAndCredentials), whose toJSON turns a function `authenticate`
 * into `{}`. The credential declares `authenticate` as a class method, on the prototype, so the
 * copy has none and the list leaves "Audience Messaging API" out; a workflow pasted or imported with
 * these parameters still runs. Declaring it as a class field
 * (`authenticate = async (credentials, requestOptions) => ({ ... })`) puts it on the instance: then
 * n8n serves `authenticate: {}` and the editor lists the credential (checked by hand on a patched
 * copy of the package). The `httpRequestNode` property would not help: it only adds an "<name> HTTP
 * Request" entry to the nodes panel, and n8n hides it for a credential that a node of its package
 * uses (PackageDirectoryLoader.inferSupportedNodes). The editor test below asserts today's
 * behaviour and fails once the credential is listed: then update it and the README.
 */
import { AudienceMessagingApi } from '../../credentials/AudienceMessagingApi.credentials';
import { executeBatch, nodeItems, setUpOwner, startN8n } from './n8n-harness';
import type { RunningN8n } from './n8n-harness';
import {
	API_KEY,
	CREDENTIAL,
	chain,
	manualTrigger,
	nodeAt,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(300_000);

const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';

/** The parameters the README shows, around a method and URL. */
const viaCredential = (parameters: Record<string, unknown>) => ({
	authentication: 'predefinedCredentialType',
	nodeCredentialType: 'audienceMessagingApi',
	...parameters,
	options: {},
});

const httpNode = (
	name: string,
	i: number,
	typeVersion: number,
	parameters: Record<string, unknown>,
) => ({
	id: `http-${i}`,
	name,
	type: HTTP_REQUEST,
	typeVersion,
	position: nodeAt(i),
	credentials: CREDENTIAL,
	parameters,
});

const UNSUBSCRIBE = { to: '+33612345678', reason: 'UNSUBSCRIBED', type: 'SMS', from: 'ACME' };

/**
 * A GET on the Wallet Base URL with HTTP Request 4.2 (an older version, common in shared workflows),
 * then a JSON POST on the Messaging Base URL with 4.5 (what n8n 2.40.7 adds to a new workflow).
 */
const httpWorkflow = () => ({
	id: 'amE2eHttpCred1',
	name: 'e2e: HTTP Request node with the Audience Messaging credential',
	nodes: [
		manualTrigger,
		httpNode(
			'Templates',
			1,
			4.2,
			viaCredential({
				method: 'GET',
				url: `${ctx.sandbox.walletBaseUrl}/v2/wallet/templates?limit=1`,
			}),
		),
		httpNode(
			'Unsubscribe',
			2,
			4.5,
			viaCredential({
				method: 'POST',
				url: `${ctx.sandbox.baseUrl}/subscribers`,
				sendBody: true,
				specifyBody: 'json',
				jsonBody: JSON.stringify(UNSUBSCRIBE),
			}),
		),
	],
	connections: chain('Start', 'Templates', 'Unsubscribe'),
});

const ctx = usePackageInN8n('am-e2e-http-cred-', () => [httpWorkflow()]);

it('sends the key as a Bearer header from HTTP Request nodes using the credential, keeping it out of the output', async () => {
	const results = await executeBatch(ctx.folder, [httpWorkflow().id]);
	const result = results[httpWorkflow().id];
	expect(result.error).toBeUndefined();
	expect(result.status).toBe('success');
	const runData = result.runData!;

	const templates = nodeItems(runData, 'Templates').map((i) => i.json);
	expect(templates).toHaveLength(1);
	expect(templates[0].pagination).toEqual({ limit: 1, page: 1, pages: 3, total: 3 });
	expect((templates[0].items as Array<{ serial: string }>).map((t) => t.serial)).toEqual([
		'tpl-gold-member',
	]);
	expect(nodeItems(runData, 'Unsubscribe').map((i) => i.json.data)).toEqual([
		expect.objectContaining({ to: UNSUBSCRIBE.to, reason: UNSUBSCRIBE.reason }),
	]);
	expect(ctx.sandbox.isBlacklisted('ACME', 'SMS', UNSUBSCRIBE.to)).toBe(true);

	expect(
		ctx.sandbox.requests.map((r) => ({
			line: `${r.method} ${r.path}`,
			query: r.query,
			body: r.body,
			authorization: r.headers.authorization,
			status: r.status,
		})),
	).toEqual([
		{
			line: 'GET /wallet/v2/wallet/templates',
			query: { limit: '1' },
			body: undefined,
			authorization: `Bearer ${API_KEY}`,
			status: 200,
		},
		{
			line: 'POST /messaging/subscribers',
			query: {},
			body: UNSUBSCRIBE,
			authorization: `Bearer ${API_KEY}`,
			status: 200,
		},
	]);
	// Not in the items, nor anywhere else in the recorded run (node parameters, metadata).
	expect(JSON.stringify(results)).not.toContain(API_KEY);
});

describe('in the editor of a running n8n', () => {
	let n8n: RunningN8n | undefined;
	let cookie = '';

	beforeAll(async () => {
		n8n = await startN8n(ctx.folder);
		cookie = await setUpOwner(n8n.url);
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	/** One of the type files n8n serves the editor (behind the sign-in). */
	async function typeFile<T>(name: 'nodes' | 'credentials'): Promise<T[]> {
		const response = await fetch(`${n8n!.url}/types/${name}.json`, { headers: { cookie } });
		expect(response.status).toBe(200);
		return (await response.json()) as T[];
	}

	interface CredentialTypeJson {
		name: string;
		displayName: string;
		hidden?: boolean;
		restrictToSupportedNodes?: boolean;
		supportedNodes?: string[];
		genericAuth?: boolean;
		extends?: string[];
		httpRequestNode?: unknown;
		[key: string]: unknown;
	}

	interface NodeTypeJson {
		name: string;
		version: number | number[];
		properties: Array<{ name: string; credentialTypes?: string[] }>;
	}

	/**
	 * The editor's filter of a `credentialsSelect` parameter (n8n-editor-ui 2.40.7,
	 * ParameterInputList chunk): a type is listed when it is not hidden, not restricted to other
	 * nodes, and has one of the `has:` keys (not `authenticate` on a genericAuth type) or extends
	 * one of the `extends:` types, directly or through its parents.
	 */
	function listedBy(
		filter: string[],
		type: CredentialTypeJson,
		all: Map<string, CredentialTypeJson>,
		nodeType: string,
	): boolean {
		if (type.hidden || (type.restrictToSupportedNodes && !type.supportedNodes?.includes(nodeType)))
			return false;
		const has = filter.filter((f) => f.startsWith('has:')).map((f) => f.slice(4));
		const extendsOf = filter.filter((f) => f.startsWith('extends:')).map((f) => f.slice(8));
		for (const key of has) {
			if (type[key] === undefined) continue;
			if (key === 'authenticate' && type.genericAuth === true) continue;
			return true;
		}
		const parents = type.extends ?? [];
		if (parents.some((p) => extendsOf.includes(p))) return true;
		return parents.some((p) => {
			const parent = all.get(p);
			return parent !== undefined && listedBy(filter, parent, all, nodeType);
		});
	}

	it('lists Audience Messaging API under the HTTP Request node’s Predefined Credential Type (its authenticate is an own field)', async () => {
		const credentials = await typeFile<CredentialTypeJson>('credentials');
		const byName = new Map(credentials.map((c) => [c.name, c]));
		const ours = byName.get('audienceMessagingApi')!;
		expect(ours).toMatchObject({ displayName: 'Audience Messaging API' });
		expect(ours.supportedNodes).toEqual(['n8n-nodes-audience-messaging.audienceMessaging']);
		expect(ours.restrictToSupportedNodes).toBeUndefined();
		expect(ours.hidden).toBeUndefined();
		expect(ours.httpRequestNode).toBeUndefined();
		// Why: n8n serves a copy of the credential's own fields; a method (on the prototype) is lost.
		expect(Object.keys(ours)).toContain('authenticate');
		expect(Object.hasOwn(new AudienceMessagingApi(), 'authenticate')).toBe(true);
		expect(typeof new AudienceMessagingApi().authenticate).toBe('function');
		// The filter's controls: n8n's Slack API credential (a Bearer header too, by a generic
		// authenticate) is listed; its generic Bearer Auth is not (genericAuth: Generic Credential Type).
		const slack = byName.get('slackApi')!;
		const bearer = byName.get('httpBearerAuth')!;
		expect(slack.authenticate).toMatchObject({ type: 'generic' });
		expect(bearer).toMatchObject({ genericAuth: true, authenticate: { type: 'generic' } });

		const nodes = await typeFile<NodeTypeJson>('nodes');
		for (const version of [4.2, 4.5]) {
			const description = nodes.find(
				(n) =>
					n.name === HTTP_REQUEST &&
					(Array.isArray(n.version) ? n.version : [n.version]).includes(version),
			)!;
			expect(description).toBeDefined();
			const filter = description.properties.find(
				(p) => p.name === 'nodeCredentialType',
			)!.credentialTypes!;
			expect(filter).toEqual(['extends:oAuth2Api', 'extends:oAuth1Api', 'has:authenticate']);
			expect(listedBy(filter, slack, byName, HTTP_REQUEST)).toBe(true);
			expect(listedBy(filter, bearer, byName, HTTP_REQUEST)).toBe(false);
			expect(listedBy(filter, ours, byName, HTTP_REQUEST)).toBe(true);
			// Without `authenticate` in the served data (a method), it would not be listed.
			const asMethod = { ...ours };
			delete asMethod.authenticate;
			expect(listedBy(filter, asMethod, byName, HTTP_REQUEST)).toBe(false);
		}
	});
});
