import { NodeApiError } from 'n8n-workflow';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { callListSearch } from '../helpers/n8n';
import { API_KEY, expectNoKey, node, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

const template = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Wallet Template > Get Many', () => {
	it('sends limit, sort built from the rules, and select; one item per template', async () => {
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'walletTemplate',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				sort: {
					rule: [
						{ field: 'creationDate', direction: 'descending' },
						{ field: 'name', direction: 'ascending' },
					],
				},
				select: ['serial', 'name'],
			}),
		);
		expect(ctx.sandbox.requests).toHaveLength(1);
		const request = ctx.sandbox.requests[0];
		expect(request).toMatchObject({ method: 'GET', path: '/wallet/v2/wallet/templates' });
		expect(request.query).toEqual({
			page: '1',
			limit: '2',
			sort: '-creationDate,+name',
			select: 'serial,name',
		});
		expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(output.map((i) => i.json)).toEqual([
			{ serial: 'tpl-classic-member', name: 'Classic member card' },
			{ serial: 'tpl-gold-member', name: 'Gold member card' },
		]);
	});

	it('Return All walks every page of the pagination', async () => {
		for (let i = 0; i < 250; i++)
			ctx.sandbox.seedTemplate({
				serial: `tpl-${String(i).padStart(3, '0')}`,
				name: `Template ${i}`,
			});
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'walletTemplate',
				operation: 'getMany',
				returnAll: true,
			}),
		);
		expect(output).toHaveLength(253);
		expect(
			ctx.sandbox.requests.map((r) => `${String(r.query.page)}/${String(r.query.limit)}`),
		).toEqual(['1/100', '2/100', '3/100']);
		expect(output[0].json).toEqual(
			expect.objectContaining({ serial: 'tpl-gold-member', walletPayCompatible: true }),
		);
	});

	it('a limit above one page takes several pages of the same size', async () => {
		for (let i = 0; i < 150; i++)
			ctx.sandbox.seedTemplate({ serial: `tpl-${i}`, name: `Template ${i}` });
		const output = outputOf(
			await run(ctx.credentials, {
				resource: 'walletTemplate',
				operation: 'getMany',
				returnAll: false,
				limit: 120,
			}),
		);
		expect(output).toHaveLength(120);
		expect(new Set(output.map((i) => i.json.serial)).size).toBe(120);
		expect(
			ctx.sandbox.requests.map((r) => `${String(r.query.page)}/${String(r.query.limit)}`),
		).toEqual(['1/100', '2/100']);
	});

	it('lists templates in the template picker', async () => {
		const result = await callListSearch(node, 'searchWalletTemplates', ctx.credentials, 'gold');
		expect(result.results).toEqual([
			{ name: 'Gold member card (tpl-gold-member)', value: 'tpl-gold-member' },
		]);
		expect(ctx.sandbox.requests[0].query).toEqual({
			page: '1',
			limit: '100',
			sort: '+name',
			select: 'serial,name',
		});
	});
});

/** Wallet Pass › Create with Pass Data "Define Below": recipient and two fields as expressions. */
const passParameters = (extra: Record<string, unknown> = {}) => ({
	resource: 'walletPass',
	operation: 'create',
	templateSerial: template('tpl-gold-member'),
	recipientId: '={{ $json.email }}',
	fields: {
		field: [
			{ place: 'BACK', label: 'Member', value: '={{ $json.name }}' },
			{ place: 'BACK', label: 'Link', value: '={{ $json.link }}' },
		],
	},
	...extra,
});

describe('Wallet Pass > Create', () => {
	const link = '<a href="https://example.com/members/ada?ref=wallet&amp;x=1">Your member page</a>';
	const members = ['ada', 'alan', 'grace', 'edsger', 'barbara'].map((name) => ({
		json: { email: `${name}@example.com`, name: name.toUpperCase(), link },
	}));

	it('sends the items in batches and gives every item its own { recipientId, url }', async () => {
		const result = await run(
			ctx.credentials,
			passParameters({ options: { batchSize: 2 } }),
			members,
		);
		const output = outputOf(result);
		expect(ctx.sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
			Array(3).fill('POST /wallet/v2/wallet/templates/tpl-gold-member/passes/batch'),
		);
		expect(ctx.sandbox.requests[0].headers['content-type']).toBe('application/json;charset=UTF-8');
		expect(ctx.sandbox.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
		expect(ctx.sandbox.requests[0].body).toEqual({
			items: [
				{
					recipientId: 'ada@example.com',
					uniqueValues: {
						fields: [
							{ place: 'BACK', label: 'Member', fixed: false, value: 'ADA' },
							{ place: 'BACK', label: 'Link', fixed: false, value: link },
						],
					},
				},
				{
					recipientId: 'alan@example.com',
					uniqueValues: {
						fields: [
							{ place: 'BACK', label: 'Member', fixed: false, value: 'ALAN' },
							{ place: 'BACK', label: 'Link', fixed: false, value: link },
						],
					},
				},
			],
		});
		expect(ctx.sandbox.requests.map((r) => (r.body as { items: unknown[] }).items.length)).toEqual([
			2, 2, 1,
		]);
		expect(output.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		output.forEach((item, index) => {
			expect(item.json).toEqual({
				recipientId: members[index].json.email,
				url: `${ctx.sandbox.walletBaseUrl}/v2/wallet/templates/tpl-gold-member/passes/${encodeURIComponent(members[index].json.email)}/download`,
				templateSerial: 'tpl-gold-member',
			});
		});
		expect(
			ctx.sandbox.walletPasses('tpl-gold-member').find((p) => p.recipientId === 'ada@example.com')
				?.fields[1].value,
		).toBe(link);
		expectNoKey(result);
	});

	it('a custom place is sent as typed', async () => {
		outputOf(
			await run(
				ctx.credentials,
				passParameters({
					fields: {
						field: [{ place: 'custom', customPlace: 'AUXILIARY', label: '', value: 'Gold' }],
					},
				}),
				[members[0]],
			),
		);
		expect(
			(ctx.sandbox.requests[0].body as { items: Array<{ uniqueValues: unknown }> }).items[0]
				.uniqueValues,
		).toEqual({
			fields: [{ place: 'AUXILIARY', fixed: false, value: 'Gold' }],
		});
	});

	it('refuses a missing recipient ID, naming the item, before any request', async () => {
		const result = await run(ctx.credentials, passParameters(), [
			members[0],
			{ json: { name: 'No email', link } },
		]);
		expect(result.error?.message).toBe(
			'Invalid "Recipient ID" in item 1: a pass needs a recipient ID',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('refuses the same recipient twice in one run, naming both items, before any request', async () => {
		const result = await run(ctx.credentials, passParameters(), [
			members[0],
			members[1],
			members[0],
		]);
		expect(result.error?.message).toBe(
			'Invalid "Recipient ID" in item 2: "ada@example.com" is already the recipient of item 0 for template tpl-gold-member; each pass of a template needs a different recipient ID',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('refuses a field without a value, naming the item and the field', async () => {
		const result = await run(
			ctx.credentials,
			passParameters({
				fields: { field: [{ place: 'BACK', label: 'Member', value: '={{ $json.missing }}' }] },
			}),
			[members[0]],
		);
		expect(result.error?.message).toBe(
			'Invalid "Fields › Value #1" in item 0: every field needs a value',
		);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('refuses a field without a place', async () => {
		const result = await run(
			ctx.credentials,
			passParameters({ fields: { field: [{ place: 'custom', customPlace: ' ', value: 'x' }] } }),
			[members[0]],
		);
		expect(result.error?.message).toBe(
			'Invalid "Fields › Place #1" in item 0: every field needs a place, for example BACK',
		);
	});

	it('a pass the platform refuses fails alone: the others are created and reported', async () => {
		ctx.sandbox.seedPass('tpl-gold-member', 'grace@example.com');
		const continued = outputOf(await run(ctx.credentials, passParameters(), members, true));
		expect(continued.map((i) => (i.json.url ? 'created' : 'failed'))).toEqual([
			'created',
			'created',
			'failed',
			'created',
			'created',
		]);
		expect(continued[2].json.error).toMatch(
			/^The platform did not create the pass of recipient "grace@example.com": .*already has a pass/,
		);
		expect(continued[2].pairedItem).toEqual({ item: 2 });

		ctx.sandbox.reset();
		ctx.sandbox.seedPass('tpl-gold-member', 'grace@example.com');
		const stopped = await run(
			ctx.credentials,
			passParameters({ options: { batchSize: 2 } }),
			members,
		);
		expect(stopped.error?.message).toMatch(/grace@example\.com/);
		expect((stopped.error as unknown as { context: { itemIndex: number } }).context.itemIndex).toBe(
			2,
		);
		expect(ctx.sandbox.requests).toHaveLength(3);
		expect(
			ctx.sandbox
				.walletPasses('tpl-gold-member')
				.map((p) => p.recipientId)
				.sort(),
		).toEqual([
			'ada@example.com',
			'alan@example.com',
			'barbara@example.com',
			'edsger@example.com',
			'grace@example.com',
		]);
	});

	it('an unknown template fails with 404 naming it', async () => {
		const result = await run(
			ctx.credentials,
			passParameters({ templateSerial: template('tpl-nope') }),
			[members[0]],
		);
		expect(result.error).toBeInstanceOf(NodeApiError);
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(result.error?.message).toContain('tpl-nope');
	});
});

describe('Wallet Pass > Create, Pass Data "From Input Item Fields"', () => {
	const link = '<a href="https://example.com/members/ada">Your member page</a>';
	const fromItems = (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'walletPass',
		operation: 'create',
		templateSerial: template('tpl-gold-member'),
		passData: 'itemFields',
		recipientIdField: 'email',
		fieldsFromInput: {
			field: [
				{ place: 'BACK', label: 'Member', inputField: 'name' },
				{ place: 'custom', customPlace: 'AUXILIARY', label: 'Link', inputField: 'link' },
				{ place: 'BACK', label: 'Points', inputField: 'points' },
			],
		},
		...extra,
	});
	const members = ['ada', 'alan', 'grace'].map((name, i) => ({
		json: {
			email: `${name}@example.com`,
			name: name.toUpperCase(),
			link,
			points: 100 * i,
			other: { kept: 'out' },
		},
	}));

	it("reads each pass from its item's fields by name and sends what Define Below sends", async () => {
		const result = await run(ctx.credentials, fromItems({ options: { batchSize: 2 } }), members);
		const output = outputOf(result);
		expect(ctx.sandbox.requests.map((r) => (r.body as { items: unknown[] }).items.length)).toEqual([
			2, 1,
		]);
		expect((ctx.sandbox.requests[0].body as { items: unknown[] }).items[1]).toEqual({
			recipientId: 'alan@example.com',
			uniqueValues: {
				fields: [
					{ place: 'BACK', label: 'Member', fixed: false, value: 'ALAN' },
					{ place: 'AUXILIARY', label: 'Link', fixed: false, value: link },
					// A number is sent as text: the field's value is a string column.
					{ place: 'BACK', label: 'Points', fixed: false, value: '100' },
				],
			},
		});
		expect(output.map((item) => [item.json.recipientId, item.pairedItem])).toEqual(
			members.map((member, item) => [member.json.email, { item }]),
		);
		expect(output.every((item) => String(item.json.url).endsWith('/download'))).toBe(true);
		expectNoKey(result);

		// The same passes written with expressions go out identically.
		const viaExpressions = passParameters({
			fields: {
				field: [
					{ place: 'BACK', label: 'Member', value: '={{ $json.name }}' },
					{ place: 'custom', customPlace: 'AUXILIARY', label: 'Link', value: '={{ $json.link }}' },
					{ place: 'BACK', label: 'Points', value: '={{ $json.points }}' },
				],
			},
			options: { batchSize: 2 },
		});
		const sent = ctx.sandbox.requests.map((r) => r.body);
		ctx.sandbox.reset();
		outputOf(await run(ctx.credentials, viaExpressions, members));
		expect(ctx.sandbox.requests.map((r) => r.body)).toEqual(sent);
	});

	it('refuses an item without the field, or with an object, an empty text or no field name, naming the item and the field, before any request', async () => {
		const cases: Array<[INodeParameters, INodeExecutionData[], string]> = [
			[
				fromItems(),
				[members[0], { json: { name: 'No email', link, points: 1 } }],
				'Invalid "Recipient ID Field" in item 1: the input item has no field "email"',
			],
			[
				fromItems(),
				[{ json: { ...members[0].json, link: { href: 'x' } } }],
				'Invalid "Fields › Input Field #2" in item 0: the input item\'s field "link" holds an object; text, a number or true/false was expected',
			],
			[
				fromItems(),
				[members[0], members[1], { json: { ...members[2].json, name: '  ' } }],
				'Invalid "Fields › Input Field #1" in item 2: the input item\'s field "name" is empty',
			],
			// n8n itself refuses an empty required parameter, naming it; an expression giving '' is the
			// node's to refuse.
			[
				fromItems({ recipientIdField: '' }),
				[members[0]],
				'The \'Node Under Test\' node has issues:\n- Parameter "Recipient ID Field" is required.',
			],
			[
				fromItems({ recipientIdField: '={{ $json.none }}' }),
				[members[0]],
				'Invalid "Recipient ID Field" in item 0: the name of the input field holding the recipient ID is required',
			],
			[
				fromItems({
					fieldsFromInput: { field: [{ place: 'BACK', label: 'Member', inputField: '' }] },
				}),
				[members[0]],
				'Invalid "Fields › Input Field #1" in item 0: the name of the input field holding the value is required',
			],
			[
				fromItems(),
				[members[0], members[1], members[0]],
				'Invalid "Recipient ID" in item 2: "ada@example.com" is already the recipient of item 0 for template tpl-gold-member; each pass of a template needs a different recipient ID',
			],
		];
		for (const [parameters, items, message] of cases) {
			const result = await run(ctx.credentials, parameters, items);
			expect(result.error?.message).toBe(message);
		}
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('with Continue On Fail, a bad item gets its error item and the others their passes', async () => {
		const items = [members[0], { json: { name: 'No email' } }, members[2]];
		const output = outputOf(await run(ctx.credentials, fromItems(), items, true));
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[1].json.error).toBe(
			'Invalid "Recipient ID Field" in item 1: the input item has no field "email"',
		);
		expect([output[0].json.recipientId, output[2].json.recipientId]).toEqual([
			'ada@example.com',
			'grace@example.com',
		]);
		expect(
			(ctx.sandbox.requests[0].body as { items: Array<{ recipientId: string }> }).items.map(
				(pass) => pass.recipientId,
			),
		).toEqual(['ada@example.com', 'grace@example.com']);
	});
});
