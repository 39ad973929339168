/**
 * Message › Send and Wait for Response in a real n8n (the package installed from its tarball),
 * against the sandbox: one message holding n8n's signed links; the execution waits; a link
 * previewer's request leaves it waiting; the approve link, as a phone's browser opens it, shows the
 * confirm page and leaves it waiting, and the page's button resumes it with `data.approved: true`
 * (the decline link: `false`); with Answer When the Link Is Opened, opening answers; a changed link
 * is refused by n8n and the execution keeps waiting; in a loop, the first wait's link does not
 * answer the second wait; free text resumes with what was posted; Limit Wait Time resumes it at the
 * limit with the input items.
 */
import { getRuntime, listExecutions, publishWorkflow, setUpOwner, startN8n } from './n8n-harness';
import type { RecordedExecution, RunningN8n } from './n8n-harness';
import { pressConfirm } from './answer-link';
import { audienceNode, chain, usePackageInN8n, webhookTrigger } from './package-setup';

jest.setTimeout(300_000);

const SENDER = '15550100100';
const BROWSER =
	'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const PREVIEWER = 'WhatsApp/2.24.12.78 A';
/** Chat apps' and mail services' link checkers, and HTTP libraries (issue 48). */
const LINK_CHECKERS = [
	'Viber/20.5.0',
	'kakaotalk-scrap/1.0; +https://devtalk.kakao.com/',
	'Microsoft Office Existence Discovery',
	'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
	'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
	'axios/1.7.2',
	'node',
	'Java/17.0.2',
	'Python-urllib/3.11',
	'Python/3.11 aiohttp/3.9.1',
	'Apache-HttpClient/4.5.14 (Java/17.0.8)',
	'PostmanRuntime/7.39.0',
];

/** A workflow: a webhook, then Send and Wait for Response with `parameters`. */
const workflow = (id: string, path: string, parameters: Record<string, unknown>) => ({
	id,
	name: `e2e: send and wait (${path})`,
	nodes: [
		webhookTrigger(path),
		audienceNode('Ask', 1, {
			resource: 'message',
			operation: 'sendAndWait',
			from: `+${SENDER}`,
			to: '={{ $json.body.to }}',
			message: '=Publish the campaign {{ $json.body.campaign }}?',
			...parameters,
		}),
	],
	connections: chain('Webhook', 'Ask'),
});

const approval = workflow('amE2eSawApprove', 'saw-approval', {
	approvalOptions: { values: { approvalType: 'double' } },
});
const oneTap = workflow('amE2eSawOneTap1', 'saw-one-tap', {
	approvalOptions: { values: { approvalType: 'double' } },
	options: { answerOnOpen: true },
});
/** A loop over people: Send and Wait for Response runs once per person, in one execution. */
const loop = {
	id: 'amE2eSawLoopPpl',
	name: 'e2e: send and wait (saw-loop)',
	nodes: [
		webhookTrigger('saw-loop'),
		{
			id: 'split-people',
			name: 'Split',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [0, 0],
			parameters: { fieldToSplitOut: 'body.people', options: {} },
		},
		{
			id: 'loop-people',
			name: 'Loop',
			type: 'n8n-nodes-base.splitInBatches',
			typeVersion: 3,
			position: [220, 0],
			parameters: { batchSize: 1, options: {} },
		},
		audienceNode('Ask', 3, {
			resource: 'message',
			operation: 'sendAndWait',
			from: `+${SENDER}`,
			to: '={{ $json.to }}',
			message: '=May we write to {{ $json.to }}?',
			approvalOptions: { values: { approvalType: 'double' } },
		}),
	],
	connections: {
		...chain('Webhook', 'Split', 'Loop'),
		Loop: { main: [[], [{ node: 'Ask', type: 'main', index: 0 }]] },
		Ask: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
	},
};
const freeText = workflow('amE2eSawFreeTxt', 'saw-free-text', {
	responseType: 'freeText',
	options: { responseFormTitle: 'Your answer' },
});
const custom = workflow('amE2eSawCustomF', 'saw-custom-form', {
	responseType: 'customForm',
	defineForm: 'fields',
	formFields: {
		values: [
			{ fieldLabel: 'Name', requiredField: true },
			{ fieldLabel: 'Seats', fieldType: 'number' },
			{
				fieldLabel: 'Reason',
				fieldType: 'dropdown',
				multiselect: true,
				fieldOptions: { values: [{ option: 'Price' }, { option: 'Timing' }] },
			},
			{ fieldLabel: 'Email', fieldType: 'email' },
		],
	},
});
const limited = workflow('amE2eSawLimited', 'saw-limited', {
	options: {
		limitWaitTime: {
			values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
		},
	},
});

const WORKFLOWS = [approval, oneTap, loop, freeText, custom, limited];
const ctx = usePackageInN8n('am-e2e-send-and-wait-', () => WORKFLOWS);
let n8n: RunningN8n;
let recipient = 0;
let limitedAsk: Awaited<ReturnType<typeof ask>>;

beforeAll(async () => {
	ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	for (const wf of WORKFLOWS) await publishWorkflow(ctx.folder, wf.id);
	n8n = await startN8n(ctx.folder, {
		webhooks: [
			'saw-approval',
			'saw-one-tap',
			'saw-loop',
			'saw-free-text',
			'saw-custom-form',
			'saw-limited',
		].map((path) => ({ path, method: 'POST' })),
	});
	// Asked first: n8n looks for waiting executions to resume once a minute, so the Limit Wait Time
	// test's wait passes while the other tests run.
	limitedAsk = await ask('saw-limited', limited.id);
});

afterAll(async () => {
	await n8n?.stop();
});

/** Polls until `check` holds for the workflow's newest execution (n8n's own pace: seconds). */
async function executionOf(
	workflowId: string,
	check: (execution: RecordedExecution) => boolean,
	timeoutMs = 120_000,
): Promise<RecordedExecution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const executions = await listExecutions(ctx.folder, workflowId);
		const last = executions.at(-1);
		if (last && check(last)) return last;
		if (Date.now() > deadline)
			throw new Error(`no such execution of ${workflowId}: ${JSON.stringify(last?.status)}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** Starts the workflow for a new recipient; resolves with the message the sandbox got. */
async function ask(path: string, workflowId: string) {
	const to = `+3361234${String(++recipient).padStart(4, '0')}`;
	ctx.sandbox.simulateInbound(to, SENDER);
	const before = ctx.sandbox.messages().length;
	const started = await fetch(`${n8n.url}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ to, campaign: `C${recipient}` }),
	});
	expect(started.status).toBe(200);
	const waiting = await executionOf(workflowId, (execution) => execution.status === 'waiting');
	const messages = ctx.sandbox.messages().slice(before);
	expect(messages).toHaveLength(1);
	const text = (messages[0].request as { body: string }).body;
	const links = [...text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
	return { waiting, text, links, to };
}

const open = async (url: string, userAgent = BROWSER, init: RequestInit = {}) => {
	const response = await fetch(url, {
		...init,
		headers: { 'user-agent': userAgent, ...init.headers },
	});
	return { status: response.status, body: await response.text() };
};

const statusOf = async (workflowId: string) =>
	(await listExecutions(ctx.folder, workflowId)).at(-1)!;

it('sends one message with the decline and approve links and waits; a link previewer leaves it waiting; the approve link shows the confirm page, whose button resumes it with data.approved true', async () => {
	const { text, links, to, waiting } = await ask('saw-approval', approval.id);
	// Decline first, as n8n's own chat nodes list them.
	expect(text).toMatch(/^Publish the campaign C\d+\?\n\n✗ Decline:\nhttp\S+\n\n✓ Approve:\nhttp/);
	expect(text).toMatch(/This message was sent automatically with n8n$/);
	expect(links).toHaveLength(2);
	const [decline, approve] = links;
	expect(approve).toContain(`/webhook-waiting/${waiting.id}/`);
	expect(approve).toMatch(/approved=true/);
	expect(decline).toMatch(/approved=false/);
	expect(approve).toMatch(/signature=/);
	// Both links name the same wait.
	expect(new URL(approve).searchParams.get('wait')).toMatch(/^[\w-]{16}$/);
	expect(new URL(decline).searchParams.get('wait')).toBe(new URL(approve).searchParams.get('wait'));
	expect(ctx.sandbox.messages().at(-1)).toMatchObject({ to, type: 'text' });

	// The chat app draws the link's preview, a mail service checks it, a script fetches or posts
	// it: nothing answered (what n8n's own nodes ignore, with the isbot package, and no User-Agent).
	for (const userAgent of [PREVIEWER, '', ...LINK_CHECKERS])
		expect(await open(approve, userAgent)).toEqual({ status: 200, body: '' });
	expect(await open(approve, 'axios/1.7.2', { method: 'POST' })).toEqual({ status: 200, body: '' });
	// A person's browser (or a checker that looks like one) gets the confirm page: no answer yet.
	const page = await open(approve);
	expect(page.status).toBe(200);
	expect(page.body).toContain('<h1>✓ Approve?</h1>');
	expect(page.body).toMatch(/Publish the campaign C\d+\?/);
	expect(page.body).toContain('<form method="post"');
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect((await statusOf(approval.id)).status).toBe('waiting');

	const pressed = await pressConfirm(approve);
	expect(pressed.status).toBe(200);
	expect(pressed.body).toContain('Got it, thanks');
	const done = await executionOf(approval.id, (execution) => execution.status === 'success');
	expect(done.id).toBe(waiting.id);
	expect(done.nodeItems.Ask).toEqual([
		{ data: { approved: true, respondedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } },
	]);
	// Followed again: n8n says there is nothing to do, and the output stays.
	const again = await open(approve);
	expect(again.body).toMatch(/No action required/i);
	expect((await statusOf(approval.id)).nodeItems.Ask).toEqual(done.nodeItems.Ask);
});

it("the decline link's confirm page resumes it with data.approved false", async () => {
	const { links, waiting } = await ask('saw-approval', approval.id);
	const pressed = await pressConfirm(links.find((link) => link.includes('approved=false'))!);
	expect(pressed.page).toContain('<h1>✗ Decline?</h1>');
	expect(pressed.status).toBe(200);
	const done = await executionOf(approval.id, (execution) => execution.status === 'success');
	expect(done.id).toBe(waiting.id);
	expect(done.nodeItems.Ask).toEqual([
		{ data: { approved: false, respondedAt: expect.any(String) } },
	]);
});

it('with Answer When the Link Is Opened, opening the link answers (a previewer still does not)', async () => {
	const { links, waiting } = await ask('saw-one-tap', oneTap.id);
	const approve = links.find((link) => link.includes('approved=true'))!;
	expect(await open(approve, PREVIEWER)).toEqual({ status: 200, body: '' });
	const answered = await open(approve);
	expect(answered.status).toBe(200);
	expect(answered.body).toContain('Got it, thanks');
	const done = await executionOf(oneTap.id, (execution) => execution.status === 'success');
	expect(done.id).toBe(waiting.id);
	expect(done.nodeItems.Ask).toEqual([
		{ data: { approved: true, respondedAt: expect.any(String) } },
	]);
});

it('a link with a changed signature, query or execution is refused by n8n and the execution keeps waiting', async () => {
	const { links, waiting } = await ask('saw-approval', approval.id);
	const [decline, approve] = links;
	const signature = new URL(approve).searchParams.get('signature')!;
	const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
	const tampered = [
		approve.replace(signature, flipped),
		// The decline link's signature on the approve link's query.
		approve.replace(signature, new URL(decline).searchParams.get('signature')!),
		approve.replace(/signature=[^&]+/, ''),
		approve.replace(/wait=[^&]+/, 'wait=AAAAAAAAAAAAAAAA'),
		approve.replace(`/${waiting.id}/`, `/${Number(waiting.id) + 1000}/`),
	];
	for (const url of tampered) {
		expect((await open(url)).status).toBeGreaterThanOrEqual(400);
		expect((await open(url, BROWSER, { method: 'POST' })).status).toBeGreaterThanOrEqual(400);
	}
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect((await statusOf(approval.id)).status).toBe('waiting');
	// The real link still answers.
	await pressConfirm(decline);
	await executionOf(approval.id, (execution) => execution.status === 'success');
});

it("in a loop over people, the first person's link does not answer the second person's wait", async () => {
	const people = [0, 1].map(() => `+3361234${String(++recipient).padStart(4, '0')}`);
	for (const to of people) ctx.sandbox.simulateInbound(to, SENDER);
	const before = ctx.sandbox.messages().length;
	const started = await fetch(`${n8n.url}/webhook/saw-loop`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ people: people.map((to) => ({ to })) }),
	});
	expect(started.status).toBe(200);
	const linksTo = async (to: string) => {
		const deadline = Date.now() + 120_000;
		for (;;) {
			const message = ctx.sandbox
				.messages()
				.slice(before)
				.find((sent) => sent.to === to);
			const execution = await statusOf(loop.id);
			if (message && execution.status === 'waiting') {
				const text = (message.request as { body: string }).body;
				return { execution, links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]) };
			}
			if (Date.now() > deadline) throw new Error(`no wait for ${to}: ${execution.status}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	};
	const first = await linksTo(people[0]);
	const [firstDecline, firstApprove] = first.links;
	expect((await pressConfirm(firstApprove)).body).toContain('Got it, thanks');
	const second = await linksTo(people[1]);
	expect(second.execution.id).toBe(first.execution.id);
	// The same execution and node, signed by n8n: only the wait tells the links apart.
	expect(new URL(second.links[1]).pathname).toBe(new URL(firstApprove).pathname);
	for (const stale of [firstApprove, firstDecline]) {
		expect((await open(stale)).body).toContain('No action required');
		expect((await open(stale, BROWSER, { method: 'POST' })).body).toContain('No action required');
	}
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect((await statusOf(loop.id)).status).toBe('waiting');
	expect((await pressConfirm(second.links[0])).body).toContain('Got it, thanks');
	const done = await executionOf(loop.id, (execution) => execution.status === 'success');
	expect(done.id).toBe(first.execution.id);
	expect(
		ctx.sandbox
			.messages()
			.slice(before)
			.map((sent) => sent.to),
	).toEqual(people);
	// Its first run's answer: the first person's approve.
	expect(done.nodeItems.Ask).toEqual([
		{ data: { approved: true, respondedAt: expect.any(String) } },
	]);
});

it('free text: the link shows a form, and what is posted resumes the execution with data.text', async () => {
	const { text, links, waiting } = await ask('saw-free-text', freeText.id);
	expect(text).toContain('Respond:\nhttp');
	expect(links).toHaveLength(1);
	const form = await open(links[0]);
	expect(form.status).toBe(200);
	expect(form.body).toContain('<form method="post"');
	expect(form.body).toContain('Your answer');
	// Showing the form answers nothing.
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect((await statusOf(freeText.id)).status).toBe('waiting');
	const posted = await open(links[0], BROWSER, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ text: 'Yes, but <b>tomorrow</b> & not today' }).toString(),
	});
	expect(posted.status).toBe(200);
	const done = await executionOf(freeText.id, (execution) => execution.status === 'success');
	expect(done.id).toBe(waiting.id);
	expect(done.nodeItems.Ask).toEqual([
		{ data: { text: 'Yes, but <b>tomorrow</b> & not today', respondedAt: expect.any(String) } },
	]);
});

it('custom form: the link shows the fields; a required one left empty shows the form again; the answers resume it by label', async () => {
	const { links, waiting } = await ask('saw-custom-form', custom.id);
	const form = await open(links[0]);
	expect(form.status).toBe(200);
	for (const name of ['field-0', 'field-1', 'field-2'])
		expect(form.body).toContain(`name="${name}"`);
	expect(form.body).toContain('<option value="Timing">Timing</option>');
	const post = (body: URLSearchParams) =>
		open(links[0], BROWSER, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: body.toString(),
		});
	const empty = await post(new URLSearchParams({ 'field-1': '2' }));
	expect(empty.status).toBe(400);
	expect(empty.body).toContain('&quot;Name&quot; is required');
	// Answers too long, choices not offered and an email that is not one show the form again.
	expect(form.body).toContain('maxlength="10000"');
	for (const [wrong, problem] of [
		[{ 'field-0': 'x'.repeat(20_000) }, 'at most 10000 characters'],
		[{ 'field-0': 'Ada', 'field-2': 'Free' }, 'please pick one of the choices'],
		[{ 'field-0': 'Ada', 'field-3': 'ada@' }, 'must be an email address'],
	] as const) {
		const refused = await post(new URLSearchParams(wrong));
		expect(refused.status).toBe(400);
		expect(refused.body).toContain(problem);
	}
	expect((await statusOf(custom.id)).status).toBe('waiting');
	const answers = new URLSearchParams([
		['field-0', 'Ada'],
		['field-1', '2'],
		['field-2', 'Price'],
		['field-2', 'Timing'],
		['field-3', 'ada@example.com'],
	]);
	expect((await post(answers)).status).toBe(200);
	const done = await executionOf(custom.id, (execution) => execution.status === 'success');
	expect(done.id).toBe(waiting.id);
	expect(done.nodeItems.Ask).toEqual([
		{
			data: {
				Name: 'Ada',
				Seats: 2,
				Reason: ['Price', 'Timing'],
				Email: 'ada@example.com',
				respondedAt: expect.any(String),
			},
		},
	]);
});

it('Limit Wait Time: at the limit the execution goes on with the input items, without an answer', async () => {
	// Asked in beforeAll. 3 s; n8n looks for waiting executions to resume once a minute.
	const { waiting, to } = limitedAsk;
	const done = await executionOf(
		limited.id,
		(execution) => execution.status === 'success',
		150_000,
	);
	expect(done.id).toBe(waiting.id);
	expect(done.nodeItems.Ask).toHaveLength(1);
	expect(done.nodeItems.Ask[0]).toMatchObject({ body: { to } });
	expect(done.nodeItems.Ask[0]).not.toHaveProperty('data');
});

// n8n 2.x builds human review tools; 1.x has none (the matrix runs this file on 1.123 too).
const onN8n2 = getRuntime().major >= 2 ? it : it.skip;

onN8n2(
	"n8n builds the node's human review tool for AI agents: Send and Wait for Response, approval only, the message from the tool call",
	async () => {
		const cookie = await setUpOwner(n8n.url);
		const response = await fetch(`${n8n.url}/types/nodes.json`, { headers: { cookie } });
		expect(response.status).toBe(200);
		type Property = {
			name: string;
			default?: unknown;
			type?: string;
			displayOptions?: { show?: Record<string, unknown[]> };
		};
		const types = (await response.json()) as Array<{
			name: string;
			properties: Property[];
			webhooks?: unknown[];
		}>;
		const tool = types.find(
			(type) => type.name === 'n8n-nodes-audience-messaging.audienceMessagingHitlTool',
		);
		expect(tool).toBeDefined();
		const property = (name: string) => tool!.properties.filter((p) => p.name === name);
		expect(
			property('operation').every((p) => p.type === 'hidden' && p.default === 'sendAndWait'),
		).toBe(true);
		expect(property('resource')).toEqual([
			expect.objectContaining({ type: 'hidden', default: 'message' }),
		]);
		expect(property('responseType')).toEqual([
			expect.objectContaining({ type: 'hidden', default: 'approval' }),
		]);
		expect(String(property('message')[0].default)).toContain('$tool.name');
		// The recipient of Send and Wait for Response, shown with the resource and operation it is fixed to.
		expect(
			property('to').filter((p) => p.displayOptions?.show?.operation?.includes('sendAndWait')),
		).toHaveLength(1);
	},
);
