import { NodeApiError } from 'n8n-workflow';

import { API_KEY, credentialsFor, expectNoKey, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

const add = (extra: Record<string, unknown>) => ({
	resource: 'blacklist',
	operation: 'add',
	channel: 'SMS',
	from: 'ACME',
	...extra,
});
const check = (extra: Record<string, unknown>) => ({
	resource: 'blacklist',
	operation: 'check',
	channel: 'SMS',
	from: 'ACME',
	...extra,
});

describe('Blacklist > Add', () => {
	it('sends the recipient in E.164 with reason, channel, sender and listType BLACK, and outputs the entry', async () => {
		const result = await run(ctx.credentials, add({ to: '+33 6 12-34-56-78' }));
		const [item] = outputOf(result);
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(ctx.sandbox.requests[0]).toMatchObject({
			method: 'POST',
			path: '/messaging/subscribers',
			contentType: 'application/json',
		});
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(ctx.sandbox.requests[0].body).toEqual({
			to: '+33612345678',
			reason: 'UNSUBSCRIBED',
			type: 'SMS',
			from: 'ACME',
			listType: 'BLACK',
		});
		expect(item.json).toEqual({
			id: expect.any(String),
			to: '+33612345678',
			reason: 'UNSUBSCRIBED',
			date: expect.stringMatching(/Z$/),
		});
		expect(ctx.sandbox.isBlacklisted('ACME', 'SMS', '+33612345678')).toBe(true);
		expectNoKey(result);
	});

	it('is idempotent: adding the same recipient again keeps one entry', async () => {
		const [first] = outputOf(await run(ctx.credentials, add({ to: '0033612345678' })));
		const [second] = outputOf(
			await run(
				ctx.credentials,
				add({ to: '+33612345678', reason: 'custom', customReason: 'COMPLAINT' }),
			),
		);
		expect(second.json.id).toBe(first.json.id);
		expect(ctx.sandbox.requests[1].body).toMatchObject({ reason: 'COMPLAINT' });
		expect(ctx.sandbox.blacklistEntries()).toHaveLength(1);
	});

	it('an e-mail channel takes an e-mail address', async () => {
		outputOf(
			await run(
				ctx.credentials,
				add({ channel: 'EMAIL', from: 'news@example.com', to: ' Ada@Example.com ' }),
			),
		);
		expect(ctx.sandbox.requests[0].body).toMatchObject({
			to: 'Ada@Example.com',
			type: 'EMAIL',
			from: 'news@example.com',
		});
	});

	it.each([
		[
			{ channel: 'EMAIL', to: '+33612345678' },
			'Invalid "Recipient" in item 0: "+33612345678" is not an e-mail address',
		],
		[
			{ channel: 'SMS', to: 'ada@example.com' },
			'Invalid "Recipient" in item 0: "ada@example.com" is not a phone number: it contains letters',
		],
		[
			{ channel: 'CHATAPP', to: '06 12 34 56 78' },
			'Invalid "Recipient" in item 0: "06 12 34 56 78" has no country code: write it in international form, e.g. +33612345678',
		],
		[
			{ channel: 'RCS', to: '+012' },
			'Invalid "Recipient" in item 0: "+012" is not a valid international phone number (+, then up to 15 digits, the first not 0)',
		],
		[
			{ to: '+33612345678', from: '  ' },
			'Invalid "Sender" in item 0: the sender is required: the phone number, e-mail address or sender name that sends on this channel',
		],
		[
			{ to: '+33612345678', reason: 'custom', customReason: ' ' },
			'Invalid "Reason" in item 0: a reason is required',
		],
	])('refuses %j before sending', async (extra, message) => {
		const result = await run(ctx.credentials, add(extra));
		expect(result.error?.message).toBe(message);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('Blacklist > Check', () => {
	it('outputs the entry and blacklisted: true for a listed recipient', async () => {
		ctx.sandbox.seedBlacklist({
			from: 'ACME',
			type: 'SMS',
			to: '+33612345678',
			reason: 'UNSUBSCRIBED',
		});
		const [item] = outputOf(await run(ctx.credentials, check({ to: '+33 6 12 34 56 78' })));
		expect(ctx.sandbox.requests[0]).toMatchObject({
			method: 'GET',
			path: '/messaging/subscribers',
			query: { type: 'SMS', from: 'ACME', listType: 'BLACK', to: '+33612345678' },
		});
		expect(item.json).toMatchObject({
			blacklisted: true,
			to: '+33612345678',
			from: 'ACME',
			type: 'SMS',
			id: expect.any(String),
			reason: 'UNSUBSCRIBED',
		});
	});

	it('outputs blacklisted: false when the platform does not find the recipient, and the list is per sender', async () => {
		ctx.sandbox.seedBlacklist({
			from: 'OTHER',
			type: 'SMS',
			to: '+33612345678',
			reason: 'UNSUBSCRIBED',
		});
		const output = outputOf(
			await run(ctx.credentials, check({ to: '={{ $json.to }}' }), [
				{ json: { to: '+33612345678' } },
				{ json: { to: '+33700000000' } },
			]),
		);
		expect(output.map((i) => i.json)).toEqual([
			{ blacklisted: false, to: '+33612345678', from: 'ACME', type: 'SMS' },
			{ blacklisted: false, to: '+33700000000', from: 'ACME', type: 'SMS' },
		]);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('other platform errors stay errors', async () => {
		const result = await run(credentialsFor(ctx.sandbox, 'wrong'), check({ to: '+33612345678' }));
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect((result.error as NodeApiError).httpCode).toBe('401');
	});

	it('a 404 that is not the platform\'s JSON answer (a wrong Messaging Base URL) is an error, never "not blacklisted"', async () => {
		ctx.sandbox.addFault({
			kind: 'status',
			method: 'GET',
			path: '/subscribers',
			status: 404,
			raw: '<html><body>Not Found</body></html>',
			contentType: 'text/html',
		});
		const result = await run(ctx.credentials, check({ to: '+33612345678' }));
		expect(result.output).toBeFalsy();
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect((result.error as NodeApiError).description).toContain(
			'the Messaging Base URL in the credential',
		);
	});
});

describe('the Sender, per channel (issue 39)', () => {
	const TYPED = '+33 6 12-34-56-78';
	const USER = '+33700000001';

	const sendText = (from: string) => ({
		resource: 'message',
		operation: 'send',
		messageType: 'text',
		text: 'Hi',
		from,
		to: USER,
	});

	/** What Message › Send sends as `from` for the sender typed as `from` (an active sender). */
	async function sendersFrom(from: string): Promise<unknown> {
		ctx.sandbox.seedSender(
			{ providerId: 'prov-1', name: 'ACME', address: '+33612345678', accountTier: 1 },
			{ active: true },
		);
		ctx.sandbox.simulateInbound(USER, '33612345678');
		outputOf(await run(ctx.credentials, sendText(from)));
		const sent = ctx.sandbox.requests.find((request) => request.path.endsWith('/messages'));
		return (sent?.body as { from?: unknown }).from;
	}

	it('Chat App: Add sends the Sender as Message › Send sends it, digits only, and the entry stops the message', async () => {
		const sendsFrom = await sendersFrom(TYPED);
		const before = ctx.sandbox.requests.length;
		outputOf(await run(ctx.credentials, add({ channel: 'CHATAPP', from: TYPED, to: USER })));
		const added = ctx.sandbox.requests[before];
		expect(added.path).toBe('/messaging/subscribers');
		expect(added.body).toMatchObject({ type: 'CHATAPP', from: '33612345678', to: USER });
		expect((added.body as { from: unknown }).from).toBe(sendsFrom);
		expect(ctx.sandbox.isBlacklisted('33612345678', 'CHATAPP', USER)).toBe(true);
		const [again] = outputOf(await run(ctx.credentials, sendText(TYPED)));
		expect(again.json.status).toBe('BLACKLISTED');
	});

	it('Chat App: Check sends the Sender as Message › Send sends it and finds the digits-only entry', async () => {
		const sendsFrom = await sendersFrom(TYPED);
		ctx.sandbox.seedBlacklist({ from: '33612345678', type: 'CHATAPP', to: USER, reason: 'X' });
		const before = ctx.sandbox.requests.length;
		const [item] = outputOf(
			await run(ctx.credentials, check({ channel: 'CHATAPP', from: TYPED, to: USER })),
		);
		const checked = ctx.sandbox.requests[before];
		expect(checked.query).toEqual({
			type: 'CHATAPP',
			from: '33612345678',
			listType: 'BLACK',
			to: USER,
		});
		expect(checked.query.from).toBe(sendsFrom);
		expect(item.json).toMatchObject({ blacklisted: true, from: '33612345678', type: 'CHATAPP' });
	});

	it('SMS, RCS and Email keep the Sender as typed (trimmed) where Chat App takes the digits', async () => {
		const cases = [
			{ channel: 'SMS', from: ' MyShop ', to: USER },
			{ channel: 'SMS', from: TYPED, to: USER },
			{ channel: 'RCS', from: 'MyShop', to: USER },
			{ channel: 'EMAIL', from: 'news@example.com', to: 'ada@example.com' },
			{ channel: 'CHATAPP', from: TYPED, to: USER },
		];
		for (const extra of cases) {
			outputOf(await run(ctx.credentials, add(extra)));
			outputOf(await run(ctx.credentials, check(extra)));
		}
		const sent = ctx.sandbox.requests.map((request) =>
			request.method === 'POST' ? (request.body as { from: unknown }).from : request.query.from,
		);
		const each = ['MyShop', TYPED, 'MyShop', 'news@example.com', '33612345678'];
		expect(sent).toEqual(each.flatMap((from) => [from, from]));
	});

	it.each([
		['add', 'abc', '"abc" is not a phone number: it contains letters'],
		['check', 'abc', '"abc" is not a phone number: it contains letters'],
		[
			'add',
			'+0 555',
			'"+0 555" is not a valid international phone number (+, then up to 15 digits, the first not 0)',
		],
		[
			'check',
			'123',
			'"123" has 3 digits; a phone number has 7 to 15 digits including the country code',
		],
	])(
		'Chat App: %s refuses the Sender %j before any request, naming the item and "Sender"',
		async (operation, from, message) => {
			const items = [{ json: { from: TYPED } }, { json: { from } }];
			const parameters = operation === 'add' ? add({}) : check({});
			const result = await run(
				ctx.credentials,
				{ ...parameters, channel: 'CHATAPP', from: '={{ $json.from }}', to: USER },
				items,
			);
			expect(result.error?.message).toBe(`Invalid "Sender" in item 1: ${message}`);
			expect(ctx.sandbox.requests).toHaveLength(0);
		},
	);
});
