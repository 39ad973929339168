/**
 * Outcomes at the edges (issue 23): a write whose answer was lost after the platform acted is
 * `unknown` ("may have been applied", with how to check), never "could not reach the platform";
 * a platform that rate limits forever ends the run within its wait budget, every item reported
 * once. The sandbox's `after` faults let the platform act first and then lose the answer.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import {
	byId,
	expectNoKey,
	openConversation,
	outputOf,
	run,
	textMessage,
	useSandbox,
} from './context';

const ctx = useSandbox();

const members = (count: number, offset = 0): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({ json: { email: `m${i + offset}@x.io` } }));
const addMany = (listId: number, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'subscriber',
	operation: 'addMany',
	listId: byId(listId),
	source: 'items',
	...extra,
});
const passes = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'walletPass',
	operation: 'create',
	templateSerial: byId('tpl-gold-member'),
	recipientId: '={{ $json.email }}',
	fields: { field: [{ place: 'BACK', label: 'Link', value: 'v' }] },
	...extra,
});
const withTimeout = (seconds: number) => ({
	...ctx.credentials,
	data: { ...ctx.credentials.data, timeout: seconds },
});

const lostAnswers = [
	[
		'a connection reset',
		{ kind: 'reset' as const },
		/the connection was closed before the answer arrived/,
	],
	[
		"a gateway's 504",
		{ kind: 'status' as const, status: 504, body: { message: 'Gateway Timeout' } },
		/a gateway in front of the platform answered HTTP 504 \(Gateway Timeout\)/,
	],
	[
		"a gateway's 502",
		{
			kind: 'status' as const,
			status: 502,
			raw: '<html>Bad Gateway</html>',
			contentType: 'text/html',
		},
		/answered HTTP 502/,
	],
	[
		"the platform's own 500",
		{ kind: 'status' as const, status: 500, body: { message: 'Internal error' } },
		/the platform answered HTTP 500, an error while handling it \(Internal error\)/,
	],
] as const;

describe('a batch the platform stored, whose answer was lost: unknown, with how to check, never resent', () => {
	it.each(lostAnswers)(
		'Add Many, %s: every row of the batch is unknown under Continue On Fail',
		async (_name, fault, cause) => {
			const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
			ctx.sandbox.addFault({
				...fault,
				method: 'POST',
				path: `/lists/${list.id}/subscribers/bulk`,
				after: true,
				times: 1,
			});
			const output = outputOf(
				await run(
					ctx.credentials,
					addMany(list.id, { options: { batchSize: 3 } }),
					members(5),
					true,
				),
			);
			// The platform stored the first batch (3 rows) and the second; only the first answer was
			// lost.
			expect(ctx.sandbox.listSubscribers(list.id)).toHaveLength(5);
			expect(ctx.sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
			expect(output).toHaveLength(5);
			expect(output.map((item) => item.pairedItem)).toEqual(
				[0, 1, 2, 3, 4].map((item) => ({ item })),
			);
			expect(output.map((item) => item.json.status)).toEqual([
				'unknown',
				'unknown',
				'unknown',
				'added',
				'added',
			]);
			for (const item of output.slice(0, 3)) {
				expect(item.json.error).toMatch(
					/^May have been applied: the request to add 3 subscribers to list \d+ reached http/,
				);
				expect(item.json.error).toMatch(cause);
				expect(item.json.error).not.toMatch(/Could not reach/);
				expect(item.json.description).toContain(
					`Before you send it again, look for these subscribers in list ${list.id} (Subscriber › Get Many)`,
				);
				expect(item.json.listId).toBe(String(list.id));
				expect(item.json.subscriber).toBeDefined();
			}
			expect(output[0].json.subscriber).toEqual({ email: 'm0@x.io' });
		},
	);

	it('Add Many without Continue On Fail: the thrown error says it may have been applied, and how to check', async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		ctx.sandbox.addFault({
			kind: 'reset',
			method: 'POST',
			path: `/lists/${list.id}/subscribers/bulk`,
			after: true,
			times: 1,
		});
		const result = await run(ctx.credentials, addMany(list.id), members(4));
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect(result.error?.message).toMatch(
			/^May have been applied: the request to add 4 subscribers to list \d+/,
		);
		expect((result.error as NodeApiError).description).toMatch(
			/The outcome is unknown.*did not send it again.*Subscriber › Get Many.*may apply it twice/,
		);
		expect(ctx.sandbox.listSubscribers(list.id)).toHaveLength(4);
		expect(ctx.sandbox.requests).toHaveLength(1);
		expectNoKey(result);
	});

	it('Wallet Pass › Create, a reset after the passes were created: unknown items naming recipient and template', async () => {
		ctx.sandbox.addFault({
			kind: 'reset',
			method: 'POST',
			path: '/passes/batch',
			after: true,
			times: 1,
		});
		const output = outputOf(await run(ctx.credentials, passes(), members(2), true));
		expect(
			ctx.sandbox
				.walletPasses('tpl-gold-member')
				.filter((pass) => /^m\d@x\.io$/.test(pass.recipientId)),
		).toHaveLength(2);
		expect(
			output.map((item) => [item.json.status, item.json.recipientId, item.json.templateSerial]),
		).toEqual([
			['unknown', 'm0@x.io', 'tpl-gold-member'],
			['unknown', 'm1@x.io', 'tpl-gold-member'],
		]);
		expect(output[0].json.description).toContain(
			"look for these recipients' passes in wallet template tpl-gold-member",
		);
		expect(ctx.sandbox.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});
});

describe('a message the platform sent, whose answer was lost', () => {
	it.each(lostAnswers)(
		'%s: unknown, with the External ID to look for; the other messages go on',
		async (_name, fault, cause) => {
			openConversation(ctx.sandbox);
			ctx.sandbox.addFault({
				...fault,
				method: 'POST',
				path: '/chatapp/messages',
				after: true,
				times: 1,
			});
			const output = outputOf(
				await run(
					ctx.credentials,
					textMessage({ options: { parallelRequests: 1 } }),
					[{ json: {} }, { json: {} }, { json: {} }],
					true,
				),
			);
			expect(ctx.sandbox.messages()).toHaveLength(3);
			expect(ctx.sandbox.requests.filter((r) => r.path.endsWith('/chatapp/messages'))).toHaveLength(
				3,
			);
			expect(output.map((item) => item.json.status)).toEqual(['unknown', 'QUEUE', 'QUEUE']);
			const [lost] = output;
			expect(lost.json.error).toMatch(cause);
			expect(lost.json).toMatchObject({ to: '+33612345678', from: '15550100100', type: 'text' });
			const externalId = String(lost.json.externalId);
			expect(externalId).toMatch(/^wf[A-Za-z0-9]+ex[A-Za-z0-9]+it0$/);
			expect(lost.json.description).toContain(`look for External ID ${externalId}`);
			// The External ID went to the platform with the message, so the user can find it there.
			expect(
				ctx.sandbox.messages().map((message) => (message as { externalId?: string }).externalId),
			).toContain(externalId);
			expect(new Set(output.map((item) => item.json.externalId)).size).toBe(3);
		},
	);

	it('a timeout after the platform sent it is unknown too, after one attempt', async () => {
		openConversation(ctx.sandbox);
		ctx.sandbox.addFault({
			kind: 'hang',
			method: 'POST',
			path: '/chatapp/messages',
			after: true,
			times: 1,
		});
		const output = outputOf(await run(withTimeout(1), textMessage(), [{ json: {} }], true));
		expect(output[0].json.status).toBe('unknown');
		expect(output[0].json.error).toMatch(
			/no answer came within 1 s \(the credential's Request Timeout\)/,
		);
		expect(ctx.sandbox.messages()).toHaveLength(1);
		expect(ctx.sandbox.requests).toHaveLength(1);
		ctx.sandbox.clearFaults();
	});

	it('a refused connection is a plain failure: nothing was sent', async () => {
		const closed = {
			...ctx.credentials,
			data: { ...ctx.credentials.data, baseUrl: 'http://127.0.0.1:9/messaging' },
		};
		const output = outputOf(await run(closed, textMessage(), [{ json: {} }], true));
		expect(output[0].json.status).toBeUndefined();
		expect(output[0].json.error).toMatch(
			/^Could not reach the platform at http:\/\/127\.0\.0\.1:9\/messaging/,
		);
	});

	it('a message given its own External ID keeps it; one without gets a distinct one per item, returned in the output', async () => {
		openConversation(ctx.sandbox);
		const output = outputOf(
			await run(ctx.credentials, textMessage({ options: { externalId: '={{ $json.ref }}' } }), [
				{ json: { ref: 'order42' } },
				{ json: { ref: '' } },
			]),
		);
		expect(output[0].json.externalId).toBe('order42');
		expect(output[1].json.externalId).toMatch(/^wf[A-Za-z0-9]+ex[A-Za-z0-9]+it1$/);
		expect(
			ctx.sandbox
				.messages()
				.map((message) => (message as { externalId?: string }).externalId)
				.sort(),
		).toEqual([output[0].json.externalId, output[1].json.externalId].sort());
	});
});

describe('a platform that rate limits forever: the run ends within its wait budget, every item reported once', () => {
	const BUDGET_S = 10;
	/**
	 * The budget counts the time spent waiting; each try also costs CPU (a batch's body built and
	 * sent, every item output at the end), which a busy machine stretches: a clean clone with three
	 * other test runs on its two cores took 11.4 s for Add Many. The bound is the budget and half
	 * again; a run that waited past its budget would also send more tries (Add Many counts them).
	 */
	const BOUND_MS = BUDGET_S * 1500;

	it(`Add Many of 10,000 rows (20 batches): ends within ${BUDGET_S} s (and a busy machine's margin), every row not sent, one item each`, async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: `/lists/${list.id}/subscribers/bulk`,
			retryAfter: '1',
		});
		const started = Date.now();
		const output = outputOf(
			await run(
				ctx.credentials,
				addMany(list.id, { options: { rateLimitWait: BUDGET_S } }),
				members(10_000),
				true,
			),
		);
		const firstRequest = ctx.sandbox.requests[0].receivedAt;
		const elapsed = Date.now() - firstRequest;
		expect(elapsed).toBeLessThanOrEqual(BOUND_MS);
		expect(elapsed).toBeGreaterThanOrEqual((BUDGET_S - 2) * 1000);
		expect(output).toHaveLength(10_000);
		expect(
			output.every((item, index) => (item.pairedItem as { item: number }).item === index),
		).toBe(true);
		expect(
			output.every((item) => item.json.status === 'notSent' && item.json.httpCode === '429'),
		).toBe(true);
		expect(output[0].json.error).toBe(
			'Not sent: the platform kept rate limiting this run (HTTP 429: Rate limit exceeded)',
		);
		expect(output[9_999].json.description).toContain(
			`wait budget is ${BUDGET_S} s (the "Max Wait When Rate Limited (Seconds)" option)`,
		);
		// Only the first batch was tried (resent after each pause); the others were never sent.
		expect(new Set(ctx.sandbox.requests.map((r) => r.bodySize)).size).toBe(1);
		expect(ctx.sandbox.requests.length).toBeLessThanOrEqual(BUDGET_S + 1);
		expect(Date.now() - started).toBeLessThan(60_000);
	}, 120_000);

	it(`Message › Send of 1,000 messages: ends within ${BUDGET_S} s (and a busy machine's margin), every message reported once`, async () => {
		openConversation(ctx.sandbox);
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/chatapp/messages',
			retryAfter: '1',
		});
		const items = Array.from({ length: 1000 }, (_, i) => ({ json: { i } }));
		const output = outputOf(
			await run(
				ctx.credentials,
				textMessage({ options: { rateLimitWait: BUDGET_S } }),
				items,
				true,
			),
		);
		const elapsed = Date.now() - ctx.sandbox.requests[0].receivedAt;
		expect(elapsed).toBeLessThanOrEqual(BOUND_MS);
		expect(output).toHaveLength(1000);
		expect(
			output.every((item, index) => (item.pairedItem as { item: number }).item === index),
		).toBe(true);
		expect(output.every((item) => item.json.status === 'notSent')).toBe(true);
		expect(output[999].json).toMatchObject({
			to: '+33612345678',
			externalId: expect.stringMatching(/it999$/),
		});
		expect(ctx.sandbox.messages()).toHaveLength(0);
	}, 120_000);

	it('what was sent before the budget was spent stays reported as sent', async () => {
		openConversation(ctx.sandbox);
		// Three messages go through, then the platform refuses everything.
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/chatapp/messages',
			retryAfter: '1',
			skip: 3,
		});
		const items = Array.from({ length: 6 }, (_, i) => ({ json: { i } }));
		const output = outputOf(
			await run(
				ctx.credentials,
				textMessage({ options: { parallelRequests: 1, rateLimitWait: 2 } }),
				items,
				true,
			),
		);
		expect(output.map((item) => item.json.status)).toEqual([
			'QUEUE',
			'QUEUE',
			'QUEUE',
			'notSent',
			'notSent',
			'notSent',
		]);
		expect(ctx.sandbox.messages()).toHaveLength(3);
		expect(output.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4, 5].map((item) => ({ item })),
		);
	});

	it('a budget of 0 stops at the first 429: one request, the rest not sent', async () => {
		openConversation(ctx.sandbox);
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/chatapp/messages',
			retryAfter: '1',
		});
		const output = outputOf(
			await run(
				ctx.credentials,
				textMessage({ options: { rateLimitWait: 0, parallelRequests: 1 } }),
				[{ json: {} }, { json: {} }],
				true,
			),
		);
		expect(output.map((item) => item.json.status)).toEqual(['notSent', 'notSent']);
		expect(ctx.sandbox.requests).toHaveLength(1);
	});
});
