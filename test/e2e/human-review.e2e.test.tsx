/**
 * The node's human review step for AI agents (n8n 2.x builds `audienceMessagingHitlTool` from
 * Message › Send and Wait for Response) in a real n8n: an AI Agent, its model the sandbox's
 * scripted one, wants to run a tool gated by the step; the approver gets a message with the
 * approve and decline links and the execution waits; opening a link shows the confirm page
 * (always, even with Answer When the Link Is Opened set), and the tool runs only after its button
 * approves, and not after a decline (the agent is told the call was rejected).
 */
import { importCredentials, listExecutions, publishWorkflow, startN8n } from './n8n-harness';
import type { RecordedExecution, RunningN8n } from './n8n-harness';
import { pressConfirm } from './answer-link';
import {
	CREDENTIAL,
	MODEL_CREDENTIAL as OPENAI_CREDENTIAL,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(300_000);

const SENDER = '15550100100';
const APPROVER = '+33612340999';
const LISTED = '+33700000009';
const BROWSER =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const workflow = {
	id: 'amE2eHumanRevw1',
	name: 'e2e: human review of an agent tool',
	// As the editor saves new workflows: with n8n's older order an agent runs again before the tool
	// calls it asked for.
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: 'hook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: '4f1b7c2e-9a3d-4e8f-b6a1-2c5d8e7f9a01',
			parameters: {
				httpMethod: 'POST',
				path: 'human-review',
				responseMode: 'onReceived',
				options: {},
			},
		},
		{
			id: 'agent',
			name: 'AI Agent',
			type: '@n8n/n8n-nodes-langchain.agent',
			typeVersion: 3.1,
			position: [220, 0],
			parameters: {
				promptType: 'define',
				text: `Is ${LISTED} on sender ACME's SMS blacklist?`,
				options: {
					systemMessage: `Scripted model: call the tool with {"toolParameters": {"to": "${LISTED}"}, "hitlParameters": {}}, then answer with what it said.`,
				},
			},
		},
		{
			id: 'model',
			name: 'Scripted Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			position: [220, 240],
			parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
			credentials: { openAiApi: { id: OPENAI_CREDENTIAL.id, name: OPENAI_CREDENTIAL.name } },
		},
		{
			id: 'tool',
			name: 'Check Blacklist',
			type: 'n8n-nodes-audience-messaging.audienceMessagingTool',
			typeVersion: 1,
			position: [660, 400],
			credentials: CREDENTIAL,
			parameters: {
				resource: 'blacklist',
				operation: 'check',
				channel: 'SMS',
				from: 'ACME',
				to: "={{ $fromAI('to', 'the phone number to look up', 'string') }}",
			},
		},
		{
			id: 'review',
			name: 'Ask the Approver',
			type: 'n8n-nodes-audience-messaging.audienceMessagingHitlTool',
			typeVersion: 1,
			position: [440, 240],
			credentials: CREDENTIAL,
			parameters: {
				from: `+${SENDER}`,
				to: APPROVER,
				approvalOptions: { values: { approvalType: 'double' } },
				// Ignored by the human review step: the confirm page always.
				options: { answerOnOpen: true },
			},
		},
	],
	connections: {
		Webhook: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'Scripted Model': {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
		},
		'Check Blacklist': { ai_tool: [[{ node: 'Ask the Approver', type: 'ai_tool', index: 0 }]] },
		'Ask the Approver': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
	},
};

const ctx = usePackageInN8n('am-e2e-human-review-', () => [workflow]);
let n8n: RunningN8n;

beforeAll(async () => {
	await importCredentials(ctx.folder, [
		{
			...OPENAI_CREDENTIAL,
			data: { apiKey: 'scripted-model-needs-no-key', url: `${ctx.sandbox.url}/__sandbox/model/v1` },
		},
	]);
	ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.simulateInbound(APPROVER, SENDER);
	ctx.sandbox.seedBlacklist({ from: 'ACME', type: 'SMS', to: LISTED, reason: 'UNSUBSCRIBED' });
	await publishWorkflow(ctx.folder, workflow.id);
	n8n = await startN8n(ctx.folder, { webhooks: [{ path: 'human-review', method: 'POST' }] });
});

afterAll(async () => {
	await n8n?.stop();
});

async function newest(
	check: (execution: RecordedExecution) => boolean,
): Promise<RecordedExecution> {
	const deadline = Date.now() + 120_000;
	for (;;) {
		const last = (await listExecutions(ctx.folder, workflow.id)).at(-1);
		if (last && check(last)) return last;
		if (Date.now() > deadline) throw new Error(`execution still ${last?.status}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

const blacklistChecks = () =>
	ctx.sandbox.requests.filter(
		(request) => request.method === 'GET' && request.path.endsWith('/subscribers'),
	);

/** Starts the agent; resolves with the approver's message, once the execution waits. */
async function agentAsks() {
	const before = ctx.sandbox.messages().length;
	const started = await fetch(`${n8n.url}/webhook/human-review`, { method: 'POST' });
	expect(started.status).toBe(200);
	const waiting = await newest((execution) => execution.status === 'waiting');
	const messages = ctx.sandbox.messages().slice(before);
	expect(messages).toHaveLength(1);
	expect(messages[0].to).toBe(APPROVER);
	const text = (messages[0].request as { body: string }).body;
	const links = [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
	return { waiting, text, links };
}

it("the gated tool runs only after the approver presses the confirm page's button", async () => {
	const checksBefore = blacklistChecks().length;
	const { waiting, text, links } = await agentAsks();
	// The message says which tool the agent wants to run, and with what.
	expect(text).toContain('Check_Blacklist');
	expect(text).toContain(LISTED);
	expect(links).toHaveLength(2);
	expect(blacklistChecks()).toHaveLength(checksBefore);

	const approve = links.find((link) => link.includes('approved=true'))!;
	// Opening the link shows the confirm page, with the agent's call: the tool has not run.
	const opened = await fetch(approve, { headers: { 'user-agent': BROWSER } });
	const page = await opened.text();
	expect(page).toContain('<form method="post"');
	expect(page).toContain(LISTED);
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect(blacklistChecks()).toHaveLength(checksBefore);
	const answered = await pressConfirm(approve, BROWSER);
	expect(answered.status).toBe(200);
	expect(answered.body).toContain('Got it, thanks');
	const done = await newest(
		(execution) => execution.id === waiting.id && execution.status === 'success',
	);
	expect(blacklistChecks()).toHaveLength(checksBefore + 1);
	expect(JSON.stringify(done.nodeItems['AI Agent'])).toContain('blacklisted');
});

it('a decline leaves the tool unrun, and the agent hears the call was rejected', async () => {
	const checksBefore = blacklistChecks().length;
	const { waiting, links } = await agentAsks();
	await pressConfirm(links.find((link) => link.includes('approved=false'))!, BROWSER);
	const done = await newest(
		(execution) => execution.id === waiting.id && execution.status === 'success',
	);
	expect(blacklistChecks()).toHaveLength(checksBefore);
	expect(JSON.stringify(done.nodeItems['AI Agent'])).toMatch(/rejected/i);
});
