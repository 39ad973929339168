import http from 'node:http';
import { HttpError, PASS_BATCH_MAX, PASS_PLACES, startSandbox, type Sandbox } from '../sandbox';
import { call, expectMeta, type CallOptions } from './test-helpers';

let sandbox: Sandbox;
beforeAll(async () => (sandbox = await startSandbox()));
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

const GOLD = 'tpl-gold-member';
const SILVER = 'tpl-silver-member';
const batchPath = (serial: string) =>
	`/v2/wallet/templates/${encodeURIComponent(serial)}/passes/batch`;
const downloadUrl = (serial: string, recipientId: string) =>
	`${sandbox.walletBaseUrl}/v2/wallet/templates/${encodeURIComponent(serial)}/passes/${encodeURIComponent(recipientId)}/download`;

const batch = (body: unknown, serial = GOLD, options: CallOptions = {}) =>
	call(sandbox, 'POST', batchPath(serial), {
		baseUrl: sandbox.walletBaseUrl,
		json: body,
		...options,
	});
/**
 * Sends `body` as written with the given content type (undefined: no Content-Type header at all).
 */
async function batchRaw(body: string, contentType: string | undefined, serial = GOLD) {
	if (contentType)
		return call(sandbox, 'POST', batchPath(serial), {
			baseUrl: sandbox.walletBaseUrl,
			raw: body,
			headers: { 'content-type': contentType },
		});
	// fetch labels a string body text/plain; bytes go without a Content-Type
	const res = await fetch(`${sandbox.walletBaseUrl}${batchPath(serial)}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sandbox.apiKey}` },
		body: new TextEncoder().encode(body),
	});
	return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const field = (value: string, extra: Record<string, unknown> = {}) => ({
	place: 'BACK',
	label: 'Link',
	fixed: false,
	value,
	...extra,
});
const pass = (recipientId: string, fields: unknown[] = [field(`value of ${recipientId}`)]) => ({
	recipientId,
	uniqueValues: { fields },
});

const download = (serial: string, recipientId: string, auth: string | false = sandbox.apiKey) =>
	fetch(downloadUrl(serial, recipientId), {
		headers: auth === false ? {} : { authorization: `Bearer ${auth}` },
	});

describe('POST /v2/wallet/templates/{serial}/passes/batch', () => {
	it('creates one pass per item and answers recipientId + download url in request order', async () => {
		const res = await batch({ items: [pass('r-2'), pass('r-1'), pass('r-3')] });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
		expectMeta(res.body);
		expect(Object.keys(res.body)).toEqual(['meta', 'items', 'errors']);
		expect(res.body.items).toEqual(
			['r-2', 'r-1', 'r-3'].map((recipientId) => ({
				recipientId,
				url: downloadUrl(GOLD, recipientId),
			})),
		);
		expect(res.body.errors).toEqual([]);
		for (const item of res.body.items) expect(Object.keys(item)).toEqual(['recipientId', 'url']);

		const stored = sandbox.walletPasses(GOLD);
		expect(stored.map((p) => p.recipientId)).toEqual(['r-2', 'r-1', 'r-3']);
		expect(stored[0]).toEqual({
			serial: GOLD,
			recipientId: 'r-2',
			fields: [field('value of r-2')],
			createdAt: expect.any(String),
		});
		expect(stored[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		expect(sandbox.walletPasses(SILVER)).toEqual([]);
		expect(sandbox.requests).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: `/wallet${batchPath(GOLD)}`,
				contentType: 'application/json',
				status: 200,
			}),
		]);
	});

	it('accepts the content type exactly as the spec shows it, and application/json with or without charset', async () => {
		for (const [i, type] of [
			'application/json;charset=UTF-8',
			'application/json',
			'application/json; charset=utf-8',
			'Application/JSON;Charset="UTF-8"',
		].entries()) {
			const res = await batchRaw(JSON.stringify({ items: [pass(`r${i}`)] }), type);
			expect([type, res.status]).toEqual([type, 200]);
		}
		expect(sandbox.walletPasses().map((p) => p.recipientId)).toEqual(['r0', 'r1', 'r2', 'r3']);
	});

	it('stores a value holding HTML markup exactly as received, labels optional, extra keys kept', async () => {
		const html =
			'<a href="https://x.example/offre?a=1&amp;b=2" target="_blank">Voir l’offre — 10 %</a>\n<br/>&nbsp;"quoted"';
		const fields = [
			{ place: 'BACK', label: 'Lien', fixed: false, value: html },
			{ place: 'BACK', fixed: false, value: '' },
			{ place: 'PRIMARY', label: '', fixed: true, value: '  spaced  ', extra: { kept: [1, 2] } },
		];
		const res = await batch({ items: [pass('html', fields)] });
		expect(res.status).toBe(200);
		expect(sandbox.walletPasses()[0].fields).toEqual(fields);
		expect(sandbox.walletPasses()[0].fields[0].value).toBe(html);
		expect('label' in sandbox.walletPasses()[0].fields[1]).toBe(false);
		const file = JSON.parse(await (await download(GOLD, 'html')).text());
		expect(file.fields[0].value).toBe(html);
	});

	it('accepts every place of PASS_PLACES and an empty fields array', async () => {
		const fields = PASS_PLACES.map((place) => ({ place, fixed: false, value: place }));
		const res = await batch({ items: [pass('all-places', fields), pass('no-fields', [])] });
		expect(res.body.errors).toEqual([]);
		expect(res.body.items.map((i: { recipientId: string }) => i.recipientId)).toEqual([
			'all-places',
			'no-fields',
		]);
		expect(PASS_PLACES).toEqual(['HEADER', 'PRIMARY', 'SECONDARY', 'AUXILIARY', 'BACK']);
	});

	it('refuses a recipient that already has a pass of the template, creating the others', async () => {
		sandbox.seedPass(GOLD, 'r2', [field('seeded')]);
		const res = await batch({ items: [pass('r1'), pass('r2'), pass('r3')] });
		expect(res.status).toBe(200);
		expect(res.body.items).toEqual([
			{ recipientId: 'r1', url: downloadUrl(GOLD, 'r1') },
			{ recipientId: 'r3', url: downloadUrl(GOLD, 'r3') },
		]);
		expect(res.body.errors).toEqual([
			{
				recipientId: 'r2',
				code: 'RECIPIENT_ALREADY_HAS_PASS',
				message: `Recipient r2 already has a pass of template ${GOLD}`,
			},
		]);
		expect(sandbox.walletPasses(GOLD).map((p) => [p.recipientId, p.fields[0].value])).toEqual([
			['r2', 'seeded'],
			['r1', 'value of r1'],
			['r3', 'value of r3'],
		]);

		// the same batch again: every pass refused, still 200
		const again = await batch({ items: [pass('r1'), pass('r3')] });
		expect(again.status).toBe(200);
		expect(again.body.items).toEqual([]);
		expect(
			again.body.errors.map((e: { recipientId: string; code: string }) => [e.recipientId, e.code]),
		).toEqual([
			['r1', 'RECIPIENT_ALREADY_HAS_PASS'],
			['r3', 'RECIPIENT_ALREADY_HAS_PASS'],
		]);

		// another template: the same recipients are fine
		const silver = await batch({ items: [pass('r1'), pass('r2')] }, SILVER);
		expect(silver.body.errors).toEqual([]);
		expect(silver.body.items.map((i: { url: string }) => i.url)).toEqual([
			downloadUrl(SILVER, 'r1'),
			downloadUrl(SILVER, 'r2'),
		]);
	});

	it('refuses a pass with an unknown place (INVALID_PLACE) and creates the others', async () => {
		const res = await batch({
			items: [
				pass('ok'),
				pass('front', [field('a'), field('b', { place: 'FRONT' })]),
				pass('lower', [field('c', { place: 'back' })]),
				pass('ok2'),
			],
		});
		expect(res.status).toBe(200);
		expect(res.body.items.map((i: { recipientId: string }) => i.recipientId)).toEqual([
			'ok',
			'ok2',
		]);
		expect(res.body.errors).toEqual([
			{
				recipientId: 'front',
				code: 'INVALID_PLACE',
				message:
					'items[1].uniqueValues.fields[1].place "FRONT" is not one of HEADER, PRIMARY, SECONDARY, AUXILIARY, BACK',
			},
			{
				recipientId: 'lower',
				code: 'INVALID_PLACE',
				message:
					'items[2].uniqueValues.fields[0].place "back" is not one of HEADER, PRIMARY, SECONDARY, AUXILIARY, BACK',
			},
		]);
		expect(sandbox.walletPasses().map((p) => p.recipientId)).toEqual(['ok', 'ok2']);
	});

	it('answers 400 for the same recipientId twice in one request and creates nothing', async () => {
		const res = await batch({ items: [pass('a'), pass('b'), pass('a')] });
		expect(res.status).toBe(400);
		expectMeta(res.body);
		expect(res.body.error).toEqual({
			status: 400,
			code: 'VALIDATION_FAILED',
			message:
				'items[2].recipientId "a" repeats items[0].recipientId; recipientId must be different for each pass',
		});
		expect(sandbox.walletPasses()).toEqual([]);
	});

	it('answers 404 for an unknown template serial, before looking at the body', async () => {
		const res = await batch({ items: [pass('r1')] }, 'tpl-nope');
		expect(res.status).toBe(404);
		expectMeta(res.body);
		expect(res.body.error).toEqual({
			status: 404,
			code: 'TEMPLATE_NOT_FOUND',
			message: 'Wallet template tpl-nope not found',
		});
		expect((await batchRaw('nonsense', 'text/plain', 'tpl-nope')).status).toBe(404);
		expect((await batch({ items: [] }, 'tpl-nope')).status).toBe(404);
		// a seeded template takes passes until reset
		sandbox.seedTemplate({ serial: 'tpl-x y', name: 'Spaced' });
		const seeded = await batch({ items: [pass('r1')] }, 'tpl-x y');
		expect(seeded.body.items).toEqual([{ recipientId: 'r1', url: downloadUrl('tpl-x y', 'r1') }]);
		expect(seeded.body.items[0].url).toContain('/templates/tpl-x%20y/passes/r1/download');
	});

	const ok = pass('ok');
	it.each<[string, unknown, string]>([
		['array body', [ok], 'Body must be a JSON object with items'],
		['string body', 'items', 'Body must be a JSON object with items'],
		['missing items', {}, 'items is required'],
		['null items', { items: null }, 'items is required'],
		[
			'items not an array',
			{ items: { 0: ok } },
			'items must be an array (got {"0":{"recipientId":"ok","uniqueValues":{"fields":[{"place":"BACK","label":"Link","fixed":false,"value":"value of ok"}]}}})',
		],
		['empty items', { items: [] }, 'items must not be empty'],
		[
			'item not an object',
			{ items: [ok, 'r2'] },
			'items[1] must be an object with recipientId and uniqueValues',
		],
		[
			'missing recipientId',
			{ items: [ok, { uniqueValues: { fields: [] } }] },
			'items[1].recipientId is required',
		],
		[
			'empty recipientId',
			{ items: [{ ...ok, recipientId: '' }] },
			'items[0].recipientId is required',
		],
		[
			'blank recipientId',
			{ items: [{ ...ok, recipientId: '   ' }] },
			'items[0].recipientId must not be blank',
		],
		[
			'numeric recipientId',
			{ items: [{ ...ok, recipientId: 42 }] },
			'items[0].recipientId must be a string (got 42)',
		],
		[
			'missing uniqueValues',
			{ items: [{ recipientId: 'r' }] },
			'items[0].uniqueValues is required',
		],
		[
			'uniqueValues array',
			{ items: [{ recipientId: 'r', uniqueValues: [] }] },
			'items[0].uniqueValues must be an object (got [])',
		],
		[
			'missing fields',
			{ items: [{ recipientId: 'r', uniqueValues: {} }] },
			'items[0].uniqueValues.fields is required',
		],
		[
			'fields object',
			{ items: [{ recipientId: 'r', uniqueValues: { fields: {} } }] },
			'items[0].uniqueValues.fields must be an array (got {})',
		],
		[
			'field not an object',
			{ items: [pass('r', ['x'])] },
			'items[0].uniqueValues.fields[0] must be an object with place, fixed and value',
		],
		[
			'missing place',
			{ items: [pass('r', [{ fixed: false, value: 'v' }])] },
			'items[0].uniqueValues.fields[0].place is required',
		],
		[
			'empty place',
			{ items: [pass('r', [field('v', { place: '' })])] },
			'items[0].uniqueValues.fields[0].place is required',
		],
		[
			'numeric place',
			{ items: [pass('r', [field('v', { place: 1 })])] },
			'items[0].uniqueValues.fields[0].place must be a string (got 1)',
		],
		[
			'label not a string',
			{ items: [pass('r', [field('v', { label: null })])] },
			'items[0].uniqueValues.fields[0].label must be a string when given (got null)',
		],
		[
			'missing fixed',
			{ items: [pass('r', [{ place: 'BACK', value: 'v' }])] },
			'items[0].uniqueValues.fields[0].fixed is required',
		],
		[
			'fixed as a string',
			{ items: [pass('r', [field('v', { fixed: 'false' })])] },
			'items[0].uniqueValues.fields[0].fixed must be a boolean (got "false")',
		],
		[
			'missing value',
			{ items: [pass('a'), pass('b'), pass('r', [{ place: 'BACK', fixed: false }])] },
			'items[2].uniqueValues.fields[0].value is required',
		],
		[
			'null value',
			{ items: [pass('r', [field('a'), field('b', { value: null })])] },
			'items[0].uniqueValues.fields[1].value is required',
		],
		[
			'numeric value',
			{ items: [pass('r', [field('v', { value: 5 })])] },
			'items[0].uniqueValues.fields[0].value must be a string (got 5)',
		],
	])('answers 400 naming the JSON path: %s', async (_name, body, message) => {
		const res = await batch(body);
		expect(res.status).toBe(400);
		expectMeta(res.body);
		expect(res.body.error).toEqual({ status: 400, code: 'VALIDATION_FAILED', message });
		expect(sandbox.walletPasses()).toEqual([]);
	});

	it('validates the whole body before creating anything (an error in the last item creates none)', async () => {
		const res = await batch({
			items: [pass('a'), pass('b'), pass('c', [field('v', { fixed: 0 })])],
		});
		expect(res.status).toBe(400);
		expect(res.body.error.message).toBe(
			'items[2].uniqueValues.fields[0].fixed must be a boolean (got 0)',
		);
		expect(sandbox.walletPasses()).toEqual([]);
	});

	it(`takes up to ${PASS_BATCH_MAX} passes per request`, async () => {
		const items = (n: number, prefix: string) =>
			Array.from({ length: n }, (_, i) => pass(`${prefix}${i}`));
		const tooMany = await batch({ items: items(PASS_BATCH_MAX + 1, 'x') });
		expect(tooMany.status).toBe(400);
		expect(tooMany.body.error.message).toBe(
			`items must hold at most ${PASS_BATCH_MAX} passes (got ${PASS_BATCH_MAX + 1})`,
		);
		const max = await batch({ items: items(PASS_BATCH_MAX, 'm') });
		expect(max.status).toBe(200);
		expect(max.body.items).toHaveLength(PASS_BATCH_MAX);
		expect(sandbox.walletPasses()).toHaveLength(PASS_BATCH_MAX);
	});

	it('answers 400 INVALID_JSON for malformed or empty JSON', async () => {
		const bad = await batchRaw('{"items": [', 'application/json;charset=UTF-8');
		expect(bad.status).toBe(400);
		expect(bad.body.error.code).toBe('INVALID_JSON');
		expect((await batchRaw('', 'application/json')).body.error.code).toBe('INVALID_JSON');
	});

	it.each([
		['text/plain', 'text/plain'],
		['a +json type', 'application/vnd.api+json'],
		['another charset', 'application/json; charset=ISO-8859-1'],
		['form data', 'application/x-www-form-urlencoded'],
		['no content type', undefined],
	])('answers 415 for %s', async (_name, type) => {
		const res = await batchRaw(JSON.stringify({ items: [pass('r1')] }), type);
		expect(res.status).toBe(415);
		expectMeta(res.body);
		expect(res.body.error).toEqual({
			status: 415,
			code: 'UNSUPPORTED_MEDIA_TYPE',
			message: `Pass creation expects Content-Type application/json;charset=UTF-8 (got ${type ?? 'no content type'})`,
		});
		expect(sandbox.walletPasses()).toEqual([]);
	});

	it('needs the Bearer key', async () => {
		const missing = await batch({ items: [pass('r1')] }, GOLD, { auth: false });
		expect(missing.status).toBe(401);
		expect(missing.headers.get('www-authenticate')).toBe('Bearer');
		expect(missing.body.error.code).toBe('UNAUTHORIZED');
		expectMeta(missing.body);
		const wrong = await batch({ items: [pass('r1')] }, GOLD, { auth: 'wrong' });
		expect(wrong.status).toBe(401);
		expect(wrong.body.error.message).toBe('Invalid API key');
		expect(sandbox.walletPasses()).toEqual([]);
		expect(sandbox.requests.map((r) => r.status)).toEqual([401, 401]);
	});

	it('answers 405 for other methods on the batch path', async () => {
		const res = await call(sandbox, 'GET', batchPath(GOLD), { baseUrl: sandbox.walletBaseUrl });
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('POST');
		const onDownload = await call(
			sandbox,
			'POST',
			`/v2/wallet/templates/${GOLD}/passes/r1/download`,
			{ baseUrl: sandbox.walletBaseUrl, json: {} },
		);
		expect(onDownload.status).toBe(405);
		expect(onDownload.headers.get('allow')).toBe('GET');
	});

	it('builds the url from the Host header of the request', async () => {
		const body = JSON.stringify({ items: [pass('r 1/é')] });
		const { port } = new URL(sandbox.url);
		const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
			const req = http.request(
				{
					host: '127.0.0.1',
					port,
					method: 'POST',
					path: `/wallet${batchPath(GOLD)}`,
					headers: {
						host: 'wallet.example.test:8443',
						authorization: `Bearer ${sandbox.apiKey}`,
						'content-type': 'application/json;charset=UTF-8',
						'content-length': Buffer.byteLength(body),
					},
				},
				(res) => {
					let text = '';
					res
						.setEncoding('utf8')
						.on('data', (chunk) => (text += chunk))
						.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
				},
			);
			req.on('error', reject).end(body);
		});
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.text).items).toEqual([
			{
				recipientId: 'r 1/é',
				url: `http://wallet.example.test:8443/wallet/v2/wallet/templates/${GOLD}/passes/r%201%2F%C3%A9/download`,
			},
		]);
	});
});

describe('GET /v2/wallet/templates/{serial}/passes/{recipientId}/download', () => {
	it('answers the pass file at the url the batch returned', async () => {
		const created = await batch({ items: [pass('m-1', [field('<a href="https://x">x</a>')])] });
		const res = await fetch(created.body.items[0].url, {
			headers: { authorization: `Bearer ${sandbox.apiKey}` },
		});
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
		expect(res.headers.get('content-disposition')).toBe(
			`attachment; filename="${GOLD}-m-1.pkpass"`,
		);
		const text = await res.text();
		expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
		const [stored] = sandbox.walletPasses();
		expect(JSON.parse(text)).toEqual({
			sandboxPass: true,
			note: 'Sandbox stand-in for a wallet pass: JSON text, not a real .pkpass (zip) archive',
			serial: GOLD,
			recipientId: 'm-1',
			createdAt: stored.createdAt,
			fields: [field('<a href="https://x">x</a>')],
		});
		// deterministic: the same pass gives the same bytes
		expect(await (await download(GOLD, 'm-1')).text()).toBe(text);
		expect(sandbox.requests.at(-1)).toEqual(
			expect.objectContaining({
				method: 'GET',
				path: `/wallet/v2/wallet/templates/${GOLD}/passes/m-1/download`,
				status: 200,
			}),
		);
	});

	it('decodes percent-encoded recipient ids', async () => {
		const id = 'a/b c+é@x.io';
		sandbox.seedPass(GOLD, id, [field('v')]);
		const res = await download(GOLD, id);
		expect(res.status).toBe(200);
		expect(JSON.parse(await res.text()).recipientId).toBe(id);
		expect(res.headers.get('content-disposition')).toBe(
			`attachment; filename="${GOLD}-a_b_c___x.io.pkpass"`,
		);
	});

	it('answers 404 JSON errors for an unknown pass or template', async () => {
		sandbox.seedPass(GOLD, 'r1');
		const unknownPass = await download(GOLD, 'r2');
		expect(unknownPass.status).toBe(404);
		expect(unknownPass.headers.get('content-type')).toBe('application/json; charset=utf-8');
		const body = (await unknownPass.json()) as any;
		expectMeta(body);
		expect(body.error).toEqual({
			status: 404,
			code: 'PASS_NOT_FOUND',
			message: `No pass of wallet template ${GOLD} for recipient r2`,
		});
		// a pass belongs to its template
		const otherTemplate = (await (await download(SILVER, 'r1')).json()) as any;
		expect(otherTemplate.error.code).toBe('PASS_NOT_FOUND');
		const unknownTemplate = await download('tpl-nope', 'r1');
		expect(unknownTemplate.status).toBe(404);
		expect(((await unknownTemplate.json()) as any).error).toEqual({
			status: 404,
			code: 'TEMPLATE_NOT_FOUND',
			message: 'Wallet template tpl-nope not found',
		});
	});

	it('needs the Bearer key', async () => {
		sandbox.seedPass(GOLD, 'r1');
		const res = await download(GOLD, 'r1', false);
		expect(res.status).toBe(401);
		expect(((await res.json()) as any).error.code).toBe('UNAUTHORIZED');
		expect((await download(GOLD, 'r1', 'wrong')).status).toBe(401);
	});

	it('is gone after reset', async () => {
		sandbox.seedPass(GOLD, 'r1');
		sandbox.reset();
		expect((await download(GOLD, 'r1')).status).toBe(404);
	});
});

describe('walletPasses and seedPass', () => {
	it('seeds passes with the batch rules and returns copies', async () => {
		const seeded = sandbox.seedPass(GOLD, 'r1', [field('<b>x</b>')]);
		expect(seeded).toEqual({
			serial: GOLD,
			recipientId: 'r1',
			fields: [field('<b>x</b>')],
			createdAt: expect.any(String),
		});
		expect(sandbox.seedPass(SILVER, 'r1').fields).toEqual([]);
		expect(sandbox.walletPasses().map((p) => [p.serial, p.recipientId])).toEqual([
			[GOLD, 'r1'],
			[SILVER, 'r1'],
		]);
		expect(sandbox.walletPasses('tpl-unknown')).toEqual([]);
		sandbox.walletPasses()[0].fields[0].value = 'mutated';
		expect(sandbox.walletPasses(GOLD)[0].fields[0].value).toBe('<b>x</b>');
		expect(sandbox.requests).toEqual([]);
	});

	it.each<[string, () => unknown, number, string, string]>([
		[
			'unknown template',
			() => sandbox.seedPass('tpl-nope', 'r'),
			404,
			'TEMPLATE_NOT_FOUND',
			'Wallet template tpl-nope not found',
		],
		[
			'empty recipientId',
			() => sandbox.seedPass(GOLD, ''),
			400,
			'VALIDATION_FAILED',
			'recipientId is required',
		],
		[
			'invalid field',
			() => sandbox.seedPass(GOLD, 'r', [{ place: 'BACK', fixed: false } as never]),
			400,
			'VALIDATION_FAILED',
			'fields[0].value is required',
		],
		[
			'unknown place',
			() => sandbox.seedPass(GOLD, 'r', [field('v', { place: 'FRONT' })]),
			400,
			'INVALID_PLACE',
			'fields[0].place "FRONT" is not one of HEADER, PRIMARY, SECONDARY, AUXILIARY, BACK',
		],
	])('throws HttpError: %s', (_name, seed, status, code, message) => {
		let error: unknown;
		try {
			seed();
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(HttpError);
		expect(error).toMatchObject({ status, code, message });
	});

	it('throws for a recipient that already has a pass of the template', () => {
		sandbox.seedPass(GOLD, 'r1');
		expect(() => sandbox.seedPass(GOLD, 'r1')).toThrow(
			`Recipient r1 already has a pass of template ${GOLD}`,
		);
	});
});
