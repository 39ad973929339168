import type { INodeParameters } from 'n8n-workflow';

import { byId, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

/**
 * Issue 40: Subscriber › Add Many (each input item is a subscriber) given a per-row error that
 * names its row by a bare number, its base (0 or 1) unknown.
 */
describe('Subscriber › Add Many: a row error of unknown base', () => {
	const members = (count: number) =>
		Array.from({ length: count }, (_, n) => ({ json: { email: `m${n}@x.io` } }));
	const addMany = (listId: number, options: INodeParameters = {}): INodeParameters => ({
		resource: 'subscriber',
		operation: 'addMany',
		listId: byId(listId),
		source: 'items',
		options,
	});
	/** The platform's answer to the bulk request: `subscribersError` as some platform shapes it. */
	const answer = (
		listId: number,
		data: { subscriberAdded: number; subscribersError: unknown[] },
		skip = 0,
	) =>
		ctx.sandbox.addFault({
			kind: 'status',
			method: 'POST',
			path: `/lists/${listId}/subscribers/bulk`,
			status: 200,
			times: 1,
			skip,
			body: { meta: {}, data: { subscriberUpdated: 0, ...data } },
		});
	const bulkRequests = () => ctx.sandbox.requests.filter((r) => r.method === 'POST');

	it('{ row: 1 } in a batch of 100 with 99 added: 98 items added, the 2 it may name unknown', async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		answer(list.id, {
			subscriberAdded: 99,
			subscribersError: [{ row: 1, message: 'm1@x.io already exists' }],
		});
		const items = members(100);
		const output = outputOf(await run(ctx.credentials, addMany(list.id), items));
		// One request carrying the 100 rows, as the items hold them.
		expect(bulkRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
			`POST /audience/v3/lists/${list.id}/subscribers/bulk`,
		]);
		expect(bulkRequests()[0].body).toEqual(items.map((item) => item.json));
		expect(output).toHaveLength(100);
		expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		const statuses = output.map((item) => item.json.status);
		expect(statuses.slice(0, 2)).toEqual(['unknown', 'unknown']);
		expect(statuses.slice(2)).toEqual(Array(98).fill('added'));
		expect(output[0].json.warning).toBe(
			'The platform does not say where it counts rows from: its error "m1@x.io already exists" names row 1, which is item 1 counted from 0 or item 0 (this one) counted from 1. Its counts prove that the rows no error names were stored, not which of these were: check this subscriber in the list.',
		);
		expect(output[1].json.warning).toMatch(
			/item 1 \(this one\) counted from 0 or item 0 counted from 1/,
		);
		expect(output.slice(2).some((item) => 'warning' in item.json)).toBe(false);
		// The error, tied to no one row, is listed once on the batch's first item.
		expect(output[0].json.batchErrors).toEqual([
			expect.objectContaining({ message: 'm1@x.io already exists' }),
		]);
		expect(output.slice(1).some((item) => 'batchErrors' in item.json)).toBe(false);
		expect(output[5].json).toEqual({
			status: 'added',
			listId: String(list.id),
			subscriber: { email: 'm5@x.io' },
		});
	});

	it("in a later batch, the rows in doubt are that batch's and the warning names their items", async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		answer(list.id, { subscriberAdded: 48, subscribersError: [{ row: 1 }, { row: 9 }] }, 1);
		const items = members(100);
		const output = outputOf(await run(ctx.credentials, addMany(list.id, { batchSize: 50 }), items));
		expect(bulkRequests().map((r) => (r.body as unknown[]).length)).toEqual([50, 50]);
		expect(bulkRequests()[1].body).toEqual(items.slice(50).map((item) => item.json));
		const unknown = output.flatMap((item, index) =>
			item.json.status === 'unknown' ? [index] : [],
		);
		// Rows 1 and 9 of the second batch counted from 0, or rows 0 and 8 counted from 1 (a 1
		// rules out a header line).
		expect(unknown).toEqual([50, 51, 58, 59]);
		expect(output.filter((item) => item.json.status === 'added')).toHaveLength(96);
		expect(output[58].json.warning).toContain(
			'names row 9, which is item 59 counted from 0 or item 58 (this one) counted from 1',
		);
		expect(output[50].json.batchErrors).toHaveLength(2);
		// The first batch was the platform's (the sandbox's) own answer: all 50 stored.
		expect(ctx.sandbox.listSubscribers(list.id)).toHaveLength(50);
	});

	it('counts that do not prove the other rows stored leave the whole batch unknown', async () => {
		const list = ctx.sandbox.seedList({ name: 'L', rows: [] });
		answer(list.id, { subscriberAdded: 98, subscribersError: [{ row: 1, message: 'refused' }] });
		const output = outputOf(await run(ctx.credentials, addMany(list.id), members(100)));
		expect(new Set(output.map((item) => item.json.status))).toEqual(new Set(['unknown']));
		expect(output[0].json.warning).toMatch(/could not be matched to a row/);
		expect(output[99].json.warning).toMatch(/could not be matched to a row/);
	});
});
