import { HttpError, MESSAGE_TEMPLATE_CATEGORIES, startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta, type CallOptions } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const HOUR = 3_600_000;
const ISO_UTC_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const input = { providerId: 'prov-123', name: 'ACME Corp', address: '+15550100', accountTier: 1 };

const api = (method: string, path: string, options: CallOptions = {}) =>
	call(sandbox, method, path, { baseUrl: sandbox.baseUrl, ...options });
const createSender = (json: unknown, options: CallOptions = {}) =>
	api('POST', '/chatapp/senders', { json, ...options });
const admin = async (method: string, path: string, json?: unknown) => {
	const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
		method,
		...(json !== undefined && {
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(json),
		}),
	});
	return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

describe('POST /chatapp/senders', () => {
	it('needs the Bearer key', async () => {
		const res = await createSender(input, { auth: false });
		expect(res.status).toBe(401);
		expect(sandbox.senders()).toEqual([]);
	});

	it('creates a PENDING_IMPLEMENTATION sender with every spec field, address stored as digits', async () => {
		sandbox.advanceTime(HOUR);
		const res = await createSender(input);
		expect(res.status).toBe(200);
		expectMeta(res.body);
		const sender = res.body.data;
		expect(Object.keys(sender)).toEqual([
			'id',
			'providerId',
			'name',
			'address',
			'accountTier',
			'dailyQuota',
			'rateLimit',
			'state',
			'created_date',
			'last_updated_date',
			'owner',
			'operator',
			'templateNamespace',
		]);
		expect(sender).toEqual({
			id: expect.stringMatching(/^snd_[0-9a-f]{12}$/),
			providerId: 'prov-123',
			name: 'ACME Corp',
			address: '15550100',
			accountTier: 1,
			dailyQuota: 1000,
			rateLimit: 80,
			state: 'PENDING_IMPLEMENTATION',
			created_date: expect.stringMatching(ISO_UTC_MS),
			last_updated_date: sender.created_date,
			owner: 'sandbox-user',
			operator: null,
			templateNamespace: null,
		});
		// dates come from the sandbox clock, an hour ahead of the real one (a minute's leeway for a
		// busy machine)
		expect(Math.abs(Date.parse(sender.created_date) - (Date.now() + HOUR))).toBeLessThan(60_000);
		expect(Math.abs(res.body.meta.timestamp - (Date.now() + HOUR))).toBeLessThan(60_000);
		expect(sandbox.senders()).toEqual([sender]);
		expect(sandbox.requests[0]).toEqual(
			expect.objectContaining({
				method: 'POST',
				path: '/messaging/chatapp/senders',
				body: input,
				status: 200,
			}),
		);
	});

	it('accepts digits without +, defaults dailyQuota by tier and keeps a given dailyQuota', async () => {
		const tier2 = await createSender({ ...input, address: '33612345678', accountTier: 2 });
		expect(tier2.body.data).toEqual(
			expect.objectContaining({ address: '33612345678', dailyQuota: 10_000 }),
		);
		const tier3 = await createSender({ ...input, address: '+33612345679', accountTier: 3 });
		expect(tier3.body.data.dailyQuota).toBe(100_000);
		const tier4 = await createSender({ ...input, address: '+33612345670', accountTier: 4 });
		expect(tier4.body.data.dailyQuota).toBe(1_000_000);
		const given = await createSender({ ...input, address: '+33612345671', dailyQuota: 250 });
		expect(given.body.data).toEqual(expect.objectContaining({ accountTier: 1, dailyQuota: 250 }));
		expect(new Set(sandbox.senders().map((s) => s.id)).size).toBe(4);
	});

	it('answers 409 for an address already registered, with or without +', async () => {
		const first = (await createSender(input)).body.data;
		const again = await createSender({ ...input, address: '15550100', name: 'Other' });
		expect(again.status).toBe(409);
		expectMeta(again.body);
		expect(again.body.error).toEqual({
			status: 409,
			code: 'SENDER_ALREADY_EXISTS',
			message: `A sender with address 15550100 already exists (${first.id})`,
		});
		expect(sandbox.senders()).toHaveLength(1);
	});

	it.each([
		[
			'a non-object body',
			[input],
			/^Body must be a JSON object with providerId, name, address and accountTier$/,
		],
		['no providerId', { ...input, providerId: undefined }, /^providerId is required$/],
		[
			'a numeric providerId',
			{ ...input, providerId: 42 },
			/^providerId must be a string \(got 42\)$/,
		],
		['a blank name', { ...input, name: '  ' }, /^name must not be blank$/],
		['no address', { ...input, address: '' }, /^address is required$/],
		[
			'an address with spaces',
			{ ...input, address: '+1 555 0100' },
			/^address must be a phone number: an optional "\+" then 7 to 15 digits \(the first not 0\), no spaces \(got "\+1 555 0100"\)$/,
		],
		['a too short address', { ...input, address: '123456' }, /^address must be a phone number/],
		[
			'an address starting with 0',
			{ ...input, address: '+0155501000' },
			/^address must be a phone number/,
		],
		[
			'no accountTier',
			{ ...input, accountTier: undefined },
			/^accountTier is required \(an integer >= 1\)$/,
		],
		[
			'accountTier 0',
			{ ...input, accountTier: 0 },
			/^accountTier must be an integer >= 1 \(got 0\)$/,
		],
		[
			'accountTier "1"',
			{ ...input, accountTier: '1' },
			/^accountTier must be an integer >= 1 \(got "1"\)$/,
		],
		[
			'accountTier 1.5',
			{ ...input, accountTier: 1.5 },
			/^accountTier must be an integer >= 1 \(got 1.5\)$/,
		],
		['dailyQuota 0', { ...input, dailyQuota: 0 }, /^dailyQuota must be an integer >= 1 \(got 0\)$/],
	])('answers 400 for %s', async (_, json, message) => {
		const res = await createSender(json);
		expect(res.status).toBe(400);
		expectMeta(res.body);
		expect(res.body.error.code).toBe('VALIDATION_FAILED');
		expect(res.body.error.message).toMatch(message);
		expect(sandbox.senders()).toEqual([]);
	});

	it('answers 415 for a non-JSON body and 400 for malformed JSON', async () => {
		expect(
			(await createSender(undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } }))
				.status,
		).toBe(415);
		const bad = await createSender(undefined, {
			raw: '{',
			headers: { 'content-type': 'application/json' },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error.code).toBe('INVALID_JSON');
	});
});

describe('GET /chatapp/senders/{id}', () => {
	it('returns the sender', async () => {
		const created = (await createSender(input)).body.data;
		const res = await api('GET', `/chatapp/senders/${created.id}`);
		expect(res.status).toBe(200);
		expectMeta(res.body);
		expect(res.body.data).toEqual(created);
	});

	it('answers 404 naming the id', async () => {
		const res = await api('GET', '/chatapp/senders/snd_nope');
		expect(res.status).toBe(404);
		expectMeta(res.body);
		expect(res.body.error).toEqual({
			status: 404,
			code: 'SENDER_NOT_FOUND',
			message: 'Sender snd_nope not found',
		});
	});

	it('answers 405 to other methods', async () => {
		const res = await api('DELETE', '/chatapp/senders/snd_x');
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('GET');
	});
});

describe('sender approval', () => {
	it('moves the sender to ACTIVE through the admin endpoint with a default namespace', async () => {
		const created = (await createSender(input)).body.data;
		sandbox.advanceTime(2 * HOUR);
		const res = await admin('POST', `/chatapp/senders/${created.id}/approve`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			...created,
			state: 'ACTIVE',
			templateNamespace: `ns-${created.id}`,
			last_updated_date: expect.stringMatching(ISO_UTC_MS),
		});
		expect(
			Date.parse(res.body.last_updated_date) - Date.parse(created.created_date),
		).toBeGreaterThanOrEqual(2 * HOUR);
		const read = await api('GET', `/chatapp/senders/${created.id}`);
		expect(read.body.data).toEqual(res.body);
		expect(sandbox.requests.map((r) => r.path)).toEqual([
			'/messaging/chatapp/senders',
			`/messaging/chatapp/senders/${created.id}`,
		]);
	});

	it('applies rateLimit, dailyQuota and templateNamespace (null kept null)', async () => {
		const created = (await createSender(input)).body.data;
		const res = await admin('POST', `/chatapp/senders/${created.id}/approve`, {
			rateLimit: 5,
			dailyQuota: 2,
			templateNamespace: 'ns-custom',
		});
		expect(res.body).toEqual(
			expect.objectContaining({
				state: 'ACTIVE',
				rateLimit: 5,
				dailyQuota: 2,
				templateNamespace: 'ns-custom',
			}),
		);
		expect(sandbox.approveSender(created.id, { dailyQuota: 3 })).toEqual(
			expect.objectContaining({ rateLimit: 5, dailyQuota: 3, templateNamespace: 'ns-custom' }),
		);
		expect(sandbox.approveSender(created.id, { templateNamespace: null })).toEqual(
			expect.objectContaining({ rateLimit: 5, templateNamespace: null }),
		);
	});

	it('answers 404 for an unknown sender and 400 for bad options', async () => {
		expect(await admin('POST', '/chatapp/senders/snd_x/approve')).toEqual(
			expect.objectContaining({
				status: 404,
				body: {
					error: { status: 404, code: 'SENDER_NOT_FOUND', message: 'Sender snd_x not found' },
				},
			}),
		);
		const { id } = sandbox.seedSender(input);
		const bad = await admin('POST', `/chatapp/senders/${id}/approve`, { rateLimit: 0 });
		expect(bad.status).toBe(400);
		expect(bad.body.error.message).toBe('rateLimit must be an integer >= 1 (got 0)');
		expect(
			(await admin('POST', `/chatapp/senders/${id}/approve`, { colour: 'red' })).body.error.message,
		).toMatch(/unknown field\(s\) colour/);
		expect(sandbox.senders()[0].state).toBe('PENDING_IMPLEMENTATION');
		expect(() => sandbox.approveSender('snd_x')).toThrow(HttpError);
	});

	it('seeds senders, active or not, in-process and through the admin endpoint', async () => {
		const pending = sandbox.seedSender(input);
		expect(pending.state).toBe('PENDING_IMPLEMENTATION');
		const active = sandbox.seedSender({ ...input, address: '15550101' }, { active: true });
		expect(active).toEqual(
			expect.objectContaining({ state: 'ACTIVE', templateNamespace: `ns-${active.id}` }),
		);
		const viaAdmin = await admin('POST', '/chatapp/senders', {
			...input,
			address: '15550102',
			active: true,
		});
		expect(viaAdmin.body).toEqual(
			expect.objectContaining({ address: '15550102', state: 'ACTIVE' }),
		);
		expect((await admin('POST', '/chatapp/senders', { ...input, active: true })).status).toBe(409);
		// A seeded sender with the id asked for (the demo's stand-in account); an id taken or
		// malformed is refused.
		const fixed = await admin('POST', '/chatapp/senders', {
			...input,
			address: '15550103',
			id: 'snd_000000000001',
		});
		expect(fixed.body).toEqual(expect.objectContaining({ id: 'snd_000000000001' }));
		const again = { ...input, address: '15550104', id: 'snd_000000000001' };
		expect((await admin('POST', '/chatapp/senders', again)).status).toBe(409);
		expect((await admin('POST', '/chatapp/senders', { ...again, id: 'x y' })).status).toBe(400);
		expect(sandbox.senders().map((s) => s.address)).not.toContain('15550104');
		expect(
			(await admin('GET', '/chatapp/senders')).body.map((s: { address: string }) => s.address),
		).toEqual(['15550100', '15550101', '15550102', '15550103']);
		expect(() => sandbox.seedSender({ ...input, address: 'x' })).toThrow(
			/address must be a phone number/,
		);
		expect(sandbox.requests).toEqual([]);
	});
});

describe('GET /chatapp/templates/', () => {
	const seedTemplates = () => {
		const a = sandbox.seedSender(input, { active: true });
		const b = sandbox.seedSender({ ...input, address: '15550101' }, { active: true });
		const t1 = sandbox.seedMessageTemplate({
			name: 'order_shipped',
			category: 'Shipping Update',
			language: 'en',
			body: 'Hi {{NAME}}, order {{ORDER}} shipped',
			senderId: a.id,
		});
		const t2 = sandbox.seedMessageTemplate({
			name: 'payment_due',
			category: 'Payment Update',
			language: 'fr',
			body: 'Paiement {{AMOUNT}}',
			senderId: a.id,
			bizAccountId: 'biz-1',
		});
		const t3 = sandbox.seedMessageTemplate({
			name: 'ticket',
			category: 'Ticket Update',
			language: 'en',
			body: 'Ticket {{ID}}',
			bizAccountId: 'biz-1',
		});
		const t4 = sandbox.seedMessageTemplate({
			name: 'other',
			category: 'Auto Reply',
			language: 'en',
			body: 'Back soon',
			senderId: b.id,
		});
		return { a, b, t1, t2, t3, t4 };
	};

	it('lists by senderId, by bizAccountId, or by both, with and without the trailing slash', async () => {
		const { a, t1, t2, t3 } = seedTemplates();
		const bySender = await api('GET', '/chatapp/templates/', { query: { senderId: a.id } });
		expect(bySender.status).toBe(200);
		expectMeta(bySender.body);
		expect(Object.keys(bySender.body)).toEqual(['meta', 'items']);
		expect(bySender.body.items).toEqual([t1, t2]);
		expect(Object.keys(t1)).toEqual([
			'id',
			'name',
			'category',
			'language',
			'body',
			'status',
			'senderId',
			'bizAccountId',
			'namespace',
		]);
		expect(t1).toEqual(
			expect.objectContaining({
				id: expect.stringMatching(/^mtpl_/),
				status: 'APPROVED',
				bizAccountId: null,
				namespace: `ns-${a.id}`,
			}),
		);
		expect(t3).toEqual(expect.objectContaining({ senderId: null, namespace: null }));
		expect(
			(await api('GET', '/chatapp/templates', { query: { bizAccountId: 'biz-1' } })).body.items,
		).toEqual([t2, t3]);
		expect(
			(
				await api('GET', '/chatapp/templates/', {
					query: { senderId: a.id, bizAccountId: 'biz-1' },
				})
			).body.items,
		).toEqual([t2]);
		expect(
			(await api('GET', '/chatapp/templates/', { query: { bizAccountId: 'biz-none' } })).body.items,
		).toEqual([]);
		expect(sandbox.requests[0].path).toBe('/messaging/chatapp/templates/');
	});

	it('answers 400 naming both parameters when neither is given, 404 for an unknown sender', async () => {
		for (const query of [{}, { senderId: '', bizAccountId: '' }] as Record<string, string>[]) {
			const res = await api('GET', '/chatapp/templates/', { query });
			expect(res.status).toBe(400);
			expectMeta(res.body);
			expect(res.body.error).toEqual({
				status: 400,
				code: 'VALIDATION_FAILED',
				message: 'Query parameter senderId or bizAccountId is required (give at least one)',
			});
		}
		const unknown = await api('GET', '/chatapp/templates/', { query: { senderId: 'snd_nope' } });
		expect(unknown.status).toBe(404);
		expect(unknown.body.error.code).toBe('SENDER_NOT_FOUND');
	});

	it('validates seeded templates: categories, body length, scope, sender', () => {
		const { id } = sandbox.seedSender(input);
		const base = {
			name: 'n',
			category: 'Alert Updates',
			language: 'en',
			body: 'x'.repeat(1024),
			senderId: id,
		};
		expect(sandbox.seedMessageTemplate(base).namespace).toBeNull(); // sender not approved yet: no namespace
		for (const category of MESSAGE_TEMPLATE_CATEGORIES)
			expect(sandbox.seedMessageTemplate({ ...base, category }).category).toBe(category);
		expect(() => sandbox.seedMessageTemplate({ ...base, body: 'x'.repeat(1025) })).toThrow(
			'Message template body must be at most 1024 characters (got 1025)',
		);
		expect(() => sandbox.seedMessageTemplate({ ...base, category: 'Marketing' })).toThrow(
			/^Message template category must be one of Appointment Update, .* \(got "Marketing"\)$/,
		);
		expect(() => sandbox.seedMessageTemplate({ ...base, senderId: undefined })).toThrow(
			'Message template needs senderId or bizAccountId (at least one)',
		);
		expect(() => sandbox.seedMessageTemplate({ ...base, senderId: 'snd_x' })).toThrow(
			'Sender snd_x not found',
		);
		expect(() => sandbox.seedMessageTemplate({ ...base, status: 'LIVE' })).toThrow(
			/status must be one of APPROVED, PENDING, REJECTED/,
		);
		expect(
			sandbox.seedMessageTemplate({
				...base,
				id: 'tpl-fixed',
				status: 'PENDING',
				namespace: 'ns-x',
			}),
		).toEqual(expect.objectContaining({ id: 'tpl-fixed', status: 'PENDING', namespace: 'ns-x' }));
		expect(() => sandbox.seedMessageTemplate({ ...base, id: 'tpl-fixed' })).toThrow(
			'Message template id "tpl-fixed" already exists',
		);
	});

	it('seeds through the admin endpoint', async () => {
		const res = await admin('POST', '/chatapp/templates', {
			name: 'a',
			category: 'Account Update',
			language: 'en',
			body: 'b',
			bizAccountId: 'biz-9',
		});
		expect(res.status).toBe(200);
		expect(
			(await api('GET', '/chatapp/templates', { query: { bizAccountId: 'biz-9' } })).body.items,
		).toEqual([res.body]);
		expect((await admin('POST', '/chatapp/templates', { name: 'a' })).status).toBe(400);
		expect((await admin('GET', '/chatapp/templates')).body).toEqual([res.body]);
	});
});

describe('sandbox clock', () => {
	it('runs with the real clock and moves forward with advanceTime and the admin endpoint', async () => {
		// a minute's leeway for a busy machine: what matters is the hour
		expect(Math.abs(sandbox.clock.nowMs() - Date.now())).toBeLessThan(60_000);
		const later = sandbox.advanceTime(HOUR);
		expect(later.getTime() - Date.now()).toBeGreaterThan(HOUR - 60_000);
		const res = await admin('POST', '/clock', { advanceMs: HOUR });
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			now: expect.stringMatching(ISO_UTC_MS),
			offsetMs: 2 * HOUR,
			frozen: false,
		});
		expect((await admin('GET', '/clock')).body.offsetMs).toBe(2 * HOUR);
		for (const advanceMs of [-1, 'x', Infinity]) {
			const bad = await admin('POST', '/clock', { advanceMs });
			expect(bad.status).toBe(400);
			expect(bad.body.error.message).toMatch(
				/^advanceMs must be a finite number of milliseconds >= 0/,
			);
		}
		sandbox.reset();
		expect(sandbox.clock.state().offsetMs).toBe(0);
	});

	it('can be frozen and unfrozen', async () => {
		const frozen = await admin('POST', '/clock', { freeze: true });
		expect(frozen.body.frozen).toBe(true);
		const at = sandbox.clock.nowMs();
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(sandbox.clock.nowMs()).toBe(at);
		sandbox.advanceTime(1_000);
		expect(sandbox.clock.nowMs()).toBe(at + 1_000);
		sandbox.clock.unfreeze();
		expect(sandbox.clock.nowMs()).toBeGreaterThanOrEqual(at + 1_000);
		expect((await admin('POST', '/clock', { freeze: 'yes' })).status).toBe(400);
	});
});
