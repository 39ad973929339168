import { outputOf, run, textMessage, useSandbox } from './context';

const ctx = useSandbox();

const SENDER = '15550100100';
const [A, B, C, D] = ['+33612345671', '+33612345672', '+33612345673', '+33612345674'];
// Six messages to four recipients: the fourth (D, item 4) is the one beyond a quota of 3.
const recipients = [A, B, A, C, D, B];
const items = recipients.map((to) => ({ json: { to } }));

function senderWithQuota(dailyQuota: number): string {
	const sender = ctx.sandbox.seedSender(
		{ providerId: 'prov-1', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.approveSender(sender.id, { dailyQuota, rateLimit: 50 });
	for (const to of [A, B, C, D]) ctx.sandbox.simulateInbound(to, SENDER);
	return sender.id;
}

const send = (options: Record<string, unknown>) =>
	textMessage({ to: '={{ $json.to }}', options: { messagesPerSecond: 0, ...options } });
const posted = () =>
	ctx.sandbox.requests
		.filter((request) => request.method === 'POST')
		.map((request) => (request.body as { to: string }).to);

describe("Message › Send: the sender's daily quota of unique recipients, known before the first message", () => {
	it('refuses a run with more unique recipients than the quota before any message (the default)', async () => {
		const senderId = senderWithQuota(3);
		const result = await run(ctx.credentials, send({ rateLimitSenderId: senderId }), items);
		expect(result.error?.message).toBe(
			`This run would message 4 unique recipients, more than sender ${senderId}'s daily quota of 3`,
		);
		expect((result.error as { description?: string }).description).toMatch(
			/^Nothing was sent\. .*Send to the First Recipients/,
		);
		expect(posted()).toEqual([]);
		expect(ctx.sandbox.requests.map((request) => request.method)).toEqual(['GET']);
	});

	it('sends to the first recipients the quota allows and reports the others as not sent, paired, without Continue On Fail', async () => {
		const senderId = senderWithQuota(3);
		const output = outputOf(
			await run(
				ctx.credentials,
				send({ rateLimitSenderId: senderId, overQuota: 'sendFirst' }),
				items,
			),
		);
		expect(posted().sort()).toEqual([A, A, B, B, C].sort());
		// A sent message carries the platform's status (QUEUE); one not sent, the node's notSent.
		expect(
			output.map((item) => [
				item.pairedItem,
				item.json.to,
				item.json.status === 'QUEUE' ? 'sent' : item.json.status,
			]),
		).toEqual([
			[{ item: 0 }, A, 'sent'],
			[{ item: 1 }, B, 'sent'],
			[{ item: 2 }, A, 'sent'],
			[{ item: 3 }, C, 'sent'],
			[{ item: 4 }, D, 'notSent'],
			[{ item: 5 }, B, 'sent'],
		]);
		expect(output[4].json.error).toBe(
			`Not sent: ${D} is beyond sender ${senderId}'s daily quota of 3 unique recipients`,
		);
		expect(output[4].json).toMatchObject({
			from: SENDER,
			type: 'text',
			externalId: expect.any(String),
		});
	});

	it('sends everything with Send All (the platform refuses what is beyond its quota)', async () => {
		const senderId = senderWithQuota(3);
		// The one beyond the quota last: the platform's refusal is a 429 until midnight, past Max Wait
		// When Rate Limited, so the run starts nothing after it (a message after it came out sent or
		// notSent as it was in flight or not, on a busy machine).
		const beyondLast = [A, B, A, C, B, D].map((to) => ({ json: { to } }));
		const output = outputOf(
			await run(
				ctx.credentials,
				send({ rateLimitSenderId: senderId, overQuota: 'sendAll', rateLimitWait: 0 }),
				beyondLast,
				true,
			),
		);
		expect(posted()).toContain(D);
		expect(output[5].json.status).toBe('notSent');
		expect(output.filter((item) => item.json.status === 'QUEUE')).toHaveLength(5);
	});

	it('sends a run within the quota as it is, and reads no quota without a sender', async () => {
		const senderId = senderWithQuota(4);
		expect(
			outputOf(await run(ctx.credentials, send({ rateLimitSenderId: senderId }), items)).every(
				(item) => item.json.status === 'QUEUE',
			),
		).toBe(true);
		ctx.sandbox.reset();
		senderWithQuota(3);
		await run(ctx.credentials, send({}), items.slice(0, 3));
		expect(ctx.sandbox.requests.map((request) => request.method)).toEqual(['POST', 'POST', 'POST']);
	});

	it('says above the output that Over the Daily Quota does nothing without Sender ID for Rate Limit, and sends', async () => {
		senderWithQuota(9);
		const result = await run(ctx.credentials, send({ overQuota: 'sendFirst' }), items);
		expect(result.error).toBeUndefined();
		expect(result.hints).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message: expect.stringMatching(
					/^Over the Daily Quota did nothing: .*Sender ID for Rate Limit, which is empty/,
				),
			},
		]);
		// Nothing held back: the option had no quota to hold the run to.
		expect(posted()).toEqual(recipients);
		ctx.sandbox.reset();
		const withSender = await run(
			ctx.credentials,
			send({ overQuota: 'sendAll', rateLimitSenderId: senderWithQuota(9) }),
			items.slice(0, 1),
		);
		expect(withSender.hints).toEqual([]);
	});

	it('refuses an unknown choice before any request, naming the option', async () => {
		const result = await run(
			ctx.credentials,
			send({ rateLimitSenderId: 'snd_1', overQuota: 'maybe' }),
			items,
		);
		expect(result.error?.message).toMatch(/^Invalid "Options › Over the Daily Quota" in item 0: /);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});
