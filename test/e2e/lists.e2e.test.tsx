/**
 * The package as users get it: packed, npm-installed into ~/.n8n/nodes of a throwaway n8n
 * 2.x user folder, a credential imported, workflows run by the n8n CLI against the sandbox.
 */
import { executeBatch, executeWorkflow, nodeItems } from './n8n-harness';
import {
	API_KEY,
	audienceNode as audience,
	chain,
	codeNode as code,
	manualTrigger as trigger,
	nodeAt as position,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(300_000);

const listFrom = (node: string) => ({
	__rl: true,
	mode: 'id',
	value: `={{ $('${node}').first().json.id }}`,
});

/** Create a list, add members from items (one repeats a unique e-mail), read them back. */
const membersWorkflow = {
	id: 'amE2eMembers1',
	name: 'e2e: list and members',
	nodes: [
		trigger,
		audience('Create List', 1, {
			resource: 'list',
			operation: 'create',
			name: 'E2E Members',
			columns: {
				column: [
					{ name: 'email', type: 'STRING', unique: true, required: true },
					{ name: 'plan', type: 'STRING', defaultValue: 'free' },
				],
			},
			rows: '[]',
		}),
		code(
			'Members',
			2,
			"return ['ada', 'alan', 'ada', 'grace'].map((name, i) => ({ json: { email: `${name}@example.com`, plan: i === 3 ? 'pro' : undefined } }));",
		),
		audience('Add Members', 3, {
			resource: 'subscriber',
			operation: 'addMany',
			listId: listFrom('Create List'),
			source: 'items',
			options: { batchSize: 3 },
		}),
		audience(
			'Get Members',
			4,
			{
				resource: 'subscriber',
				operation: 'getMany',
				listId: listFrom('Create List'),
				returnAll: true,
			},
			{ executeOnce: true },
		),
	],
	connections: chain('Start', 'Create List', 'Members', 'Add Members', 'Get Members'),
};

/** Items to a CSV file (n8n's Convert to File), a list created from it, read, then deleted. */
const csvWorkflow = {
	id: 'amE2eCsvList1',
	name: 'e2e: list from CSV',
	nodes: [
		trigger,
		code(
			'Rows',
			1,
			"return [{ json: { email: 'x@example.com', age: 30 } }, { json: { email: 'y@example.com', age: 41 } }];",
		),
		{
			id: 'to-file',
			name: 'To CSV',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			position: position(2),
			parameters: { operation: 'csv', options: { fileName: 'people.csv' } },
		},
		audience('Create From CSV', 3, {
			resource: 'list',
			operation: 'createFromCsv',
			name: 'E2E CSV',
			binaryPropertyName: 'data',
			options: { trackLastActivity: true },
		}),
		audience('Get List', 4, {
			resource: 'list',
			operation: 'get',
			listId: listFrom('Create From CSV'),
		}),
		audience('Delete List', 5, {
			resource: 'list',
			operation: 'delete',
			listId: listFrom('Create From CSV'),
		}),
		audience(
			'Get Deleted',
			6,
			{ resource: 'list', operation: 'get', listId: listFrom('Create From CSV') },
			{ onError: 'continueRegularOutput' },
		),
	],
	connections: chain(
		'Start',
		'Rows',
		'To CSV',
		'Create From CSV',
		'Get List',
		'Delete List',
		'Get Deleted',
	),
};

/** An unknown list stops the workflow with the platform's 404. */
const unknownListWorkflow = {
	id: 'amE2eUnknown1',
	name: 'e2e: unknown list',
	nodes: [
		trigger,
		audience('Get Unknown', 1, {
			resource: 'list',
			operation: 'get',
			listId: { __rl: true, mode: 'id', value: '987654' },
		}),
	],
	connections: chain('Start', 'Get Unknown'),
};

const ctx = usePackageInN8n('am-e2e-lists-', () => [
	membersWorkflow,
	csvWorkflow,
	unknownListWorkflow,
]);

it('is installed from the packed tarball like a community package', () => {
	expect(ctx.installed.name).toBe('n8n-nodes-audience-messaging');
	expect(ctx.installed.dir).toContain(
		`${ctx.folder.nodesDir}/node_modules/n8n-nodes-audience-messaging`,
	);
});

describe('workflows run by the n8n CLI', () => {
	let results: Awaited<ReturnType<typeof executeBatch>>;
	beforeAll(async () => {
		results = await executeBatch(ctx.folder, [membersWorkflow.id, csvWorkflow.id]);
	});

	it('creates a list, adds members from items in bulk and reads them back', () => {
		const result = results[membersWorkflow.id];
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		const runData = result.runData!;
		const [list] = nodeItems(runData, 'Create List');
		expect(list.json).toMatchObject({ name: 'E2E Members', status: 'OK' });
		const added = nodeItems(runData, 'Add Members');
		expect(added.map((i) => i.json.status)).toEqual(['added', 'added', 'failed', 'added']);
		expect(added.map((i) => (i.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3]);
		expect(added[2].json.error).toMatchObject({ column: 'email', code: 'UNIQUE_VALUE_DUPLICATED' });
		const members = nodeItems(runData, 'Get Members');
		expect(members.map((i) => [i.json.email, i.json.plan])).toEqual([
			['ada@example.com', 'free'],
			['alan@example.com', 'free'],
			['grace@example.com', 'pro'],
		]);
		const bulk = ctx.sandbox.requests.filter(
			(r) => r.path === `/audience/v3/lists/${String(list.json.id)}/subscribers/bulk`,
		);
		expect(bulk.map((r) => (r.body as unknown[]).length)).toEqual([3, 1]);
		expect(bulk.every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
	});

	it('creates a list from a CSV file, reads it, deletes it, and reports the 404 afterwards', () => {
		const result = results[csvWorkflow.id];
		expect(result.error).toBeUndefined();
		const runData = result.runData!;
		const [created] = nodeItems(runData, 'Create From CSV');
		// Simplify is on by default: the fields a workflow goes on with, column names only.
		expect(created.json).toMatchObject({ name: 'E2E CSV', size: 2, totalLines: 2, status: 'OK' });
		expect(created.json).not.toHaveProperty('trackLastActivity');
		const upload = ctx.sandbox.requests.find(
			(r) => r.method === 'POST' && r.query.name === 'E2E CSV',
		);
		expect(upload?.query).toEqual({ name: 'E2E CSV', trackLastActivity: 'true' });
		expect(upload?.parts?.map((p) => [p.name, p.filename, p.contentType])).toEqual([
			['csvFile', 'people.csv', 'text/csv'],
		]);
		// n8n's Convert to File writes a byte-order mark; the file goes out exactly as n8n made it.
		expect(upload?.parts?.[0].text?.split('\n')[0]).toBe('\uFEFFemail,age');
		expect(created.json.columns).toEqual(expect.arrayContaining(['email', 'age']));
		expect(nodeItems(runData, 'Get List')[0].json).toMatchObject({
			id: created.json.id,
			totalLines: 2,
		});
		expect(nodeItems(runData, 'Delete List')[0].json).toMatchObject({
			listId: String(created.json.id),
			deleted: true,
		});
		const [gone] = nodeItems(runData, 'Get Deleted');
		expect(String(gone.json.error)).toContain(String(created.json.id));
		expect(String(gone.json.error)).toContain('[HTTP 404]');
	});

	it('never writes the API key into the execution data', () => {
		expect(JSON.stringify(results)).not.toContain(API_KEY);
	});
});

it('stops a workflow on an unknown list with the platform 404 naming it', async () => {
	const result = await executeWorkflow(ctx.folder, unknownListWorkflow.id);
	expect(result.status).toBe('error');
	expect(result.error?.message).toContain('987654');
	expect(result.error?.message).toContain('[HTTP 404]');
	expect(result.stdout + result.stderr).not.toContain(API_KEY);
});
