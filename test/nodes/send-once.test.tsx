/**
 * Message › Send › Skip Messages Sent Before: runs of the node through n8n-core's engine against
 * the sandbox, the history in n8n's store as the harness models it (processed-data.tsx). What
 * goes over the wire run after run, and what each item says.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { NODE_ID, WORKFLOW_ID, runNode } from '../helpers/n8n';
import { processedData } from '../helpers/processed-data';
import { node, openConversation, outputOf, run, textMessage, useSandbox } from './context';

const ctx = useSandbox();
beforeEach(() => processedData.reset());

const SENDER = '15550100100';
const recipient = (index: number) => `+336123400${String(index).padStart(2, '0')}`;
const itemsFor = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ json: { to: recipient(index) } }));

/** Every recipient may be messaged (an active sender, each recipient wrote in). */
function openConversations(count: number): void {
	openConversation(ctx.sandbox);
	for (let index = 0; index < count; index++) ctx.sandbox.simulateInbound(recipient(index), SENDER);
}

const send = (options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
	textMessage({
		to: '={{ $json.to }}',
		text: 'Spring sale: 20 % off',
		options: { messagesPerSecond: 0, skipSentBefore: true, ...options },
		...extra,
	});

/** Recipients of the messages the platform got so far, in order. */
const posted = () =>
	ctx.sandbox.requests
		.filter((request) => request.method === 'POST' && request.path.endsWith('/chatapp/messages'))
		.map((request) => (request.body as { to: string }).to);

const statuses = (output: INodeExecutionData[]) =>
	output.map((item) => (item.json.status === 'QUEUE' ? 'sent' : item.json.status));

describe('Message › Send › Skip Messages Sent Before', () => {
	it('a second run with the same items sends nothing: each item says sentBefore, with its key, paired', async () => {
		openConversations(3);
		const first = outputOf(await run(ctx.credentials, send(), itemsFor(3)));
		expect(statuses(first)).toEqual(['sent', 'sent', 'sent']);
		expect(posted()).toHaveLength(3);
		const second = outputOf(await run(ctx.credentials, send(), itemsFor(3)));
		expect(posted()).toHaveLength(3);
		expect(statuses(second)).toEqual(['sentBefore', 'sentBefore', 'sentBefore']);
		expect(second.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		// The key: the recipient, the type and a hash of the content, the same in both runs.
		expect(second[1].json).toMatchObject({
			to: recipient(1),
			messageKey: expect.stringMatching(new RegExp(`^\\${recipient(1)} text [0-9a-f]{24}$`)),
		});
		expect(second[1].json.messageKey).toBe(first[1].json.messageKey);
	});

	it('the same recipient with other content is another message; the sender is not part of the key', async () => {
		openConversations(1);
		await run(ctx.credentials, send(), itemsFor(1));
		const other = outputOf(
			await run(ctx.credentials, send({}, { text: 'Last day of the sale' }), itemsFor(1)),
		);
		expect(statuses(other)).toEqual(['sent']);
		const otherSender = outputOf(
			await run(ctx.credentials, send({}, { from: '+1 555 010 0100 ' }), itemsFor(1)),
		);
		expect(statuses(otherSender)).toEqual(['sentBefore']);
		expect(posted()).toHaveLength(2);
	});

	it('sends again only the message the platform refused (On Error: Continue)', async () => {
		openConversations(5);
		ctx.sandbox.addFault({
			kind: 'status',
			method: 'POST',
			path: '/chatapp/messages',
			status: 400,
			body: { message: 'Invalid recipient' },
			skip: 2,
			times: 1,
		});
		const first = outputOf(
			await run(ctx.credentials, send({ parallelRequests: 1 }), itemsFor(5), true),
		);
		expect(first[2].json.error).toBeDefined();
		expect(posted()).toHaveLength(5);
		const second = outputOf(
			await run(ctx.credentials, send({ parallelRequests: 1 }), itemsFor(5), true),
		);
		expect(posted().slice(5)).toEqual([recipient(2)]);
		expect(statuses(second)).toEqual([
			'sentBefore',
			'sentBefore',
			'sent',
			'sentBefore',
			'sentBefore',
		]);
	});

	it('a run stopped by a 401 (On Error: Stop Workflow), then run again: every recipient gets exactly one message', async () => {
		openConversations(12);
		ctx.sandbox.addFault({
			kind: 'status',
			method: 'POST',
			path: '/chatapp/messages',
			status: 401,
			body: { message: 'Invalid API key' },
			skip: 5,
		});
		const stopped = await run(ctx.credentials, send({ parallelRequests: 3 }), itemsFor(12));
		expect(stopped.error?.message).toMatch(/401|Authorization|key/i);
		ctx.sandbox.clearFaults();
		const accepted = ctx.sandbox.messages().map((message) => message.to);
		expect(accepted).toHaveLength(5);
		const again = outputOf(await run(ctx.credentials, send({ parallelRequests: 3 }), itemsFor(12)));
		const delivered = ctx.sandbox.messages().map((message) => message.to);
		expect([...delivered].sort()).toEqual(
			itemsFor(12)
				.map((item) => item.json.to)
				.sort(),
		);
		expect(statuses(again)).toEqual([...Array(5).fill('sentBefore'), ...Array(7).fill('sent')]);
	});

	it('messages not sent because the wait budget for rate limits was spent are sent by the next run', async () => {
		openConversations(5);
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/chatapp/messages',
			retryAfter: '30',
			skip: 2,
		});
		const first = outputOf(
			await run(
				ctx.credentials,
				send({ parallelRequests: 1, rateLimitWait: 0 }),
				itemsFor(5),
				true,
			),
		);
		expect(statuses(first)).toEqual(['sent', 'sent', 'notSent', 'notSent', 'notSent']);
		ctx.sandbox.clearFaults();
		const second = outputOf(await run(ctx.credentials, send(), itemsFor(5)));
		expect(statuses(second)).toEqual(['sentBefore', 'sentBefore', 'sent', 'sent', 'sent']);
		expect(ctx.sandbox.messages()).toHaveLength(5);
	});

	it.each([
		['whose answer was lost', { kind: 'reset' as const }],
		[
			'answered HTTP 500 after the platform stored it',
			{ kind: 'status' as const, status: 500, body: { message: 'Internal error' } },
		],
	])(
		'a message %s comes out unknown in the next run and is not sent; Resend Unconfirmed sends it',
		async (_name, fault) => {
			openConversations(3);
			ctx.sandbox.addFault({
				...fault,
				method: 'POST',
				path: '/chatapp/messages',
				after: true,
				skip: 1,
				times: 1,
			});
			const first = outputOf(
				await run(ctx.credentials, send({ parallelRequests: 1 }), itemsFor(3), true),
			);
			expect(statuses(first)).toEqual(['sent', 'unknown', 'sent']);
			expect(ctx.sandbox.messages()).toHaveLength(3);

			const second = outputOf(await run(ctx.credentials, send(), itemsFor(3)));
			expect(statuses(second)).toEqual(['sentBefore', 'unknown', 'sentBefore']);
			expect(second[1].json.error).toBe(
				`Not sent: an earlier run may have sent this message (Message Key "${String(first[1].json.messageKey)}")`,
			);
			expect(second[1].json.description).toMatch(/Resend Unconfirmed/);
			expect(second[1].pairedItem).toEqual({ item: 1 });
			expect(ctx.sandbox.messages()).toHaveLength(3);

			const resent = outputOf(
				await run(ctx.credentials, send({ resendUnconfirmed: true }), itemsFor(3)),
			);
			expect(statuses(resent)).toEqual(['sentBefore', 'sent', 'sentBefore']);
			expect(ctx.sandbox.messages().map((message) => message.to)).toEqual([
				recipient(0),
				recipient(1),
				recipient(2),
				recipient(1),
			]);
			const after = outputOf(await run(ctx.credentials, send(), itemsFor(3)));
			expect(statuses(after)).toEqual(['sentBefore', 'sentBefore', 'sentBefore']);
		},
	);

	it('Preview Without Sending shows which items would be skipped and records nothing', async () => {
		openConversations(3);
		await run(ctx.credentials, send(), itemsFor(2));
		const row = [...processedData.rows.values()].map((values) => values.join()).join();
		const preview = outputOf(await run(ctx.credentials, send({ preview: true }), itemsFor(3)));
		expect(statuses(preview)).toEqual(['sentBefore', 'sentBefore', 'preview']);
		expect([...processedData.rows.values()].map((values) => values.join()).join()).toBe(row);
		expect(posted()).toHaveLength(2);
	});

	it('a Message Key names the message: a new key sends again, the same key with other content does not', async () => {
		openConversations(2);
		const keyed = (campaign: string, text = 'Hello') =>
			send({ messageKey: `=${campaign} {{ $json.to }}` }, { text });
		await run(ctx.credentials, keyed('spring'), itemsFor(2));
		const sameKey = outputOf(
			await run(ctx.credentials, keyed('spring', 'Other words'), itemsFor(2)),
		);
		expect(statuses(sameKey)).toEqual(['sentBefore', 'sentBefore']);
		expect(sameKey[0].json.messageKey).toBe(`spring ${recipient(0)}`);
		const newKey = outputOf(await run(ctx.credentials, keyed('summer'), itemsFor(2)));
		expect(statuses(newKey)).toEqual(['sent', 'sent']);
		expect(posted()).toHaveLength(4);
	});

	it('Forget Messages Sent Before sends every item again once per label: a retry with the label sends nothing again; a preview predicts both', async () => {
		openConversations(2);
		await run(ctx.credentials, send(), itemsFor(2));
		const forget = (label: string, options: Record<string, unknown> = {}) =>
			run(ctx.credentials, send({ forgetLabel: label, ...options }), itemsFor(2));
		expect(statuses(outputOf(await forget('spring', { preview: true })))).toEqual([
			'preview',
			'preview',
		]);
		expect(statuses(outputOf(await forget('spring')))).toEqual(['sent', 'sent']);
		// The same run again (n8n's Retry repeats its parameters): the label forgets nothing.
		expect(statuses(outputOf(await forget('spring', { preview: true })))).toEqual([
			'sentBefore',
			'sentBefore',
		]);
		expect(statuses(outputOf(await forget('spring')))).toEqual(['sentBefore', 'sentBefore']);
		expect(statuses(outputOf(await run(ctx.credentials, send(), itemsFor(2))))).toEqual([
			'sentBefore',
			'sentBefore',
		]);
		expect(posted()).toHaveLength(4);
	});

	it('an item with the key of an earlier item of the run is not sent: duplicate', async () => {
		openConversations(2);
		const items = [0, 1, 0].map((index) => ({ json: { to: recipient(index) } }));
		const output = outputOf(await run(ctx.credentials, send(), items));
		expect(statuses(output)).toEqual(['sent', 'sent', 'duplicate']);
		expect(output[2].json.duplicateOf).toBe(0);
		expect(posted()).toEqual([recipient(0), recipient(1)]);
	});

	it('messages sent before do not count towards the daily quota', async () => {
		openConversations(4);
		const sender = ctx.sandbox.seedSender(
			{ providerId: 'prov-2', name: 'ACME 2', address: '+15550100199', accountTier: 1 },
			{ active: true },
		);
		ctx.sandbox.approveSender(sender.id, { dailyQuota: 3, rateLimit: 50 });
		for (let index = 0; index < 4; index++)
			ctx.sandbox.simulateInbound(recipient(index), '15550100199');
		// Sent before from another sender: the key does not hold the sender.
		outputOf(await run(ctx.credentials, send(), itemsFor(4)));
		const news = [0, 1].map((index) => ({ json: { to: recipient(index), text: 'News' } }));
		// Four recipients in the run, only two to send: within the quota of 3, not refused.
		const output = outputOf(
			await run(
				ctx.credentials,
				send(
					{ rateLimitSenderId: sender.id },
					{ from: '+15550100199', text: '={{ $json.text ?? "Spring sale: 20 % off" }}' },
				),
				[...itemsFor(4), ...news],
			),
		);
		expect(statuses(output)).toEqual([
			'sentBefore',
			'sentBefore',
			'sentBefore',
			'sentBefore',
			'sent',
			'sent',
		]);
		expect(posted().slice(4)).toEqual([recipient(0), recipient(1)]);
	});

	it('an unsaved workflow is refused before any request, naming the fix', async () => {
		openConversations(1);
		const result = await runNode({
			nodeType: node,
			parameters: send(),
			credentials: ctx.credentials,
			items: itemsFor(1),
			workflowId: '',
		});
		expect(result.error?.message).toBe(
			'Save the workflow first: Skip Messages Sent Before remembers the messages of a saved workflow',
		);
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it('a Message Key that is not text is a field error of its item, before any request', async () => {
		openConversations(2);
		const result = await run(
			ctx.credentials,
			send({ messageKey: '={{ $json.to === "+33612340001" ? { a: 1 } : "k" + $json.to }}' }),
			itemsFor(2),
		);
		expect(result.error?.message).toMatch(/Message Key/);
		expect(result.error?.message).toMatch(/item 1/);
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it('claims and confirms in batches: 300 messages take a few writes of the history', async () => {
		openConversations(300);
		// A sender fast enough that the platform never asks the run to slow down.
		const [sender] = ctx.sandbox.senders();
		ctx.sandbox.approveSender(sender.id, { rateLimit: 100_000 });
		const started = Date.now();
		const output = outputOf(await run(ctx.credentials, send(), itemsFor(300)));
		const seconds = (Date.now() - started) / 1000;
		expect(output).toHaveLength(300);
		expect(ctx.sandbox.messages()).toHaveLength(300);
		// Far fewer than one per message: at most one per ten, or on a busy machine's longer run the
		// lookup, the windows of claims, a write of confirmations every 0.5 s at most and the close
		// (23 beside queue mode, 13 with two busy loops: the windows follow the measured pace). The
		// exact count, on a clock that stands still, is in the unit test.
		expect(processedData.calls.checkProcessedAndRecord).toBeLessThanOrEqual(
			Math.max(30, 6 + Math.ceil(seconds * 2.5)),
		);
		expect(processedData.size(WORKFLOW_ID, NODE_ID)).toBe(900);
	});

	it('a first run with the option sends byte for byte what a run without it sends', async () => {
		openConversations(3);
		const bodies = async (skipSentBefore: boolean) => {
			ctx.sandbox.clearRequests();
			await run(
				ctx.credentials,
				send({ skipSentBefore, externalId: '={{ "ref" + $itemIndex }}' }),
				itemsFor(3),
			);
			return ctx.sandbox.requests.map((request) => [request.method, request.path, request.rawBody]);
		};
		const off = await bodies(false);
		expect(off).toHaveLength(3);
		expect(off[0][2]).toContain('"externalId":"ref0"');
		expect(await bodies(true)).toEqual(off);
	});

	it('without the option, the store is never used', async () => {
		openConversations(2);
		await run(ctx.credentials, send({ skipSentBefore: false }), itemsFor(2));
		await run(
			ctx.credentials,
			textMessage({ to: '={{ $json.to }}', options: { messagesPerSecond: 0 } }),
			itemsFor(2),
		);
		expect(processedData.calls).toEqual({});
		expect(posted()).toHaveLength(4);
	});

	it('two runs at once with the same items: each message sent exactly once, every item answered', async () => {
		openConversations(20);
		const [a, b] = await Promise.all([
			run(ctx.credentials, send(), itemsFor(20), true),
			run(ctx.credentials, send(), itemsFor(20), true),
		]);
		for (const result of [a, b]) expect(outputOf(result)).toHaveLength(20);
		expect([...posted()].sort()).toEqual(itemsFor(20).map((item) => item.json.to));
		// Of each recipient's two items, one was sent; the other says the other run has it (claimed
		// or already sent).
		const both = [...statuses(outputOf(a)), ...statuses(outputOf(b))];
		expect(both.filter((status) => status === 'sent')).toHaveLength(20);
		expect(both.filter((status) => status === 'unknown' || status === 'sentBefore')).toHaveLength(
			20,
		);
		const after = outputOf(await run(ctx.credentials, send(), itemsFor(20)));
		expect(statuses(after)).toEqual(Array(20).fill('sentBefore'));
	});

	it('two runs at once with Resend Unconfirmed, given what an earlier run left unconfirmed: each message sent again once, by one of them', async () => {
		openConversations(20);
		ctx.sandbox.addFault({
			kind: 'status',
			status: 500,
			body: { message: 'Internal error' },
			method: 'POST',
			path: '/chatapp/messages',
			after: true,
			times: 20,
		});
		const lost = outputOf(await run(ctx.credentials, send(), itemsFor(20), true));
		expect(statuses(lost)).toEqual(Array(20).fill('unknown'));
		const resend = send({ resendUnconfirmed: true });
		const [a, b] = await Promise.all([
			run(ctx.credentials, resend, itemsFor(20), true),
			run(ctx.credentials, resend, itemsFor(20), true),
		]);
		const accepted = ctx.sandbox.messages().map((message) => message.to);
		expect(accepted.slice(20).sort()).toEqual(itemsFor(20).map((item) => item.json.to));
		// The other run's item says another execution has it.
		const both = [...outputOf(a), ...outputOf(b)];
		expect(both.filter((item) => item.json.status === 'QUEUE')).toHaveLength(20);
		const claimed = both.filter((item) => item.json.status === 'unknown');
		expect(claimed).toHaveLength(20);
		for (const item of claimed)
			expect(item.json.description).toMatch(/another execution of this node claimed it/);
	});

	it("a run with Resend Unconfirmed started while another sends leaves that run's messages alone", async () => {
		openConversations(40);
		const paced = send({ messagesPerSecond: 20, parallelRequests: 2 });
		const first = run(ctx.credentials, paced, itemsFor(40), true);
		// Once the first run is half-way, the second starts with the same items.
		await new Promise<void>((resolve) => {
			const check = setInterval(() => {
				if (posted().length < 20) return;
				clearInterval(check);
				resolve();
			}, 5);
		});
		const second = run(ctx.credentials, send({ resendUnconfirmed: true }), itemsFor(40), true);
		for (const result of [await first, await second]) expect(outputOf(result)).toHaveLength(40);
		expect([...posted()].sort()).toEqual(itemsFor(40).map((item) => item.json.to));
	});
});
