/**
 * The node as a tool of n8n's AI Agent in a real n8n, the agent's OpenAI Chat Model pointed at a
 * scripted OpenAI-compatible server in this test: the "model" first calls the tool with a bad
 * argument, reads the tool's error, calls again with a corrected one, then answers.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { executeWorkflow, importCredentials, nodeOutput } from './n8n-harness';
import {
	API_KEY,
	CREDENTIAL,
	MODEL_CREDENTIAL as OPENAI_CREDENTIAL,
	manualTrigger,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(300_000);

const MODEL_KEY = 'sk-scripted-e2e-5f2c';
const LISTED = '+33700000009';

interface ChatRequest {
	messages: Array<{ role: string; content?: string | null; tool_call_id?: string }>;
	tools?: Array<{ function: { name: string } }>;
	stream?: boolean;
}

/**
 * An OpenAI-compatible chat completions endpoint that plays a script: bad call, corrected call,
 * answer.
 */
function scriptedModel() {
	const requests: ChatRequest[] = [];
	const server: Server = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString()));
		request.on('end', () => {
			const chat = JSON.parse(body || '{}') as ChatRequest;
			requests.push(chat);
			const tool = chat.tools?.[0]?.function.name ?? 'missing_tool';
			const answered = chat.messages.filter((message) => message.role === 'tool').length;
			const call = (args: object) => ({
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: `call_${answered + 1}`,
						type: 'function',
						function: { name: tool, arguments: JSON.stringify(args) },
					},
				],
			});
			const message =
				answered === 0
					? call({ to: 'tomorrow' })
					: answered === 1
						? call({ to: LISTED })
						: { role: 'assistant', content: 'The number is blacklisted.' };
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify({
					id: `chatcmpl-${requests.length}`,
					object: 'chat.completion',
					created: Math.floor(Date.now() / 1000),
					model: 'gpt-4o-mini',
					choices: [
						{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' },
					],
					usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
				}),
			);
		});
	});
	return { server, requests };
}

const model = scriptedModel();

const workflow = {
	id: 'amE2eAgentTool1',
	name: 'e2e: Audience Messaging as an agent tool',
	nodes: [
		manualTrigger,
		// Agent 2 (tools run inside the agent). Agent 3.1 run by `n8n execute` gave the model an
		// empty answer ("") for tool calls whatever the tool answered, n8n's own tools included
		// (n8n 2.40.7); run from the editor it passes the answers on (Demo 6, demo.e2e.test.tsx).
		{
			id: 'agent',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				promptType: 'define',
				text: `Is ${LISTED} on the SMS blacklist of ACME?`,
				options: {},
			},
		},
		{
			id: 'model',
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			position: [220, 240],
			parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
			credentials: { openAiApi: { id: OPENAI_CREDENTIAL.id, name: OPENAI_CREDENTIAL.name } },
		},
		{
			id: 'tool',
			name: 'Check blacklist',
			type: 'n8n-nodes-audience-messaging.audienceMessagingTool',
			typeVersion: 1,
			position: [440, 240],
			credentials: CREDENTIAL,
			parameters: {
				resource: 'blacklist',
				operation: 'check',
				channel: 'SMS',
				from: 'ACME',
				to: "={{ $fromAI('to', 'the phone number to look up', 'string') }}",
			},
		},
	],
	connections: {
		Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
		},
		'Check blacklist': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
	},
};

const ctx = usePackageInN8n('am-e2e-agent-', () => [workflow]);

beforeAll(async () => {
	await new Promise<void>((resolve) => model.server.listen(0, '127.0.0.1', resolve));
	const { port } = model.server.address() as AddressInfo;
	await importCredentials(ctx.folder, [
		{ ...OPENAI_CREDENTIAL, data: { apiKey: MODEL_KEY, url: `http://127.0.0.1:${port}/v1` } },
	]);
});

afterAll(async () => {
	await new Promise((resolve) => model.server.close(resolve));
});

it('the agent corrects a bad argument after the tool names it, and only the corrected call reaches the platform', async () => {
	ctx.sandbox.seedBlacklist({ from: 'ACME', type: 'SMS', to: LISTED, reason: 'UNSUBSCRIBED' });
	const result = await executeWorkflow(ctx.folder, workflow.id);
	expect(result.error).toBeUndefined();
	expect(nodeOutput(result.runData, 'AI Agent')[0]).toMatchObject({
		output: 'The number is blacklisted.',
	});

	// What the model was told after each call.
	expect(model.requests).toHaveLength(3);
	expect(model.requests[0].tools?.map((tool) => tool.function.name)).toEqual(['Check_blacklist']);
	const toolAnswers = model.requests[2].messages
		.filter((message) => message.role === 'tool')
		.map((message) => String(message.content));
	expect(JSON.parse(toolAnswers[0])).toEqual([
		{
			error: expect.stringMatching(
				/^Invalid argument "to": "tomorrow" is not a phone number: it contains letters\. Expected: /,
			),
			description: 'Nothing was sent. Call the tool again with a corrected value.',
		},
	]);
	expect(toolAnswers[1]).toContain('"blacklisted":true');
	expect(JSON.stringify(model.requests)).not.toContain(API_KEY);

	// One request to the platform: the corrected one.
	expect(
		ctx.sandbox.requests.map((request) => `${request.method} ${String(request.query.to)}`),
	).toEqual([`GET ${LISTED}`]);
});
