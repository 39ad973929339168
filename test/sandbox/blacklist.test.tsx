import { HttpError, startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta, type CallOptions } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const add = (json: unknown, options: CallOptions = {}) =>
	call(sandbox, 'POST', '/subscribers', { baseUrl: sandbox.baseUrl, json, ...options });
const lookup = (query: Record<string, string>, options: CallOptions = {}) =>
	call(sandbox, 'GET', '/subscribers', { baseUrl: sandbox.baseUrl, query, ...options });

const ISO_UTC_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const entry = { to: '+33612345678', reason: 'UNSUBSCRIBED', type: 'SMS', from: 'ACME' };
const query = { type: 'SMS', from: 'ACME', listType: 'BLACK', to: '+33612345678' };

describe('authentication', () => {
	it('needs the Bearer key on both routes', async () => {
		for (const res of [await add(entry, { auth: false }), await lookup(query, { auth: 'wrong' })]) {
			expect(res.status).toBe(401);
			expect(res.body.error.code).toBe('UNAUTHORIZED');
			expectMeta(res.body);
		}
		expect(sandbox.blacklistEntries()).toEqual([]);
	});
});

describe('POST /subscribers', () => {
	it('adds an entry and answers { id, to, reason, date }', async () => {
		const before = Date.now();
		const res = await add(entry);
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(Object.keys(res.body.data)).toEqual(['id', 'to', 'reason', 'date']);
		expect(res.body.data).toEqual({
			id: expect.stringMatching(UUID),
			to: '+33612345678',
			reason: 'UNSUBSCRIBED',
			date: expect.stringMatching(ISO_UTC_MS),
		});
		expect(Date.parse(res.body.data.date)).toBeGreaterThanOrEqual(before - 5);
		expect(sandbox.isBlacklisted('ACME', 'SMS', '+33612345678')).toBe(true);
		expect(sandbox.blacklistEntries()).toEqual([
			{ ...res.body.data, type: 'SMS', from: 'ACME', listType: 'BLACK' },
		]);
		expect(sandbox.requests[0]).toEqual(
			expect.objectContaining({
				method: 'POST',
				path: '/messaging/subscribers',
				body: entry,
				status: 200,
			}),
		);
	});

	it('accepts listType BLACK, every channel, free-text reasons and e-mails for EMAIL', async () => {
		for (const type of ['SMS', 'CHATAPP', 'RCS'])
			expect((await add({ ...entry, type, listType: 'BLACK' })).status).toBe(200);
		const mail = await add({
			to: 'Jane.Doe@example.com',
			reason: 'asked by phone',
			type: 'EMAIL',
			from: 'news@acme.io',
		});
		expect(mail.status).toBe(200);
		expect(mail.body.data.to).toBe('Jane.Doe@example.com');
		expect(sandbox.blacklistEntries()).toHaveLength(4);
	});

	it('is idempotent per (from, type, to): same id and date, reason replaced', async () => {
		const first = (await add(entry)).body.data;
		const again = await add({ ...entry, reason: 'COMPLAINT', listType: 'BLACK' });
		expect(again.status).toBe(200);
		expect(again.body.data).toEqual({ ...first, reason: 'COMPLAINT' });
		expect(sandbox.blacklistEntries()).toHaveLength(1);
		expect((await lookup(query)).body.data.reason).toBe('COMPLAINT');
	});

	it('matches e-mail addresses case-insensitively, keeping the first spelling', async () => {
		const first = (await add({ to: 'Jane@Example.com', reason: 'x', type: 'EMAIL', from: 'news' }))
			.body.data;
		const again = (await add({ to: 'jane@example.com', reason: 'y', type: 'EMAIL', from: 'news' }))
			.body.data;
		expect(again).toEqual({ ...first, reason: 'y' });
		expect(sandbox.isBlacklisted('news', 'EMAIL', 'JANE@EXAMPLE.COM')).toBe(true);
	});

	it('keeps one entry per sender and per channel', async () => {
		const a = (await add(entry)).body.data;
		const b = (await add({ ...entry, from: 'OTHER' })).body.data;
		const c = (await add({ ...entry, type: 'CHATAPP' })).body.data;
		expect(new Set([a.id, b.id, c.id]).size).toBe(3);
		expect(sandbox.blacklistEntries().map((e) => [e.from, e.type])).toEqual([
			['ACME', 'SMS'],
			['OTHER', 'SMS'],
			['ACME', 'CHATAPP'],
		]);
	});

	it.each([
		['to', { reason: 'r', type: 'SMS', from: 'A' }, 'to is required'],
		['reason', { to: '+33612345678', type: 'SMS', from: 'A' }, 'reason is required'],
		['type', { to: '+33612345678', reason: 'r', from: 'A' }, 'type is required'],
		['from', { to: '+33612345678', reason: 'r', type: 'SMS' }, 'from is required'],
		['empty from', { ...entry, from: '' }, 'from is required'],
		['null reason', { ...entry, reason: null }, 'reason is required'],
		['numeric to', { ...entry, to: 33612345678 }, 'to must be a string (got 33612345678)'],
		['blank reason', { ...entry, reason: '  ' }, 'reason must not be blank'],
	])('answers 400 when %s is missing or wrong', async (_, body, message) => {
		const res = await add(body);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({ status: 400, code: 'VALIDATION_FAILED', message });
		expectMeta(res.body);
		expect(sandbox.blacklistEntries()).toEqual([]);
	});

	it.each([
		[
			'type WHATSAPP',
			{ ...entry, type: 'WHATSAPP' },
			/^type must be one of SMS, EMAIL, CHATAPP, RCS \(got "WHATSAPP"\)$/,
		],
		['lowercase type', { ...entry, type: 'sms' }, /^type must be one of/],
		[
			'listType WHITE',
			{ ...entry, listType: 'WHITE' },
			/^listType must be one of BLACK \(got "WHITE"\)$/,
		],
		['listType empty', { ...entry, listType: '' }, /^listType must be one of BLACK/],
		[
			'a phone without +',
			{ ...entry, to: '0612345678' },
			/^to must be an E\.164 phone number .* for type SMS/,
		],
		['a phone with spaces', { ...entry, to: '+33 6 12 34 56 78' }, /E\.164/],
		[
			'6 digits',
			{ ...entry, to: '+123456' },
			/^to must be an E\.164 phone number \("\+" then 7 to 15 digits \(the first not 0\)\) for type SMS/,
		],
		['a country code starting with 0', { ...entry, to: '+0123456789' }, /E\.164/],
		['16 digits', { ...entry, to: '+1234567890123456' }, /E\.164/],
		[
			'an e-mail on CHATAPP',
			{ ...entry, type: 'CHATAPP', to: 'a@b.io' },
			/E\.164 .* for type CHATAPP/,
		],
		[
			'a phone on EMAIL',
			{ ...entry, type: 'EMAIL' },
			/^to must be an e-mail address for type EMAIL/,
		],
		['a bad e-mail', { ...entry, type: 'EMAIL', to: 'jane@localhost' }, /e-mail address/],
	])('answers 400 for %s', async (_, body, message) => {
		const res = await add(body);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({
			status: 400,
			code: 'VALIDATION_FAILED',
			message: expect.stringMatching(message),
		});
	});

	it("accepts 7 and 15 digits (the node's rule: Niue's +683 4002 has 7)", async () => {
		expect((await add({ ...entry, to: '+6834002' })).status).toBe(200);
		expect((await add({ ...entry, to: '+123456789012345' })).status).toBe(200);
	});

	it('answers 400 for a non-object body, 400 for malformed JSON and 415 for non-JSON', async () => {
		expect((await add([entry])).body.error.message).toMatch(/JSON object/);
		const malformed = await add(undefined, {
			raw: '{',
			headers: { 'content-type': 'application/json' },
		});
		expect(malformed.body.error).toEqual(
			expect.objectContaining({ status: 400, code: 'INVALID_JSON' }),
		);
		const text = await add(undefined, {
			raw: JSON.stringify(entry),
			headers: { 'content-type': 'text/plain' },
		});
		expect(text.status).toBe(415);
	});

	it('answers 405 for other methods', async () => {
		const res = await call(sandbox, 'DELETE', '/subscribers', { baseUrl: sandbox.baseUrl });
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('POST, GET');
	});
});

describe('GET /subscribers', () => {
	it('finds an entry with every field', async () => {
		const added = (await add(entry)).body.data;
		const res = await lookup(query);
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.data).toEqual({ ...added, type: 'SMS', from: 'ACME', listType: 'BLACK' });
		expect(Object.keys(res.body.data)).toEqual([
			'id',
			'to',
			'reason',
			'date',
			'type',
			'from',
			'listType',
		]);
	});

	it('answers 404 NOT_FOUND when the recipient is not blacklisted', async () => {
		const res = await lookup(query);
		expect(res.status).toBe(404);
		expectMeta(res.body);
		expect(res.body.error).toEqual({
			status: 404,
			code: 'NOT_FOUND',
			message: '+33612345678 is not blacklisted by sender ACME on SMS',
		});
	});

	it('isolates senders and channels', async () => {
		await add({ ...entry, from: 'OTHER' });
		await add({ ...entry, type: 'RCS' });
		expect((await lookup(query)).status).toBe(404);
		expect(sandbox.isBlacklisted('ACME', 'SMS', '+33612345678')).toBe(false);
		expect((await lookup({ ...query, from: 'OTHER' })).status).toBe(200);
		expect((await lookup({ ...query, type: 'RCS' })).status).toBe(200);
		expect(sandbox.isBlacklisted('OTHER', 'SMS', '+33612345678')).toBe(true);
		expect(sandbox.isBlacklisted('ACME', 'RCS', '+33612345678')).toBe(true);
		expect(sandbox.isBlacklisted('ACME', 'CHATAPP', '+33612345678')).toBe(false);
		expect(sandbox.isBlacklisted('acme', 'RCS', '+33612345678')).toBe(false);
	});

	it('finds e-mails case-insensitively', async () => {
		await add({ to: 'Jane@Example.com', reason: 'x', type: 'EMAIL', from: 'news' });
		const res = await lookup({
			type: 'EMAIL',
			from: 'news',
			listType: 'BLACK',
			to: 'jane@example.com',
		});
		expect(res.status).toBe(200);
		expect(res.body.data.to).toBe('Jane@Example.com');
	});

	it.each(['type', 'from', 'listType', 'to'])('answers 400 naming a missing %s', async (name) => {
		const partial: Record<string, string> = { ...query };
		delete partial[name];
		const res = await lookup(partial);
		expect(res.status).toBe(400);
		expect(res.body.error).toEqual({
			status: 400,
			code: 'VALIDATION_FAILED',
			message: `Query parameter ${name} is required`,
		});
	});

	it('treats an empty parameter as missing', async () => {
		expect((await lookup({ ...query, from: '' })).body.error.message).toBe(
			'Query parameter from is required',
		);
	});

	it.each([
		['type', 'MMS', /^type must be one of/],
		['listType', 'WHITE', /^listType must be one of BLACK/],
		['to', '0612345678', /E\.164/],
	])('answers 400 for %s=%s', async (name, value, message) => {
		const res = await lookup({ ...query, [name]: value });
		expect(res.status).toBe(400);
		expect(res.body.error.message).toMatch(message);
	});

	it('does not repair an unencoded + in to, and says how to send it', async () => {
		await add(entry);
		const res = await call(sandbox, 'GET', '/subscribers', {
			baseUrl: sandbox.baseUrl,
			rawQuery: 'type=SMS&from=ACME&listType=BLACK&to=+33612345678',
		});
		expect(res.status).toBe(400);
		expect(res.body.error.message).toBe(
			'to must be an E.164 phone number ("+" then 7 to 15 digits (the first not 0)) for type SMS (got " 33612345678"); a "+" in a query string must be sent as %2B',
		);
		const encoded = await call(sandbox, 'GET', '/subscribers', {
			baseUrl: sandbox.baseUrl,
			rawQuery: 'type=SMS&from=ACME&listType=BLACK&to=%2B33612345678',
		});
		expect(encoded.status).toBe(200);
	});
});

describe('helpers and reset', () => {
	it('seedBlacklist applies the POST rules without recording', () => {
		const seeded = sandbox.seedBlacklist({ ...entry, type: 'CHATAPP' });
		expect(seeded).toEqual({
			id: expect.stringMatching(UUID),
			to: entry.to,
			reason: entry.reason,
			date: expect.stringMatching(ISO_UTC_MS),
			type: 'CHATAPP',
			from: 'ACME',
			listType: 'BLACK',
		});
		expect(sandbox.isBlacklisted('ACME', 'CHATAPP', entry.to)).toBe(true);
		expect(sandbox.requests).toEqual([]);
		expect(() => sandbox.seedBlacklist({ ...entry, type: 'FAX' })).toThrow(HttpError);
	});

	it('isBlacklisted is false for unknown channels', () => {
		sandbox.seedBlacklist(entry);
		expect(sandbox.isBlacklisted('ACME', 'sms', entry.to)).toBe(false);
		expect(sandbox.isBlacklisted('ACME', 'FAX', entry.to)).toBe(false);
	});

	it('blacklistEntries returns copies', () => {
		sandbox.seedBlacklist(entry);
		sandbox.blacklistEntries()[0].reason = 'changed';
		expect(sandbox.blacklistEntries()[0].reason).toBe('UNSUBSCRIBED');
	});

	it('reset empties every blacklist', async () => {
		await add(entry);
		sandbox.reset();
		expect(sandbox.blacklistEntries()).toEqual([]);
		expect(sandbox.isBlacklisted('ACME', 'SMS', entry.to)).toBe(false);
		expect((await lookup(query)).status).toBe(404);
	});
});
