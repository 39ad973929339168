import { startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta, type CallOptions } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const DAY = 86_400_000;
const FROM = '15550100';
const USER = '+33612345678';
const senderInput = { providerId: 'prov-1', name: 'ACME', address: `+${FROM}`, accountTier: 1 };

const send = (json: unknown, options: CallOptions = {}) =>
	call(sandbox, 'POST', '/chatapp/messages', { baseUrl: sandbox.baseUrl, json, ...options });
const text = (extra: Record<string, unknown> = {}) => ({
	from: FROM,
	to: USER,
	type: 'text',
	body: 'Hello',
	...extra,
});
const admin = async (path: string, json: unknown) => {
	const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(json),
	});
	return { status: res.status, body: (await res.json()) as any };
};

/** An ACTIVE sender whose window with USER (and the given users) is open. */
function ready(approve: Parameters<Sandbox['approveSender']>[1] = {}, users: string[] = [USER]) {
	const sender = sandbox.seedSender(senderInput, { active: true });
	sandbox.approveSender(sender.id, approve);
	for (const user of users) sandbox.simulateInbound(user, FROM);
	return sender;
}

const contact = {
	addresses: [
		{
			city: 'Paris',
			country: 'France',
			country_code: 'FR',
			state: 'IDF',
			street: '1 rue de Rivoli',
			type: 'WORK',
			zip: '75001',
		},
	],
	birthday: '1990-02-28',
	emails: [{ email: 'jane@example.com', type: 'HOME' }],
	name: { first_name: 'Jane', formatted_name: 'Jane Doe', last_name: 'Doe' },
	org: { company: 'ACME', department: 'Sales', title: 'Manager' },
	phones: [{ phone: '+33612345679', type: 'WORK' }, { phone: '+33612345670' }],
	urls: [{ url: 'https://acme.example', type: 'WORK' }],
};
const buttons = (n: number) =>
	Array.from({ length: n }, (_, i) => ({
		type: 'reply',
		reply: { id: `b${i}`, title: `Option ${i}` },
	}));
const interactive = (extra: Record<string, unknown> = {}) => ({
	type: 'button',
	body: { text: 'Pick one' },
	action: { buttons: buttons(3) },
	...extra,
});

describe('POST /chatapp/messages: accepted messages', () => {
	it.each<[string, Record<string, unknown>]>([
		['text', { type: 'text', body: 'Hello, see https://acme.example' }],
		['text by default (no type)', { body: 'Hi' }],
		['image .jpg', { type: 'image', body: 'https://cdn.example.com/p/photo.JPG' }],
		['image without extension', { type: 'image', body: 'https://cdn.example.com/media/12345' }],
		['audio .ogg', { type: 'audio', body: 'http://cdn.example.com/voice.ogg' }],
		['audio .mp3', { type: 'audio', body: 'https://cdn.example.com/a/song.mp3' }],
		['video .3gpp', { type: 'video', body: 'https://cdn.example.com/clip.3gpp' }],
		[
			'document .pdf with a query',
			{ type: 'document', body: 'https://cdn.example.com/invoice.pdf?sig=abc.def' },
		],
		[
			'contacts',
			{
				type: 'contacts',
				contacts: [contact, { name: { formatted_name: 'Bob', last_name: 'B' } }],
			},
		],
		[
			'location',
			{
				type: 'location',
				location: {
					latitude: 48.8566,
					longitude: 2.3522,
					name: 'Paris',
					address: 'Place de la Concorde',
				},
			},
		],
		['location at the limits', { type: 'location', location: { latitude: -90, longitude: 180 } }],
		['interactive with 3 reply buttons', { type: 'interactive', interactive: interactive() }],
		[
			'interactive with 1 button',
			{ type: 'interactive', interactive: interactive({ action: { buttons: buttons(1) } }) },
		],
	])('accepts %s', async (_, content) => {
		const sender = ready();
		const json = { from: FROM, to: USER, ...content };
		const res = await send(json);
		expect(res.status).toBe(200);
		expectMeta(res.body);
		const type = (content.type as string) ?? 'text';
		expect(Object.keys(res.body.data)).toEqual(['id', 'status', 'from', 'to', 'type']);
		expect(res.body.data).toEqual({
			id: expect.stringMatching(/^msg_[0-9a-f]{16}$/),
			status: 'QUEUE',
			from: FROM,
			to: USER,
			type,
		});
		const [stored] = sandbox.messages();
		expect(stored).toEqual(
			expect.objectContaining({
				id: res.body.data.id,
				senderId: sender.id,
				from: FROM,
				to: USER,
				type,
				externalId: null,
				callbacks: [],
				request: json,
			}),
		);
		expect(stored.history[0]).toEqual({ status: 'QUEUE', date: stored.createdAt });
	});

	it('echoes externalId and records the request', async () => {
		ready();
		const res = await send(text({ externalId: 'Order42' }));
		expect(res.body.data).toEqual(expect.objectContaining({ externalId: 'Order42' }));
		expect(Object.keys(res.body.data)).toEqual([
			'id',
			'status',
			'from',
			'to',
			'type',
			'externalId',
		]);
		expect(sandbox.messages()[0].externalId).toBe('Order42');
		expect(sandbox.requests[0]).toEqual(
			expect.objectContaining({
				path: '/messaging/chatapp/messages',
				status: 200,
				body: text({ externalId: 'Order42' }),
			}),
		);
	});

	it('needs the Bearer key and a JSON body', async () => {
		ready();
		expect((await send(text(), { auth: 'nope' })).status).toBe(401);
		expect(
			(await send(undefined, { raw: 'hello', headers: { 'content-type': 'text/plain' } })).status,
		).toBe(415);
		expect(sandbox.messages()).toEqual([]);
	});
});

describe('POST /chatapp/messages: validation (400 VALIDATION_FAILED)', () => {
	const long = (n: number) => 'x'.repeat(n);
	it.each<[string, unknown, string | RegExp]>([
		[
			'a body that is not an object',
			[text()],
			'Body must be a JSON object with from, to and the message content',
		],
		[
			'no from',
			text({ from: undefined }),
			'from is required (the sender phone number, digits only)',
		],
		[
			'from with +',
			text({ from: '+15550100' }),
			'from must hold digits only, without + (got "+15550100")',
		],
		['from with spaces', text({ from: '1555 0100' }), /^from must hold digits only, without \+/],
		['a numeric from', text({ from: 15550100 }), 'from must be a string (got 15550100)'],
		[
			'no to',
			text({ to: '' }),
			'to is required (the recipient in E.164 format, e.g. +33612345678)',
		],
		[
			'to without +',
			text({ to: '33612345678' }),
			'to must be an E.164 phone number: "+" then 7 to 15 digits (the first not 0), no spaces (got "33612345678")',
		],
		['to with spaces', text({ to: '+33 6 12 34 56 78' }), /^to must be an E\.164 phone number/],
		[
			'to of 6 digits',
			text({ to: '+683400' }),
			/^to must be an E\.164 phone number: .* \(got "\+683400"\)$/,
		],
		['to of 16 digits', text({ to: '+3361234567890123' }), /^to must be an E\.164 phone number/],
		[
			'an unknown type',
			text({ type: 'sticker' }),
			'type must be one of text, image, audio, video, document, contacts, location, interactive (got "sticker")',
		],
		['an uppercase type', text({ type: 'TEXT' }), /^type must be one of .* \(got "TEXT"\)$/],
		[
			'externalId with a dash',
			text({ externalId: 'order-42' }),
			'externalId must be alphanumeric: letters A-Z, a-z and digits only (got "order-42")',
		],
		['an empty externalId', text({ externalId: '' }), /^externalId must be alphanumeric/],
		['a numeric externalId', text({ externalId: 42 }), 'externalId must be a string (got 42)'],
		[
			'externalId over 64 characters',
			text({ externalId: long(65) }),
			'externalId must be at most 64 characters (got 65)',
		],
		[
			'callbacks not a string',
			text({ callbacks: ['https://a.io'] }),
			/^callbacks must hold one or more http\(s\) URLs separated by commas \(got \["https:\/\/a\.io"\]\)$/,
		],
		[
			'an ftp callback',
			text({ callbacks: 'https://a.io/h, ftp://b.io/h' }),
			'callbacks must hold one or more http(s) URLs separated by commas: "ftp://b.io/h" is not an http(s) URL',
		],
		['a callback that is no URL', text({ callbacks: 'hook' }), /: "hook" is not an http\(s\) URL$/],
		['an empty callback entry', text({ callbacks: 'https://a.io/h,' }), /: URL 2 is empty/],
		[
			'text without body',
			text({ body: undefined }),
			'body is required for type text (the message text)',
		],
		['text with a blank body', text({ body: '   ' }), 'body must not be blank'],
		[
			'text over 4096 characters',
			text({ body: long(4097) }),
			'body must be at most 4096 characters for type text (got 4097)',
		],
		[
			'image without body',
			{ from: FROM, to: USER, type: 'image' },
			'body is required for type image (the URL of the image)',
		],
		[
			'image that is not a URL',
			{ from: FROM, to: USER, type: 'image', body: 'photo.jpg' },
			'body must be an http(s) URL for type image (got "photo.jpg")',
		],
		[
			'image as .mp3',
			{ from: FROM, to: USER, type: 'image', body: 'https://x.io/a.mp3' },
			'body URL has the file extension .mp3, which does not match type image (accepted: .jpg, .jpeg, .png, or no extension)',
		],
		[
			'image as .gif',
			{ from: FROM, to: USER, type: 'image', body: 'https://x.io/a.gif' },
			/extension \.gif, which does not match type image/,
		],
		[
			'audio as .wav',
			{ from: FROM, to: USER, type: 'audio', body: 'https://x.io/a.wav' },
			/extension \.wav, which does not match type audio \(accepted: \.aac, \.m4a, \.mp4, \.amr, \.mp3, \.mpeg, \.ogg, \.opus, or no extension\)/,
		],
		[
			'video as .mov',
			{ from: FROM, to: USER, type: 'video', body: 'https://x.io/v.mov' },
			/extension \.mov, which does not match type video/,
		],
		[
			'document as .docx',
			{ from: FROM, to: USER, type: 'document', body: 'https://x.io/d.docx' },
			/extension \.docx, which does not match type document \(accepted: \.pdf, or no extension\)/,
		],
		[
			'contacts missing',
			{ from: FROM, to: USER, type: 'contacts' },
			'contacts is required for type contacts (a non-empty array of contact objects)',
		],
		[
			'contacts empty',
			{ from: FROM, to: USER, type: 'contacts', contacts: [] },
			'contacts must be a non-empty array of contact objects (got [])',
		],
		[
			'a contact that is no object',
			{ from: FROM, to: USER, type: 'contacts', contacts: ['Jane'] },
			/^contacts\[0\] must be an object with at least name/,
		],
		[
			'a contact without name',
			{ from: FROM, to: USER, type: 'contacts', contacts: [{ ...contact, name: undefined }] },
			'contacts[0].name is required (an object with formatted_name and first_name or last_name)',
		],
		[
			'a name with formatted_name only',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [contact, { name: { formatted_name: 'Jane' } }],
			},
			'contacts[1].name needs formatted_name and at least one of first_name, last_name',
		],
		[
			'a name without formatted_name',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [{ name: { first_name: 'Jane', last_name: 'Doe' } }],
			},
			'contacts[0].name needs formatted_name and at least one of first_name, last_name',
		],
		[
			'a numeric first_name',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [{ name: { formatted_name: 'J', first_name: 1 } }],
			},
			'contacts[0].name.first_name must be a string (got 1)',
		],
		[
			'an impossible birthday',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [{ ...contact, birthday: '1990-02-30' }],
			},
			'contacts[0].birthday must be a date YYYY-MM-DD (got "1990-02-30")',
		],
		[
			'a birthday in another format',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [{ ...contact, birthday: '28/02/1990' }],
			},
			/^contacts\[0\]\.birthday must be a date YYYY-MM-DD/,
		],
		[
			'phones as an object',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [{ ...contact, phones: { phone: '+1' } }],
			},
			'contacts[0].phones must be an array of objects (got {"phone":"+1"})',
		],
		[
			'an email that is a string',
			{ from: FROM, to: USER, type: 'contacts', contacts: [{ ...contact, emails: ['a@b.io'] }] },
			'contacts[0].emails[0] must be an object (got "a@b.io")',
		],
		[
			'a sub-item type CELL',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [{ ...contact, phones: [{ phone: '+1', type: 'CELL' }] }],
			},
			'contacts[0].phones[0].type must be HOME or WORK (got "CELL")',
		],
		[
			'a lowercase sub-item type',
			{
				from: FROM,
				to: USER,
				type: 'contacts',
				contacts: [{ ...contact, urls: [{ url: 'x', type: 'home' }] }],
			},
			'contacts[0].urls[0].type must be HOME or WORK (got "home")',
		],
		[
			'org as a string',
			{ from: FROM, to: USER, type: 'contacts', contacts: [{ ...contact, org: 'ACME' }] },
			'contacts[0].org must be an object { company, department, title } (got "ACME")',
		],
		[
			'location missing',
			{ from: FROM, to: USER, type: 'location' },
			'location is required (an object with latitude and longitude)',
		],
		[
			'latitude missing',
			{ from: FROM, to: USER, type: 'location', location: { longitude: 2 } },
			'location.latitude is required (a number between -90 and 90)',
		],
		[
			'latitude 91',
			{ from: FROM, to: USER, type: 'location', location: { latitude: 91, longitude: 2 } },
			'location.latitude must be a number between -90 and 90 (got 91)',
		],
		[
			'latitude as a string',
			{ from: FROM, to: USER, type: 'location', location: { latitude: '48.8', longitude: 2 } },
			'location.latitude must be a number between -90 and 90 (got "48.8")',
		],
		[
			'longitude -181',
			{ from: FROM, to: USER, type: 'location', location: { latitude: 0, longitude: -181 } },
			'location.longitude must be a number between -180 and 180 (got -181)',
		],
		[
			'a numeric location name',
			{ from: FROM, to: USER, type: 'location', location: { latitude: 0, longitude: 0, name: 7 } },
			'location.name must be a string (got 7)',
		],
		[
			'interactive missing',
			{ from: FROM, to: USER, type: 'interactive' },
			'interactive is required (an object with type, body and action)',
		],
		[
			'an interactive list',
			{ from: FROM, to: USER, type: 'interactive', interactive: interactive({ type: 'list' }) },
			'interactive.type "list" is not supported: only reply buttons are supported (interactive.type "button")',
		],
		[
			'interactive without body text',
			{ from: FROM, to: USER, type: 'interactive', interactive: interactive({ body: {} }) },
			'interactive.body.text is required',
		],
		[
			'interactive without action',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({ action: undefined }),
			},
			'interactive.action is required (an object with buttons)',
		],
		[
			'no buttons',
			{ from: FROM, to: USER, type: 'interactive', interactive: interactive({ action: {} }) },
			'interactive.action.buttons is required (1 to 3 reply buttons)',
		],
		[
			'0 buttons',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({ action: { buttons: [] } }),
			},
			'interactive.action.buttons must hold 1 to 3 reply buttons (got 0)',
		],
		[
			'4 buttons',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({ action: { buttons: buttons(4) } }),
			},
			'interactive.action.buttons must hold 1 to 3 reply buttons (got 4)',
		],
		[
			'a url button',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({
					action: { buttons: [{ type: 'url', reply: { id: 'a', title: 'A' } }] },
				}),
			},
			'interactive.action.buttons[0].type must be "reply" (got "url")',
		],
		[
			'a button without id',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({
					action: { buttons: [{ type: 'reply', reply: { title: 'A' } }] },
				}),
			},
			'interactive.action.buttons[0].reply.id is required',
		],
		[
			'repeated button ids',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({
					action: {
						buttons: [buttons(1)[0], { type: 'reply', reply: { id: 'b0', title: 'Again' } }],
					},
				}),
			},
			'interactive.action.buttons[1].reply.id "b0" repeats interactive.action.buttons[0].reply.id; button ids must be unique',
		],
		[
			'an empty button title',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({
					action: { buttons: [{ type: 'reply', reply: { id: 'a', title: '' } }] },
				}),
			},
			'interactive.action.buttons[0].reply.title is required',
		],
		[
			'a title over 20 characters',
			{
				from: FROM,
				to: USER,
				type: 'interactive',
				interactive: interactive({
					action: { buttons: [{ type: 'reply', reply: { id: 'a', title: long(21) } }] },
				}),
			},
			'interactive.action.buttons[0].reply.title must be at most 20 characters (got 21)',
		],
	])('refuses %s', async (_, json, message) => {
		ready();
		const res = await send(json);
		expect(res.status).toBe(400);
		expectMeta(res.body);
		expect(res.body.error.code).toBe('VALIDATION_FAILED');
		if (typeof message === 'string') expect(res.body.error.message).toBe(message);
		else expect(res.body.error.message).toMatch(message);
		expect(sandbox.messages()).toEqual([]);
	});

	it('checks from, to, type, externalId and callbacks in that order, before the sender', async () => {
		const all = { from: '+1', to: '1', type: 'x', externalId: '-', callbacks: 'ftp://x' };
		expect((await send(all)).body.error.message).toMatch(/^from /);
		expect((await send({ ...all, from: FROM })).body.error.message).toMatch(/^to /);
		expect((await send({ ...all, from: FROM, to: USER })).body.error.message).toMatch(/^type /);
		expect((await send({ ...all, from: FROM, to: USER, type: 'text' })).body.error.message).toMatch(
			/^externalId /,
		);
		expect(
			(await send({ ...all, from: FROM, to: USER, type: 'text', externalId: 'a' })).body.error
				.message,
		).toMatch(/^callbacks /);
		expect(
			(
				await send({
					...all,
					from: FROM,
					to: USER,
					type: 'text',
					externalId: 'a',
					callbacks: 'https://x.io',
				})
			).body.error.message,
		).toMatch(/^body /);
		// no sender exists at all: validation still answers first
		expect(sandbox.senders()).toEqual([]);
	});
});

describe('sender rules', () => {
	it('answers 404 UNKNOWN_SENDER when no sender has the address', async () => {
		ready();
		const res = await send(text({ from: '15550199' }));
		expect(res.status).toBe(404);
		expectMeta(res.body);
		expect(res.body.error).toEqual({
			status: 404,
			code: 'UNKNOWN_SENDER',
			message:
				'No sender with address 15550199: create one with POST /chatapp/senders (from must be its address, digits only)',
		});
	});

	it('answers 403 SENDER_NOT_ACTIVE while the sender awaits approval, then sends once approved', async () => {
		const sender = sandbox.seedSender(senderInput);
		sandbox.simulateInbound(USER, FROM);
		const res = await send(text());
		expect(res.status).toBe(403);
		expect(res.body.error.code).toBe('SENDER_NOT_ACTIVE');
		expect(res.body.error.message).toBe(
			`Sender ${sender.id} (15550100) is PENDING_IMPLEMENTATION: it can send messages once the chat-app provider approves the account, which takes about 48 hours`,
		);
		sandbox.approveSender(sender.id);
		expect((await send(text())).status).toBe(200);
	});
});

describe('24-hour conversation window', () => {
	const outside = (user: string) => ({
		status: 403,
		code: 'OUTSIDE_CONVERSATION_WINDOW',
		message: `No message from ${user} in the last 24 hours: outside the conversation window a pre-approved template message is required`,
	});

	it('refuses a user who never wrote, accepts after an inbound message, refuses again 24 h later', async () => {
		ready({}, []);
		sandbox.clock.freeze();
		const closed = await send(text());
		expect(closed.status).toBe(403);
		expectMeta(closed.body);
		expect(closed.body.error).toEqual(outside(USER));

		const inbound = await admin('/chatapp/inbound', { from: USER, to: '+15550100' });
		expect(inbound.status).toBe(200);
		const opened = sandbox.clock.nowMs();
		expect(inbound.body).toEqual({
			from: USER,
			to: FROM,
			date: new Date(opened).toISOString(),
			windowExpiresAt: new Date(opened + DAY).toISOString(),
		});
		expect(sandbox.inboundMessages()).toEqual([inbound.body]);
		expect((await send(text())).status).toBe(200);

		sandbox.advanceTime(DAY - 1);
		expect((await send(text())).status).toBe(200);
		sandbox.advanceTime(1);
		expect((await send(text())).body.error).toEqual(outside(USER));

		sandbox.simulateInbound(USER, FROM); // a new user message reopens it
		expect((await send(text())).status).toBe(200);
		expect(sandbox.messages()).toHaveLength(3);
	});

	it('is kept per user and per sender', async () => {
		ready();
		const other = sandbox.seedSender({ ...senderInput, address: '15550101' }, { active: true });
		sandbox.simulateInbound('+33612345699', '15550101');
		expect((await send(text({ to: '+33612345699' }))).body.error).toEqual(outside('+33612345699'));
		expect((await send(text({ from: other.address }))).body.error).toEqual(outside(USER));
		expect((await send(text({ from: other.address, to: '+33612345699' }))).status).toBe(200);
	});

	it('validates the admin inbound endpoint', async () => {
		ready();
		expect(
			(await admin('/chatapp/inbound', { from: '33612345678', to: FROM })).body.error.message,
		).toMatch(/^from must be an E\.164 phone number/);
		expect(
			(await admin('/chatapp/inbound', { from: USER, to: 'acme' })).body.error.message,
		).toMatch(/^to must be a sender address/);
		const unknown = await admin('/chatapp/inbound', { from: USER, to: '15550199' });
		expect(unknown.status).toBe(404);
		expect(unknown.body.error.code).toBe('UNKNOWN_SENDER');
		expect(() => sandbox.simulateInbound('nope', FROM)).toThrow(
			/from must be an E\.164 phone number/,
		);
	});
});

describe('rate limit', () => {
	it('answers 429 RATE_LIMITED with Retry-After 1 beyond rateLimit in one clock second, then accepts after 1 s', async () => {
		ready({ rateLimit: 2 }, [USER, '+33612345601']);
		sandbox.clock.freeze();
		expect((await send(text())).status).toBe(200);
		expect((await send(text({ to: '+33612345601' }))).status).toBe(200);
		const limited = await send(text());
		expect(limited.status).toBe(429);
		expectMeta(limited.body);
		expect(limited.headers.get('retry-after')).toBe('1');
		expect(limited.body.error).toEqual({
			status: 429,
			code: 'RATE_LIMITED',
			message:
				'Sender 15550100 exceeded its rate limit of 2 messages per second; retry after 1 second',
		});
		expect(sandbox.messages()).toHaveLength(2);

		// another sender is not limited by this one
		sandbox.seedSender({ ...senderInput, address: '15550101' }, { active: true });
		sandbox.simulateInbound(USER, '15550101');
		expect((await send(text({ from: '15550101' }))).status).toBe(200);

		sandbox.advanceTime(1_000);
		expect((await send(text())).status).toBe(200);
		expect(sandbox.messages()).toHaveLength(4);
	});

	it("dates every answer, a 429 included, with the second of its own clock (the one its rate limit counts), not the machine's", async () => {
		sandbox.clock.freeze();
		sandbox.advanceTime(3 * 86_400_000 + 500);
		ready({ rateLimit: 1 }, [USER]);
		const second = Math.floor(sandbox.clock.nowMs() / 1000);
		const accepted = await send(text());
		const limited = await send(text());
		expect([accepted.status, limited.status]).toEqual([200, 429]);
		for (const answer of [accepted, limited])
			expect(Date.parse(answer.headers.get('date')!) / 1000).toBe(second);
	});
});

describe('daily quota (unique recipients per UTC day)', () => {
	const users = ['+33612345601', '+33612345602', '+33612345603'];

	it('rejects a new recipient beyond dailyQuota with 429 and Retry-After until midnight UTC', async () => {
		ready({ dailyQuota: 2 }, users);
		sandbox.clock.freeze();
		expect((await send(text({ to: users[0] }))).status).toBe(200);
		expect((await send(text({ to: users[1] }))).status).toBe(200);
		const refused = await send(text({ to: users[2] }));
		expect(refused.status).toBe(429);
		expectMeta(refused.body);
		const now = sandbox.clock.nowMs();
		const midnight = Date.UTC(
			new Date(now).getUTCFullYear(),
			new Date(now).getUTCMonth(),
			new Date(now).getUTCDate() + 1,
		);
		const retryAfter = Math.max(1, Math.ceil((midnight - now) / 1000));
		expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
		expect(refused.body.error.code).toBe('QUOTA_EXCEEDED');
		expect(refused.body.error.message).toBe(
			`Sender 15550100 reached its daily quota of 2 unique recipients for ${new Date(now).toISOString().slice(0, 10)} (UTC) and ${users[2]} would be a new one; retry after 00:00 UTC (in ${retryAfter} s)`,
		);
		// a recipient already reached today still gets messages
		expect((await send(text({ to: users[0] }))).status).toBe(200);
		expect(sandbox.messages().map((m) => m.to)).toEqual([users[0], users[1], users[0]]);

		sandbox.advanceTime(retryAfter * 1000);
		for (const user of users) sandbox.simulateInbound(user, FROM);
		expect((await send(text({ to: users[2] }))).status).toBe(200);
	});

	it("with quotaExceeded 'status' accepts the message with status QUOTA_EXCEEDED, not sent", async () => {
		expect(sandbox.configureChatapp({ quotaExceeded: 'status' }).quotaExceeded).toBe('status');
		ready({ dailyQuota: 1 }, users);
		await send(text({ to: users[0] }));
		const res = await send(text({ to: users[1], externalId: 'q1' }));
		expect(res.status).toBe(200);
		expect(res.body.data).toEqual({
			id: expect.any(String),
			status: 'QUOTA_EXCEEDED',
			from: FROM,
			to: users[1],
			type: 'text',
			externalId: 'q1',
		});
		const stored = sandbox.messages()[1];
		expect(stored.status).toBe('QUOTA_EXCEEDED');
		expect(stored.history.map((h) => h.status)).toEqual(['QUEUE', 'QUOTA_EXCEEDED']);
		// still over quota: the refused recipient was not counted
		expect((await send(text({ to: users[1] }))).body.data.status).toBe('QUOTA_EXCEEDED');
		sandbox.reset();
		expect(sandbox.chatappSettings().quotaExceeded).toBe('reject');
	});

	it('is configurable through the admin endpoint', async () => {
		const res = await admin('/chatapp/config', { quotaExceeded: 'status' });
		expect(res.status).toBe(200);
		expect(res.body).toEqual(
			expect.objectContaining({
				quotaExceeded: 'status',
				callbackStatuses: ['QUEUE', 'DEQUEUED', 'SENT', 'DELIVERED', 'READ'],
			}),
		);
		expect((await admin('/chatapp/config', { quotaExceeded: 'drop' })).body.error.message).toBe(
			'quotaExceeded must be "reject" or "status" (got "drop")',
		);
		expect(
			(await admin('/chatapp/config', { callbackStatuses: ['SENT'] })).body.error.message,
		).toMatch(/starting with QUEUE/);
		expect((await admin('/chatapp/config', { retries: 1 })).body.error.message).toMatch(
			/unknown field\(s\) retries/,
		);
	});
});

describe('blacklist', () => {
	const entry = { to: USER, reason: 'UNSUBSCRIBED', type: 'CHATAPP' };

	it.each(['+15550100', '15550100'])(
		"accepts but does not send to a recipient on the sender's own blacklist (from %s)",
		async (from) => {
			ready();
			sandbox.seedBlacklist({ ...entry, from });
			const res = await send(text());
			expect(res.status).toBe(200);
			expect(res.body.data.status).toBe('BLACKLISTED');
			expect(sandbox.messages()[0].history.map((h) => h.status)).toEqual(['QUEUE', 'BLACKLISTED']);
		},
	);

	it("ignores another sender's blacklist and other channels", async () => {
		ready();
		sandbox.seedBlacklist({ ...entry, from: '+15550199' });
		sandbox.seedBlacklist({ ...entry, from: '+15550100', type: 'SMS' });
		sandbox.seedBlacklist({ ...entry, from: '15550100', to: '+33612345699' });
		expect((await send(text())).body.data.status).toBe('QUEUE');
	});

	it('does not count blacklisted recipients in the daily quota', async () => {
		ready({ dailyQuota: 1 }, [USER, '+33612345601']);
		sandbox.seedBlacklist({ ...entry, from: '15550100' });
		expect((await send(text())).body.data.status).toBe('BLACKLISTED');
		expect((await send(text({ to: '+33612345601' }))).body.data.status).toBe('QUEUE');
	});
});
