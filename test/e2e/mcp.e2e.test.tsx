/**
 * The node's tools in a real n8n, served by n8n's MCP Server Trigger and called by the official
 * MCP client SDK, as an MCP client (Claude Desktop, an IDE, another agent) calls them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { publishWorkflow, startN8n } from './n8n-harness';
import type { RunningN8n } from './n8n-harness';
import { API_KEY, CREDENTIAL, usePackageInN8n } from './package-setup';

jest.setTimeout(300_000);

const MCP_PATH = 'audience-messaging-e2e';
const TOOL_TYPE = 'n8n-nodes-audience-messaging.audienceMessagingTool';
const TRIGGER = 'MCP Server Trigger';
const SENDER = '15550100100';
const USER = '+33612345678';

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/**
 * The tools the MCP server offers: a node each, its values decided by the model through $fromAI().
 */
const tools: Record<string, Record<string, unknown>> = {
	'Send text message': {
		resource: 'message',
		operation: 'send',
		messageType: 'text',
		from: `+${SENDER}`,
		to: fromAI('to', 'the recipient phone number with country code'),
		text: fromAI('text', 'the message text'),
	},
	'Send reply buttons': {
		resource: 'message',
		operation: 'send',
		messageType: 'interactive',
		from: `+${SENDER}`,
		to: fromAI('to', 'the recipient phone number with country code'),
		bodyText: fromAI('question', 'the question above the buttons'),
		buttons: {
			button: [
				{ id: 'yes', title: fromAI('yes_title', 'the label of the yes button') },
				{ id: 'no', title: 'No' },
			],
		},
	},
	'Get subscribers': {
		resource: 'subscriber',
		operation: 'getMany',
		listId: { __rl: true, mode: 'id', value: fromAI('listId', 'the list ID') },
		returnAll: false,
		limit: fromAI('limit', 'how many subscribers at most', 'number'),
	},
	'Add subscribers': {
		resource: 'subscriber',
		operation: 'addMany',
		listId: { __rl: true, mode: 'id', value: fromAI('listId', 'the list ID') },
		source: 'json',
		subscribers: fromAI(
			'subscribers',
			'the subscribers: an array of objects keyed by column',
			'json',
		),
	},
	'Check blacklist': {
		resource: 'blacklist',
		operation: 'check',
		channel: 'SMS',
		from: 'ACME',
		to: fromAI('to', 'the phone number to look up'),
	},
	'Get list': {
		resource: 'list',
		operation: 'get',
		listId: { __rl: true, mode: 'id', value: fromAI('listId', 'the list ID') },
	},
};
const toolName = (nodeName: string) => nodeName.replace(/ /g, '_');

const workflow = {
	id: 'amE2eMcpServer1',
	name: 'e2e: Audience Messaging over MCP',
	nodes: [
		{
			id: 'mcp',
			name: TRIGGER,
			type: '@n8n/n8n-nodes-langchain.mcpTrigger',
			typeVersion: 2,
			position: [0, 0],
			webhookId: '0c6f4f7e-5d1a-4b9e-9a31-2f8e7d6c5b40',
			parameters: { path: MCP_PATH },
		},
		...Object.entries(tools).map(([name, parameters], i) => ({
			id: `tool-${i}`,
			name,
			type: TOOL_TYPE,
			typeVersion: 1,
			position: [i * 160, 240],
			credentials: CREDENTIAL,
			parameters,
		})),
	],
	connections: Object.fromEntries(
		Object.keys(tools).map((name) => [
			name,
			{ ai_tool: [[{ node: TRIGGER, type: 'ai_tool', index: 0 }]] },
		]),
	),
};

const ctx = usePackageInN8n('am-e2e-mcp-', () => [workflow]);
let n8n: RunningN8n;
let client: Client;

/**
 * Connects as soon as n8n has registered the published workflow's MCP endpoint (2.x activates it
 * after readiness).
 */
async function connect(deadline = Date.now() + 120_000): Promise<Client> {
	for (;;) {
		const candidate = new Client({ name: 'audience-messaging-e2e', version: '1.0.0' });
		try {
			await candidate.connect(
				new StreamableHTTPClientTransport(new URL(`${n8n.url}/mcp/${MCP_PATH}`)),
			);
			return candidate;
		} catch (error) {
			if (Date.now() > deadline)
				throw new Error(
					`MCP server not reachable: ${(error as Error).message}\n${n8n.logs().slice(-4000)}`,
				);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}
}

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const textOf = (result: CallResult) => result.content.map((part) => part.text ?? '').join('');

beforeAll(async () => {
	await publishWorkflow(ctx.folder, workflow.id);
	n8n = await startN8n(ctx.folder);
	client = await connect();
});

afterAll(async () => {
	await client?.close();
	await n8n?.stop();
});

it('lists one tool per node, named after it, described by its operation, with the arguments of its $fromAI() fields', async () => {
	const { tools: listed } = await client.listTools();
	const byName = Object.fromEntries(listed.map((tool) => [tool.name, tool]));
	expect(Object.keys(byName).sort()).toEqual(Object.keys(tools).map(toolName).sort());
	expect(byName.Send_text_message.description).toBe(
		'Send a chat app message in Audience Messaging',
	);
	expect(Object.keys(byName.Send_text_message.inputSchema.properties ?? {}).sort()).toEqual([
		'text',
		'to',
	]);
	expect(Object.keys(byName.Send_reply_buttons.inputSchema.properties ?? {}).sort()).toEqual([
		'question',
		'to',
		'yes_title',
	]);
	expect(byName.Get_subscribers.inputSchema.properties).toMatchObject({
		listId: { type: 'string' },
		limit: { type: 'number' },
	});
	expect(JSON.stringify(listed)).not.toContain(API_KEY);
});

it('calls six operations, each one request to the platform, and returns what the platform answered', async () => {
	const sender = ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: SENDER, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.simulateInbound(USER, sender.address);
	const list = ctx.sandbox.seedList({
		name: 'Members',
		rows: [{ email: 'a@x.io' }, { email: 'b@x.io' }, { email: 'c@x.io' }],
	});
	ctx.sandbox.seedBlacklist({
		from: 'ACME',
		type: 'SMS',
		to: '+33700000009',
		reason: 'UNSUBSCRIBED',
	});
	const call = async (name: string, args: Record<string, unknown>) => {
		const before = ctx.sandbox.requests.length;
		const result = (await client.callTool({ name, arguments: args })) as CallResult;
		expect(result.isError).toBeFalsy();
		expect(ctx.sandbox.requests.length - before).toBe(1);
		expect(textOf(result)).not.toContain(API_KEY);
		return JSON.parse(textOf(result)) as Array<Record<string, unknown>>;
	};

	expect(
		(await call('Send_text_message', { to: '+33 6 12 34 56 78', text: 'Your order shipped' }))[0],
	).toMatchObject({ to: USER, type: 'text' });
	expect(
		(
			await call('Send_reply_buttons', {
				to: USER,
				question: 'Keep the newsletter?',
				yes_title: 'Yes please',
			})
		)[0],
	).toMatchObject({ to: USER, type: 'interactive' });
	const interactive = ctx.sandbox.messages().at(-1)!.request as {
		interactive: { action: { buttons: Array<{ reply: { title: string } }> } };
	};
	expect(interactive.interactive.action.buttons.map((button) => button.reply.title)).toEqual([
		'Yes please',
		'No',
	]);
	expect(
		(await call('Get_subscribers', { listId: String(list.id), limit: 2 })).map((row) => row.email),
	).toEqual(['a@x.io', 'b@x.io']);
	expect(
		(
			await call('Add_subscribers', { listId: String(list.id), subscribers: [{ email: 'd@x.io' }] })
		)[0],
	).toMatchObject({ subscriberAdded: 1 });
	expect((await call('Check_blacklist', { to: '+33700000009' }))[0]).toMatchObject({
		blacklisted: true,
	});
	expect((await call('Get_list', { listId: String(list.id) }))[0]).toMatchObject({
		name: 'Members',
	});
});

it('refuses a bad argument before any request, naming the argument and what it takes', async () => {
	const before = ctx.sandbox.requests.length;
	const result = (await client.callTool({
		name: 'Check_blacklist',
		arguments: { to: 'tomorrow' },
	})) as CallResult;
	// The tool answers with the error (what a model reads), not with a failure it would see empty.
	const [answer] = JSON.parse(textOf(result)) as Array<{ error: string; description: string }>;
	expect(answer.error).toMatch(
		/^Invalid argument "to": "tomorrow" is not a phone number: it contains letters\. Expected: .*phone number with country code/,
	);
	expect(answer.description).toBe('Nothing was sent. Call the tool again with a corrected value.');
	expect(textOf(result)).not.toMatch(/\bitem \d/);
	expect(textOf(result)).not.toContain(API_KEY);
	expect(ctx.sandbox.requests.length).toBe(before);
});
