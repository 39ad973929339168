import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters } from 'n8n-workflow';

import { runAsTool, runNode } from '../helpers/n8n';
import { API_KEY, node, useSandbox } from './context';

const ctx = useSandbox();

const SENDER = '15550100100';
const USER = '+33612345678';

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

const checkTool: INodeParameters = {
	resource: 'blacklist',
	operation: 'check',
	channel: 'SMS',
	from: 'ACME',
	to: fromAI('to', 'the recipient phone number'),
};
const sendTool = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'message',
	operation: 'send',
	messageType: 'text',
	from: '+1 555 010 0100',
	to: fromAI('to', 'the recipient phone number'),
	text: fromAI('text', 'the message'),
	...extra,
});

/**
 * The tool's answer to a failed call: one item with the error, as the model reads it (the tool
 * answers rather than throws: n8n's AI Agent 2 gave the model an empty answer for a thrown error).
 */
function answeredError(call: { result?: string; error?: string }): {
	error: string;
	description?: string;
} {
	expect(call.error).toBeUndefined();
	const items = JSON.parse(call.result!) as Array<{ error: string; description?: string }>;
	expect(items).toHaveLength(1);
	return items[0];
}

/** What a model must be able to act on: the argument, no editor item numbers or advice. */
function expectAgentError(call: { result?: string; error?: string }, argument: string): string {
	const { error, description } = answeredError(call);
	expect(error).toMatch(new RegExp(`^Invalid argument "${argument}": `));
	expect(`${error} ${description}`).not.toMatch(/\bitem \d|run the node|Fix the|\bin item\b/);
	expect(description).toBe('Nothing was sent. Call the tool again with a corrected value.');
	expect(call.result).not.toContain(API_KEY);
	return error;
}

describe('as an AI agent tool (n8n-core createNodeAsTool, called as an agent calls it)', () => {
	it('offers the arguments of its $fromAI() fields and answers a good call from the platform', async () => {
		const { tool, calls, error } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: checkTool,
			calls: [{ to: '+33 6 12 34 56 78' }],
		});
		expect(error).toBeUndefined();
		expect(tool.description).toBe('Check whether a recipient is blacklisted in Audience Messaging');
		expect(Object.keys((tool.schema as { shape: object }).shape)).toEqual(['to']);
		expect(JSON.parse(calls[0].result!)).toEqual([
			{ blacklisted: false, to: '+33612345678', from: 'ACME', type: 'SMS' },
		]);
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(ctx.sandbox.requests[0].query).toMatchObject({ to: '+33612345678', from: 'ACME' });
	});

	it('names the argument and what it takes when the model gives a bad value, and sends nothing; the next good call goes through', async () => {
		const { calls } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: checkTool,
			calls: [{ to: 'nope' }, { to: '+33612345678' }],
		});
		const error = expectAgentError(calls[0], 'to');
		expect(error).toContain('"nope" is not a phone number: it contains letters. Expected: ');
		expect(error).toContain('phone number with country code');
		expect(calls[1].result).toContain('"blacklisted":false');
		expect(ctx.sandbox.requests).toHaveLength(1);
	});

	it('names an argument inside Options, and one reached through the message schema (location latitude), with its range', async () => {
		ctx.sandbox.seedSender(
			{ providerId: 'prov-1', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
			{ active: true },
		);
		ctx.sandbox.simulateInbound(USER, SENDER);
		const external = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: sendTool({
				options: { externalId: fromAI('reference', 'your reference for the message') },
			}),
			calls: [{ to: USER, text: 'Hi', reference: 'has space' }],
		});
		expect(expectAgentError(external.calls[0], 'reference')).toContain(
			'Expected: Your own ID for reporting; letters and digits only, at most 64',
		);

		const location = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: sendTool({
				messageType: 'location',
				text: undefined,
				latitude: fromAI('lat', 'latitude', 'number'),
				longitude: 2.35,
			}),
			calls: [
				{ to: USER, lat: 91 },
				{ to: USER, lat: 48.85 },
			],
		});
		expect(expectAgentError(location.calls[0], 'lat')).toContain(
			'Expected: a number from -90 to 90',
		);
		expect(JSON.parse(location.calls[1].result!)[0]).toMatchObject({ to: USER, type: 'location' });
		expect(ctx.sandbox.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
	});

	it("names a field the workflow sets (no $fromAI) as the tool's setting, which the model cannot change", async () => {
		const { calls } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: sendTool({ from: 'ACME' }),
			calls: [{ to: USER, text: 'Hi' }],
		});
		const { error, description } = answeredError(calls[0]);
		expect(error).toMatch(/^The tool's setting "Sender Phone Number" is invalid: /);
		expect(description).toContain("the workflow's owner must fix it");
		expect(`${error} ${description}`).not.toMatch(/\bitem \d/);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('answers a platform error too, with its status, so the model can tell a refusal from a bad argument', async () => {
		ctx.sandbox.addFault({
			kind: 'status',
			path: '/subscribers',
			method: 'GET',
			status: 403,
			body: { error: { message: 'This key may not read blacklists' } },
		});
		const { calls } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: checkTool,
			calls: [{ to: USER }],
		});
		const answer = answeredError(calls[0]);
		expect(answer).toMatchObject({
			error: 'This key may not read blacklists [HTTP 403]',
			httpCode: '403',
		});
		expect(calls[0].result).not.toContain(API_KEY);
	});

	it('keeps the editor wording when the same node runs in a workflow', async () => {
		const result = await runNode({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: { ...checkTool, to: 'nope' },
		});
		expect(result.error?.message).toBe(
			'Invalid "Recipient" in item 0: "nope" is not a phone number: it contains letters',
		);
	});

	it("gives the error the operations reference shows for Message › Send's recipient", async () => {
		const reference = readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
		const shown = /## Use with AI agents\n[\s\S]*?```\n(.*)\n```/.exec(reference)?.[1];
		const { calls } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: sendTool(),
			calls: [{ to: 'nope', text: 'Hi' }],
		});
		expect(shown).toBeDefined();
		expect(answeredError(calls[0]).error).toBe(shown);
	});

	it("sends media from a URL only: Source (Binary File) is not the tool's, even when set", async () => {
		ctx.sandbox.seedSender(
			{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
			{ active: true },
		);
		ctx.sandbox.simulateInbound(USER, SENDER);
		const { calls } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: sendTool({
				messageType: 'image',
				mediaUrl: fromAI('url', 'the image URL'),
			}),
			calls: [{ to: USER, url: 'https://example.com/a.jpg' }],
		});
		expect(calls[0].result).toContain('QUEUE');
		expect(ctx.sandbox.messages().map((message) => message.request)).toMatchObject([
			{ type: 'image', body: 'https://example.com/a.jpg' },
		]);
	});
});
