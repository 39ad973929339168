/**
 * The trigger's webhook handler against requests as n8n hands them over (raw body not parsed,
 * see the node's hidden "options" parameter), with a real ServerResponse-like recorder.
 */
import type { INodeParameters, IWebhookFunctions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AudienceMessagingTrigger } from '../../../../nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node';
import {
	callbackToken,
	callbackUrlWithToken,
	normaliseEvent,
	secretMatches,
} from '../../../../src/platform/callbacks';
import { paceToken } from '../../../../src/pace/board';

const SECRET = 'a1b2c3d4e5f6a7b8c9d0';
const TOKEN = callbackToken(SECRET);
const trigger = new AudienceMessagingTrigger();

interface Call {
	/** The query's token (null: none); default the token of SECRET. */
	token?: unknown;
	/** The Callbacks credential's secret; undefined: no credential. */
	secret?: string | null;
	body?: string | Buffer;
	headers?: Record<string, string>;
	parameters?: Record<string, unknown>;
	/** The webhook of the node called (default: the callbacks'). */
	webhook?: string;
	/** The trigger node's id (default: a new one per call, so no event is a repeat). */
	node?: string;
	/** n8n's execution mode ('manual': the editor's Listen for Test Event). */
	mode?: string;
}

let calls = 0;

async function call({
	token = TOKEN,
	secret = SECRET,
	body = '',
	headers = {},
	parameters = {},
	webhook = 'default',
	node = `trigger-${++calls}`,
	mode = 'webhook',
}: Call) {
	const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
	const response = { status: 0, headers: {} as Record<string, string>, body: '' };
	const params: Record<string, unknown> = { events: 'any', statuses: [], ...parameters };
	const context = {
		getRequestObject: () => ({
			headers: { 'content-length': String(raw.length), ...headers },
			rawBody: raw,
		}),
		getResponseObject: () => ({
			writeHead: (status: number, head: Record<string, string>) =>
				Object.assign(response, { status, headers: head }),
			end: (text: string) => Object.assign(response, { body: text }),
		}),
		getNodeParameter: (name: string, fallback?: unknown) => params[name] ?? fallback,
		getWebhookName: () => webhook,
		getMode: () => mode,
		getWorkflow: () => ({ id: 'wfTrigger' }),
		getNode: () => ({ id: node, name: 'Audience Messaging Trigger' }),
		getQueryData: () => (token === null ? {} : { token }),
		getCredentials: async (type: string) => {
			if (type === 'audienceMessagingCallbackApi') {
				if (secret === null) throw new Error('no credentials');
				return { secret };
			}
			throw new Error(`the trigger asked for a credential of type ${type}`);
		},
	} as unknown as IWebhookFunctions;
	const result = await trigger.webhook.call(context);
	return { result, response };
}

const event = {
	id: 'msg_1',
	from: '15550100100',
	to: '+33612345678',
	externalId: 'ref1',
	campaignId: null,
	callback: 'https://x',
	date: '2026-11-21T21:05:24.123Z',
	status: 'SENT',
};

describe('token', () => {
	it('starts the workflow for the right token, one item per event with normalised fields, answered with a small JSON body', async () => {
		const { result } = await call({ body: JSON.stringify(event) });
		expect(result.workflowData?.[0]).toEqual([
			{
				json: {
					...event,
					messageId: 'msg_1',
					status: 'SENT',
					to: '+33612345678',
					from: '15550100100',
					externalId: 'ref1',
					date: '2026-11-21T21:05:24.123Z',
				},
			},
		]);
		expect(result.webhookResponse).toEqual({ received: 1, started: 1 });
	});

	it.each([
		['a wrong token', { token: callbackToken('another-secret-0000') }],
		['the secret itself instead of its token', { token: SECRET }],
		['no token', { token: null }],
		['a token that is not text', { token: [TOKEN] }],
		['no Callbacks credential', { secret: null }],
		[
			'a credential secret that breaks the rule',
			{ secret: 'short', token: callbackToken('short') },
		],
	])('answers 401 and starts nothing for %s', async (_name, overrides) => {
		const { result, response } = await call({ body: JSON.stringify(event), ...overrides });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(response.status).toBe(401);
		expect(response.body).toContain('Unknown callback token');
		expect(response.body).not.toContain(SECRET);
	});

	it('takes the token out of the events, which echo the callback URL', async () => {
		const { result } = await call({
			body: JSON.stringify({
				...event,
				callback: `https://n8n.example.com/webhook/x/callbacks?token=${TOKEN}`,
			}),
		});
		const [item] = result.workflowData?.[0] ?? [];
		expect(item.json.callback).toBe('https://n8n.example.com/webhook/x/callbacks?token=***');
		expect(JSON.stringify(result)).not.toContain(TOKEN);
	});

	it('derives a URL-safe token that is not the secret, and puts it in the query of the trigger URL', () => {
		expect(TOKEN).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(TOKEN).not.toContain(SECRET);
		expect(callbackToken(SECRET)).toBe(TOKEN);
		expect(callbackToken(`${SECRET}x`)).not.toBe(TOKEN);
		expect(callbackUrlWithToken('https://n8n.example.com/webhook/abc/callbacks', SECRET)).toBe(
			`https://n8n.example.com/webhook/abc/callbacks?token=${TOKEN}`,
		);
	});

	it('compares in constant time and only equal values match', () => {
		expect(secretMatches(SECRET, SECRET)).toBe(true);
		expect(secretMatches(`${SECRET}x`, SECRET)).toBe(false);
		expect(secretMatches(undefined, SECRET)).toBe(false);
	});
});

describe('bodies', () => {
	it('refuses malformed JSON with 400', async () => {
		const { result, response } = await call({ body: '{"id": "msg_1",' });
		expect(result.workflowData).toBeUndefined();
		expect(response.status).toBe(400);
		expect(response.body).toContain('Malformed JSON');
	});

	it('refuses a body over 256 KB with 413, by its declared length or its real size', async () => {
		const big = JSON.stringify({ ...event, padding: 'x'.repeat(300 * 1024) });
		expect((await call({ body: big })).response.status).toBe(413);
		expect((await call({ body: big, headers: { 'content-length': '10' } })).response.status).toBe(
			413,
		);
	});

	it('accepts an array of events', async () => {
		const { result } = await call({ body: JSON.stringify([event, { ...event, status: 'READ' }]) });
		expect(result.workflowData?.[0].map((item) => item.json.status)).toEqual(['SENT', 'READ']);
	});

	it('refuses a JSON value that is not an event', async () => {
		expect((await call({ body: '"hello"' })).response.status).toBe(400);
		expect((await call({ body: '' })).response.status).toBe(400);
	});
});

describe('status filter', () => {
	it('drops events of other statuses with 200 and passes unknown statuses under "any"', async () => {
		const filtered = await call({
			parameters: { events: 'selected', statuses: ['BLACKLISTED'] },
			body: JSON.stringify(event),
		});
		expect(filtered.result).toEqual({ webhookResponse: { received: 1, started: 0 } });
		const kept = await call({
			parameters: { events: 'selected', statuses: ['SENT'] },
			body: JSON.stringify(event),
		});
		expect(kept.result.workflowData?.[0]).toHaveLength(1);
		const unknown = await call({ body: JSON.stringify({ ...event, status: 'SOMETHING_NEW' }) });
		expect(unknown.result.workflowData?.[0][0].json.status).toBe('SOMETHING_NEW');
	});
});

describe('repeats', () => {
	const started = async (overrides: Call) =>
		((await call(overrides)).result.webhookResponse as { started: number; repeated?: number })
			.started;

	it('starts nothing for an event posted again (its first answer came late), answering 200 with the count', async () => {
		const body = JSON.stringify(event);
		expect((await call({ body, node: 'repeat-a' })).result.webhookResponse).toEqual({
			received: 1,
			started: 1,
		});
		const again = await call({ body, node: 'repeat-a' });
		expect(again.result).toEqual({ webhookResponse: { received: 1, started: 0, repeated: 1 } });
		expect(again.response.status).toBe(0);
	});

	it('keeps what differs: another status, date or message, another trigger node, an event without id, a test run', async () => {
		await call({ body: JSON.stringify(event), node: 'repeat-b' });
		for (const other of [
			{ ...event, status: 'DELIVERED' },
			{ ...event, date: '2026-11-21T21:05:25.000Z' },
			{ ...event, id: 'msg_2' },
		])
			expect(await started({ body: JSON.stringify(other), node: 'repeat-b' })).toBe(1);
		expect(await started({ body: JSON.stringify(event), node: 'repeat-c' })).toBe(1);
		const anonymous = JSON.stringify({ to: '+33612345678', status: 'SENT' });
		expect(await started({ body: anonymous, node: 'repeat-b' })).toBe(1);
		expect(await started({ body: anonymous, node: 'repeat-b' })).toBe(1);
		expect(await started({ body: JSON.stringify(event), node: 'repeat-b', mode: 'manual' })).toBe(
			1,
		);
	});

	it('drops a repeat within one body and keeps the others of it', async () => {
		const { result } = await call({
			body: JSON.stringify([event, event, { ...event, status: 'READ' }]),
			node: 'repeat-d',
		});
		expect(result.webhookResponse).toEqual({ received: 3, started: 2, repeated: 1 });
		expect(result.workflowData?.[0].map((item) => item.json.status)).toEqual(['SENT', 'READ']);
	});
});

describe('the token alone decides', () => {
	it('an Authorization header neither lets a wrong token in nor keeps the right one out', async () => {
		const basic = `Basic ${Buffer.from('cb:pw').toString('base64')}`;
		const wrong = await call({
			token: 'x'.repeat(43),
			headers: { authorization: basic },
			body: JSON.stringify(event),
		});
		expect(wrong.response.status).toBe(401);
		expect(wrong.result.workflowData).toBeUndefined();
		const right = await call({
			headers: { authorization: 'Basic eA==' },
			body: JSON.stringify(event),
		});
		expect(right.result.workflowData?.[0]).toHaveLength(1);
	});

	it("the trigger asks for this package's Callbacks credential only", () => {
		expect(trigger.description.credentials?.map((credential) => credential.name)).toEqual([
			'audienceMessagingCallbackApi',
		]);
		expect(trigger.description.properties.map((property) => property.name)).not.toContain(
			'authentication',
		);
	});
});

describe('type versions', () => {
	// The parameters n8n stores for a new node of each version, as its editor does.
	const stored = (typeVersion: number) =>
		NodeHelpers.getNodeParameters(
			trigger.description.properties,
			{},
			true,
			false,
			{ typeVersion } as never,
			trigger.description,
		) as INodeParameters;

	it('makes version 2 for a new node, and keeps version 1 for the workflows made with it', () => {
		expect(trigger.description.version).toEqual([1, 2]);
		expect(trigger.description.defaultVersion).toBe(2);
	});

	it('asks n8n for the body unread in version 1 only: in version 2 n8n parses it, evaluating no expression per request', () => {
		expect(stored(1)).toMatchObject({ events: 'any', options: { binaryData: true } });
		expect(stored(2)).toMatchObject({ events: 'any' });
		expect(stored(2)).not.toHaveProperty('options');
	});
});

describe('normaliseEvent', () => {
	it('tolerates other field names and epoch dates', () => {
		expect(
			normaliseEvent({
				messageId: 7,
				state: 'delivered',
				destination: '+1555',
				timestamp: 1_700_000_000,
			}),
		).toMatchObject({
			messageId: '7',
			status: 'DELIVERED',
			to: '+1555',
			from: null,
			externalId: null,
			date: '2023-11-14T22:13:20.000Z',
		});
	});
});

describe('publishing (webhookMethods.create)', () => {
	const create = async (parameters: Record<string, unknown>, secret: string | null = SECRET) => {
		const context = {
			getNode: () => ({
				name: 'Trigger',
				type: 'n8n-nodes-audience-messaging.audienceMessagingTrigger',
				typeVersion: 1,
				parameters: {},
			}),
			getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
			getCredentials: async () => {
				if (secret === null) throw new Error('no credentials');
				return { secret };
			},
		};
		return await trigger.webhookMethods.default.create.call(context as never);
	};

	it('refuses Only Selected Statuses with no status picked, naming the problem', async () => {
		await expect(create({ events: 'selected', statuses: [] })).rejects.toThrow(
			'No status selected',
		);
		await expect(create({ events: 'selected' })).rejects.toThrow('No status selected');
	});

	it('accepts Any Status, or selected statuses, with a usable secret; refuses a short secret', async () => {
		await expect(create({ events: 'any' })).resolves.toBe(true);
		await expect(create({ events: 'selected', statuses: ['SENT'] })).resolves.toBe(true);
		await expect(create({ events: 'any' }, 'short')).rejects.toThrow('16 to 128');
	});

	it('marks Statuses required, so the editor flags an empty choice before publishing', () => {
		expect(
			trigger.description.properties.find((property) => property.name === 'statuses')?.required,
		).toBe(true);
	});
});

describe("the pace webhook (Message › Send's Share Pace Across Workers)", () => {
	const PACE = paceToken(SECRET);
	const key = `https://api.example.com sender-${Math.random()}`;
	const pace = async (overrides: Partial<Call> = {}, token: string | null = PACE) =>
		await call({
			webhook: 'setup',
			token: null,
			body: JSON.stringify({ key, perSecond: 20, count: 5 }),
			...overrides,
			headers: { ...(token === null ? {} : { 'x-pace-token': token }), ...overrides.headers },
		});

	it('answers the turns of the board of this process, starts nothing, and the next asker gets the turns after them', async () => {
		const asked = Date.now();
		const first = await pace();
		expect(first.result).toEqual({ noWebhookResponse: true });
		expect(first.response.status).toBe(200);
		expect(first.response.headers['Cache-Control']).toBe('no-store');
		const grant = JSON.parse(first.response.body) as {
			delayMs: number;
			spacingMs: number;
			count: number;
			at: number;
		};
		expect(grant).toEqual({
			delayMs: expect.any(Number),
			spacingMs: 1000 / 19,
			count: 5,
			board: expect.any(String),
			boards: 1,
			runs: 1,
			// The board's clock when it gave them: the run times the turns from it.
			at: expect.any(Number),
		});
		expect(grant.at).toBeGreaterThanOrEqual(asked);
		expect(grant.at).toBeLessThanOrEqual(Date.now());
		expect(grant.delayMs).toBeLessThan(5);
		const second = JSON.parse((await pace()).response.body) as { delayMs: number };
		expect(second.delayMs).toBeGreaterThan(4 * (1000 / 19));
	});

	it.each<[string, Partial<Call>, string | null]>([
		["the callbacks' token (the platform sees it)", {}, TOKEN],
		['no token', {}, null],
		['the pace token in the URL, not in its header', { token: PACE }, null],
		['no Callbacks credential', { secret: null }, PACE],
	])('answers 401 for %s', async (_name, overrides, token) => {
		const { result, response } = await pace(overrides, token);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(response.status).toBe(401);
		expect(response.body).toBe('{"error":"Unknown pace token"}');
	});

	it('answers 400 to a request that does not fit', async () => {
		const { response } = await pace({ body: JSON.stringify({ key, perSecond: 20, count: 0 }) });
		expect(response.status).toBe(400);
		expect(response.body).toContain('count must be a whole number from 1 to 100');
	});

	it('answers 413 to a body declared over 4 KB, before reading it', async () => {
		const { response } = await pace({ headers: { 'content-length': '5000' } });
		expect(response.status).toBe(413);
		expect(response.body).toContain('Pace request body over 4096 bytes');
	});

	it('does not take a pace request on the callbacks webhook', async () => {
		const { response } = await call({
			token: PACE,
			body: JSON.stringify({ key, perSecond: 20, count: 5 }),
		});
		expect(response.status).toBe(401);
	});
});
