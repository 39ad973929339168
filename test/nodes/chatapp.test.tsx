import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { NodeApiError } from 'n8n-workflow';

import { API_KEY, expectNoKey, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

const SENDER = '15550100100';
const USER = '+33612345678';

function activeSender(options: { rateLimit?: number; dailyQuota?: number } = {}) {
	const sender = ctx.sandbox.seedSender(
		{ providerId: 'prov-1', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	if (options.rateLimit || options.dailyQuota) ctx.sandbox.approveSender(sender.id, options);
	ctx.sandbox.simulateInbound(USER, SENDER);
	return sender;
}

const send = (messageType: string, extra: Record<string, unknown> = {}) => ({
	resource: 'message',
	operation: 'send',
	messageType,
	from: '+1 555-010-0100',
	to: '+33 6 12 34 56 78',
	...extra,
});

describe('Sender', () => {
	it('Create sends the sender and says approval takes about 48 hours', async () => {
		const result = await run(ctx.credentials, {
			resource: 'sender',
			operation: 'create',
			providerId: 'prov-1',
			name: 'ACME Corp',
			address: '+1 (555) 010-0100',
			accountTier: 1,
			additionalFields: { dailyQuota: 250 },
		});
		const [item] = outputOf(result);
		expect(ctx.sandbox.requests[0]).toMatchObject({
			method: 'POST',
			path: '/messaging/chatapp/senders',
			contentType: 'application/json',
		});
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(ctx.sandbox.requests[0].body).toEqual({
			providerId: 'prov-1',
			name: 'ACME Corp',
			address: '+15550100100',
			accountTier: 1,
			dailyQuota: 250,
		});
		expect(item.json).toMatchObject({
			state: 'PENDING_IMPLEMENTATION',
			address: SENDER,
			dailyQuota: 250,
		});
		expect(item.json.hint).toMatch(/about 48 hours/);
		expectNoKey(result);
	});

	it('Create refuses a tier below 1 before sending', async () => {
		const result = await run(ctx.credentials, {
			resource: 'sender',
			operation: 'create',
			providerId: 'p',
			name: 'n',
			address: '+15550100100',
			accountTier: 0,
		});
		expect(result.error?.message).toBe(
			'Invalid "Account Tier" in item 0: it must be at least 1 (got 0)',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('Get shows the state and hints at support when the template namespace is empty', async () => {
		const sender = ctx.sandbox.seedSender({
			providerId: 'p',
			name: 'ACME',
			address: SENDER,
			accountTier: 1,
		});
		ctx.sandbox.approveSender(sender.id, { templateNamespace: null });
		const [item] = outputOf(
			await run(ctx.credentials, { resource: 'sender', operation: 'get', senderId: sender.id }),
		);
		expect(ctx.sandbox.requests[0]).toMatchObject({
			method: 'GET',
			path: `/messaging/chatapp/senders/${sender.id}`,
		});
		expect(item.json).toMatchObject({ id: sender.id, state: 'ACTIVE', templateNamespace: null });
		expect(item.json.hint).toMatch(/contact support/);
	});

	it('Get of an unknown sender is a 404 naming it', async () => {
		const result = await run(ctx.credentials, {
			resource: 'sender',
			operation: 'get',
			senderId: 'snd_nope',
		});
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(result.error?.message).toContain('snd_nope');
	});
});

describe('Message Template > Get Many', () => {
	it('asks by sender and outputs one item per template', async () => {
		const sender = activeSender();
		ctx.sandbox.seedMessageTemplate({
			name: 'order_shipped',
			category: 'Shipping Update',
			language: 'en',
			body: 'Order {{ORDER}} shipped',
			senderId: sender.id,
		});
		ctx.sandbox.seedMessageTemplate({
			name: 'other',
			category: 'Alert Updates',
			language: 'en',
			body: 'x',
			bizAccountId: 'biz-9',
		});
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'messageTemplate',
				operation: 'getMany',
				senderId: sender.id,
			}),
		);
		expect(ctx.sandbox.requests[0]).toMatchObject({
			method: 'GET',
			path: '/messaging/chatapp/templates/',
			query: { senderId: sender.id },
		});
		expect(output.map((i) => i.json.name)).toEqual(['order_shipped']);
	});

	it('outputs the first Limit templates, or all of them with Return All, from one request with the scope only', async () => {
		const sender = activeSender();
		for (const name of ['a_first', 'b_second', 'c_third'])
			ctx.sandbox.seedMessageTemplate({
				name,
				category: 'Alert Updates',
				language: 'en',
				body: 'x',
				senderId: sender.id,
			});
		const limited = outputOf(
			await run(ctx.credentials, {
				resource: 'messageTemplate',
				operation: 'getMany',
				senderId: sender.id,
				limit: 2,
			}),
		);
		expect(limited.map((i) => i.json.name)).toEqual(['a_first', 'b_second']);
		const all = outputOf(
			await run(ctx.credentials, {
				resource: 'messageTemplate',
				operation: 'getMany',
				senderId: sender.id,
				returnAll: true,
				limit: 1,
			}),
		);
		expect(all.map((i) => i.json.name)).toEqual(['a_first', 'b_second', 'c_third']);
		// The spec shows no paging for this call: nothing but the scope is asked, once per run.
		expect(ctx.sandbox.requests.map((r) => r.query)).toEqual([
			{ senderId: sender.id },
			{ senderId: sender.id },
		]);
	});

	it('needs a sender ID or a business account ID', async () => {
		const result = await run(ctx.credentials, {
			resource: 'messageTemplate',
			operation: 'getMany',
			senderId: ' ',
			bizAccountId: '',
		});
		expect(result.error?.message).toBe(
			'Invalid "Sender ID or Business Account ID" in item 0: give a sender ID or a business account ID (or both)',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('Message > Send, each type', () => {
	const envelope = { from: SENDER, to: USER };

	it.each([
		['text', { text: 'Hello {{name}}' }, { type: 'text', body: 'Hello {{name}}' }],
		[
			'image',
			{ mediaUrl: 'https://example.com/a/photo.png' },
			{ type: 'image', body: 'https://example.com/a/photo.png' },
		],
		[
			'audio',
			{ mediaUrl: 'https://example.com/a/voice.ogg' },
			{ type: 'audio', body: 'https://example.com/a/voice.ogg' },
		],
		[
			'video',
			{ mediaUrl: 'https://example.com/a/clip.mp4' },
			{ type: 'video', body: 'https://example.com/a/clip.mp4' },
		],
		[
			'document',
			{ mediaUrl: 'https://example.com/a/terms.pdf' },
			{ type: 'document', body: 'https://example.com/a/terms.pdf' },
		],
		[
			'location',
			{
				latitude: 48.8584,
				longitude: 2.2945,
				locationName: 'Eiffel Tower',
				locationAddress: 'Champ de Mars, Paris',
			},
			{
				type: 'location',
				location: {
					latitude: 48.8584,
					longitude: 2.2945,
					name: 'Eiffel Tower',
					address: 'Champ de Mars, Paris',
				},
			},
		],
		[
			'interactive',
			{
				bodyText: 'Did it arrive?',
				buttons: {
					button: [
						{ id: 'yes', title: 'Yes' },
						{ id: 'no', title: 'Not yet' },
					],
				},
			},
			{
				type: 'interactive',
				interactive: {
					type: 'button',
					body: { text: 'Did it arrive?' },
					action: {
						buttons: [
							{ type: 'reply', reply: { id: 'yes', title: 'Yes' } },
							{ type: 'reply', reply: { id: 'no', title: 'Not yet' } },
						],
					},
				},
			},
		],
		[
			'contacts',
			{
				contacts: {
					contact: [
						{
							formattedName: 'Ada Lovelace',
							firstName: 'Ada',
							lastName: 'Lovelace',
							birthday: '1815-12-10',
							company: 'Analytical Engines',
							title: 'Programmer',
							phones: { phone: [{ phone: '+44 20 7946 0000', type: 'WORK' }] },
							emails: { email: [{ email: 'ada@example.com', type: 'HOME' }] },
							urls: { url: [{ url: 'https://example.com/ada', type: 'WORK' }] },
							addresses: {
								address: [
									{
										street: '12 St James Sq',
										city: 'London',
										zip: 'SW1Y',
										country: 'United Kingdom',
										country_code: 'GB',
										type: 'HOME',
									},
								],
							},
						},
					],
				},
			},
			{
				type: 'contacts',
				contacts: [
					{
						name: { formatted_name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
						birthday: '1815-12-10',
						org: { company: 'Analytical Engines', title: 'Programmer' },
						phones: [{ phone: '+44 20 7946 0000', type: 'WORK' }],
						emails: [{ email: 'ada@example.com', type: 'HOME' }],
						urls: [{ url: 'https://example.com/ada', type: 'WORK' }],
						addresses: [
							{
								street: '12 St James Sq',
								city: 'London',
								zip: 'SW1Y',
								country: 'United Kingdom',
								country_code: 'GB',
								type: 'HOME',
							},
						],
					},
				],
			},
		],
	])(
		'%s: sends the exact body and outputs the accepted message',
		async (type, fields, expected) => {
			activeSender();
			const result = await run(
				ctx.credentials,
				send(type, {
					...fields,
					options: {
						externalId: 'ref42',
						callbacks: 'https://hooks.example.com/a, https://hooks.example.com/b',
					},
				}),
			);
			const [item] = outputOf(result);
			const request = ctx.sandbox.requests[0];
			expect(request).toMatchObject({
				method: 'POST',
				path: '/messaging/chatapp/messages',
				contentType: 'application/json',
			});
			expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
			expect(request.body).toEqual({
				...envelope,
				...expected,
				externalId: 'ref42',
				callbacks: 'https://hooks.example.com/a,https://hooks.example.com/b',
			});
			expect(item.json).toMatchObject({
				id: expect.stringMatching(/^msg_/),
				status: 'QUEUE',
				from: SENDER,
				to: USER,
				type,
			});
			expect(ctx.sandbox.messages()).toHaveLength(1);
		},
	);
});

describe('Message > Send, bad input', () => {
	it.each([
		[
			send('text', { text: 'x', to: '06 12 34 56 78' }),
			'Invalid "Recipient" in item 0: "06 12 34 56 78" has no country code: write it in international form, e.g. +33612345678',
		],
		[
			send('text', { text: 'x', from: 'ACME' }),
			'Invalid "Sender Phone Number" in item 0: "ACME" is not a phone number: it contains letters',
		],
		[send('text', { text: ' ' }), 'Invalid "Text" in item 0: the message text is required'],
		[
			send('image', { mediaUrl: 'ftp://example.com/photo.png' }),
			'Invalid "Media URL" in item 0: "ftp://example.com/photo.png" must start with http:// or https://',
		],
		// Formatted Name is a required parameter: n8n itself refuses the node when it is left empty...
		[
			send('contacts', { contacts: { contact: [{ firstName: 'Ada' }] } }),
			'The \'Node Under Test\' node has issues:\n- Parameter "Formatted Name" is required.',
		],
		// ...and the node refuses an expression that gives an item an empty one.
		[
			send('contacts', {
				contacts: { contact: [{ firstName: 'Ada', formattedName: '={{ $json.missing ?? "" }}' }] },
			}),
			'Invalid "Contacts › Formatted Name #1" in item 0: the formatted name is required',
		],
		[
			send('contacts', { contacts: { contact: [{ formattedName: 'Ada' }] } }),
			'Invalid "Contacts › First Name or Last Name #1" in item 0: a contact needs a first or last name besides its formatted name',
		],
		[
			send('location', { latitude: 91, longitude: 0 }),
			'Invalid "Latitude" in item 0: the latitude must be between -90 and 90',
		],
		[
			send('location', { latitude: 1, longitude: 1, locationAddress: '1 Main St' }),
			'Invalid "Location Name" in item 0: an address is only displayed together with a name: add a name, or leave the address out',
		],
		[
			send('interactive', { bodyText: 'x', buttons: {} }),
			'Invalid "Buttons" in item 0: an interactive message needs at least one reply button',
		],
		[
			send('interactive', {
				bodyText: 'x',
				buttons: {
					button: [
						{ id: 'a', title: 'A' },
						{ id: 'a', title: 'B' },
					],
				},
			}),
			'Invalid "Buttons › ID #2" in item 0: the button ID "a" is used twice; IDs must be unique',
		],
		[
			send('text', { text: 'x', options: { callbacks: 'https://ok.example.com, nope' } }),
			'Invalid "Options › Callback URLs" in item 0: "nope" is not a URL',
		],
		[
			send('text', { text: 'x', options: { externalId: 'ref-42' } }),
			'Invalid "Options › External ID" in item 0: the external ID holds letters and digits only (at most 64)',
		],
	])('%j is refused before any request', async (parameters, message) => {
		activeSender();
		const result = await run(ctx.credentials, parameters);
		expect(result.error?.message).toBe(message);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('checks every item before the first message goes out', async () => {
		activeSender();
		const result = await run(ctx.credentials, send('text', { text: '={{ $json.text }}' }), [
			{ json: { text: 'fine' } },
			{ json: { text: '' } },
		]);
		expect(result.error?.message).toBe('Invalid "Text" in item 1: the message text is required');
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('Message > Send, platform rules', () => {
	it('a sender not yet active is refused with the rule named', async () => {
		ctx.sandbox.seedSender({ providerId: 'p', name: 'ACME', address: SENDER, accountTier: 1 });
		const result = await run(ctx.credentials, send('text', { text: 'hi' }));
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect((result.error as NodeApiError).httpCode).toBe('403');
		expect(result.error?.message).toMatch(/PENDING_IMPLEMENTATION/);
	});

	it('a recipient outside the 24-hour window is refused: a template is required', async () => {
		activeSender();
		ctx.sandbox.advanceTime(24 * 3600 * 1000 + 1000);
		const result = await run(ctx.credentials, send('text', { text: 'hi' }));
		expect((result.error as NodeApiError).httpCode).toBe('403');
		expect(result.error?.message).toMatch(/template/);
	});

	it('a blacklisted recipient is not messaged: status BLACKLISTED', async () => {
		activeSender();
		ctx.sandbox.seedBlacklist({ from: SENDER, type: 'CHATAPP', to: USER, reason: 'UNSUBSCRIBED' });
		const [item] = outputOf(await run(ctx.credentials, send('text', { text: 'hi' })));
		expect(item.json.status).toBe('BLACKLISTED');
	});

	it('on 429 waits as Retry-After says and sends again; every message goes out exactly once', async () => {
		activeSender({ rateLimit: 1 });
		const items = ['a', 'b', 'c'].map((text) => ({ json: { text } }));
		const started = Date.now();
		const result = await run(ctx.credentials, send('text', { text: '={{ $json.text }}' }), items);
		const output = outputOf(result);
		expect(output.map((i) => i.json.status)).toEqual(['QUEUE', 'QUEUE', 'QUEUE']);
		// Sent side by side (Parallel Requests), the refused ones resent: each once, in any order.
		expect(
			ctx.sandbox
				.messages()
				.map((m) => (m.request as { body: string }).body)
				.sort(),
		).toEqual(['a', 'b', 'c']);
		// Every attempt, resends included, carries the key; the run loaded the credential once.
		expect(new Set(ctx.sandbox.requests.map((r) => r.headers.authorization))).toEqual(
			new Set([`Bearer ${API_KEY}`]),
		);
		expect(result.credentialReads).toBe(1);
		const statuses = ctx.sandbox.requests.map((r) => r.status);
		expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
		expect(statuses.filter((s) => s === 200)).toHaveLength(3);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
	}, 120_000);

	it('stops with the 429 when the wait would exceed the allowed time', async () => {
		activeSender({ dailyQuota: 1 });
		outputOf(await run(ctx.credentials, send('text', { text: 'first' })));
		ctx.sandbox.simulateInbound('+33700000001', SENDER);
		const result = await run(
			ctx.credentials,
			send('text', { text: 'second', to: '+33700000001', options: { rateLimitWait: 5 } }),
		);
		expect((result.error as NodeApiError).httpCode).toBe('429');
		expect(ctx.sandbox.requests.filter((r) => r.status === 429)).toHaveLength(1);
		expect(ctx.sandbox.messages()).toHaveLength(1);
	});
});

describe('Message > Send, media check', () => {
	let mediaUrl: string;
	let close: () => void;
	beforeAll(async () => {
		const server = createServer((request, response) => {
			const types: Record<string, [string, number]> = {
				'/ok.png': ['image/png', 1024],
				'/big.png': ['image/png', 6 * 1024 * 1024],
				'/gif': ['image/gif', 10],
			};
			const [type, size] = types[request.url ?? ''] ?? ['text/plain', 0];
			response.writeHead(request.url && types[request.url] ? 200 : 404, {
				'content-type': type,
				'content-length': String(size),
			});
			response.end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		mediaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		close = () => server.close();
	});
	afterAll(() => close());

	it('sends when the HEAD answer fits, refuses a wrong type or a file over 5 MB before sending', async () => {
		activeSender();
		const check = (path: string) =>
			run(
				ctx.credentials,
				send('image', { mediaUrl: `${mediaUrl}${path}`, options: { checkMedia: true } }),
			);
		expect((await check('/ok.png')).error).toBeUndefined();
		expect((await check('/gif')).error?.message).toBe(
			'Invalid "Media URL" in item 0: the file is image/gif; image messages take image/jpeg, image/png',
		);
		expect((await check('/big.png')).error?.message).toBe(
			'Invalid "Media URL" in item 0: the file is 6.0 MB; media messages take at most 5 MB',
		);
		expect((await check('/missing.png')).error?.message).toBe(
			'Invalid "Media URL" in item 0: the media URL answered HTTP 404',
		);
		expect(ctx.sandbox.messages()).toHaveLength(1);
	});
});
