/**
 * The trigger's webhook handler against requests as n8n hands them over (raw body not parsed,
 * see the node's hidden "options" parameter), with a real ServerResponse-like recorder.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { AudienceMessagingTrigger } from '../../nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node';
import { normaliseEvent, secretMatches } from '../../src/callbacks';

const SECRET = 'a1b2c3d4e5f6a7b8c9d0';
const trigger = new AudienceMessagingTrigger();

interface Call {
	webhookName?: 'default' | 'setup';
	pathSecret?: string;
	body?: string | Buffer;
	headers?: Record<string, string>;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, unknown>;
}

async function call({ webhookName = 'default', pathSecret, body = '', headers = {}, parameters = {}, credentials }: Call) {
	const raw = Buffer.isBuffer(body) ? body : Buffer.from(body);
	const response = { status: 0, headers: {} as Record<string, string>, body: '' };
	const params: Record<string, unknown> = { secret: SECRET, events: 'any', statuses: [], authentication: 'none', ...parameters };
	const context = {
		getRequestObject: () => ({ headers: { 'content-length': String(raw.length), ...headers }, rawBody: raw }),
		getResponseObject: () => ({
			writeHead: (status: number, head: Record<string, string>) => Object.assign(response, { status, headers: head }),
			end: (text: string) => Object.assign(response, { body: text }),
		}),
		getNodeParameter: (name: string, fallback?: unknown) => params[name] ?? fallback,
		getWebhookName: () => webhookName,
		getParamsData: () => ({ secret: pathSecret }),
		getCredentials: async () => {
			if (!credentials) throw new Error('no credentials');
			return credentials;
		},
	} as unknown as IWebhookFunctions;
	const result = await trigger.webhook.call(context);
	return { result, response };
}

const event = { id: 'msg_1', from: '15550100100', to: '+33612345678', externalId: 'ref1', campaignId: null, callback: 'https://x', date: '2026-11-21T21:05:24.123Z', status: 'SENT' };

describe('secret', () => {
	it('starts the workflow for the right secret, one item per event with normalised fields', async () => {
		const { result } = await call({ body: JSON.stringify(event) });
		expect(result.workflowData?.[0]).toEqual([
			{ json: { ...event, messageId: 'msg_1', status: 'SENT', to: '+33612345678', from: '15550100100', externalId: 'ref1', date: '2026-11-21T21:05:24.123Z' } },
		]);
	});

	it('answers 401 and starts nothing for a wrong secret on the catch-all path', async () => {
		const { result, response } = await call({ webhookName: 'setup', pathSecret: 'not-the-secret-0000', body: JSON.stringify(event) });
		expect(result).toEqual({ noWebhookResponse: true });
		expect(response.status).toBe(401);
		expect(response.body).toContain('Unknown callback secret');
	});

	it('answers 401 when the node has no usable secret', async () => {
		const { response } = await call({ parameters: { secret: 'short' }, body: JSON.stringify(event) });
		expect(response.status).toBe(401);
	});

	it('compares in constant time and only equal secrets match', () => {
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
		expect((await call({ body: big, headers: { 'content-length': '10' } })).response.status).toBe(413);
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
		const filtered = await call({ parameters: { events: 'selected', statuses: ['BLACKLISTED'] }, body: JSON.stringify(event) });
		expect(filtered.result).toEqual({ noWebhookResponse: true });
		expect(filtered.response.status).toBe(200);
		const kept = await call({ parameters: { events: 'selected', statuses: ['SENT'] }, body: JSON.stringify(event) });
		expect(kept.result.workflowData?.[0]).toHaveLength(1);
		const unknown = await call({ body: JSON.stringify({ ...event, status: 'SOMETHING_NEW' }) });
		expect(unknown.result.workflowData?.[0][0].json.status).toBe('SOMETHING_NEW');
	});
});

describe('optional authentication', () => {
	it('checks Basic and Header credentials on top of the secret', async () => {
		const basic = `Basic ${Buffer.from('cb:pw').toString('base64')}`;
		const ok = await call({ parameters: { authentication: 'basicAuth' }, credentials: { user: 'cb', password: 'pw' }, headers: { authorization: basic }, body: JSON.stringify(event) });
		expect(ok.result.workflowData).toBeDefined();
		const bad = await call({ parameters: { authentication: 'basicAuth' }, credentials: { user: 'cb', password: 'pw' }, headers: { authorization: 'Basic eA==' }, body: JSON.stringify(event) });
		expect(bad.response.status).toBe(401);
		const header = await call({ parameters: { authentication: 'headerAuth' }, credentials: { name: 'X-Token', value: 't0k' }, headers: { 'x-token': 't0k' }, body: JSON.stringify(event) });
		expect(header.result.workflowData).toBeDefined();
	});
});

describe('normaliseEvent', () => {
	it('tolerates other field names and epoch dates', () => {
		expect(normaliseEvent({ messageId: 7, state: 'delivered', destination: '+1555', timestamp: 1_700_000_000 })).toMatchObject({
			messageId: '7',
			status: 'DELIVERED',
			to: '+1555',
			from: null,
			externalId: null,
			date: '2023-11-14T22:13:20.000Z',
		});
	});
});
