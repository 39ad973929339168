/** Wallet templates and passes through the installed package in a real n8n. */
import { executeBatch, nodeItems } from './n8n-harness';
import {
	API_KEY,
	audienceNode,
	chain,
	codeNode,
	manualTrigger,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(300_000);

const link = '<a href="https://example.com/members/{{id}}">Your member page</a>';

/** List the templates, then one pass per new member on the first template by name. */
const passesWorkflow = {
	id: 'amE2eWallet1',
	name: 'e2e: wallet passes',
	nodes: [
		manualTrigger,
		audienceNode('Templates', 1, {
			resource: 'walletTemplate',
			operation: 'getMany',
			returnAll: true,
			sort: { rule: [{ field: 'name', direction: 'ascending' }] },
			select: ['serial', 'name'],
		}),
		codeNode(
			'New Members',
			2,
			"const serial = $('Templates').first().json.serial;\n" +
				"return ['ada', 'alan', 'grace'].map((name, i) => ({ json: { serial, email: `${name}@example.com`, name, link: `<a href=\"https://example.com/members/${i + 1}\">Your member page</a>` } }));",
		),
		audienceNode('Create Passes', 3, {
			resource: 'walletPass',
			operation: 'create',
			templateSerial: { __rl: true, mode: 'id', value: '={{ $json.serial }}' },
			recipientId: '={{ $json.email }}',
			fields: {
				field: [
					{ place: 'BACK', label: 'Member', value: '={{ $json.name }}' },
					{ place: 'BACK', label: 'Your page', value: '={{ $json.link }}' },
				],
			},
			options: { batchSize: 2 },
		}),
	],
	connections: chain('Start', 'Templates', 'New Members', 'Create Passes'),
};

const ctx = usePackageInN8n('am-e2e-wallet-', () => [passesWorkflow]);

it('lists templates and creates a pass per input item, in batches, in a real n8n', async () => {
	const results = await executeBatch(ctx.folder, [passesWorkflow.id]);
	const result = results[passesWorkflow.id];
	expect(result.error).toBeUndefined();
	const runData = result.runData!;
	expect(nodeItems(runData, 'Templates').map((i) => i.json)).toEqual([
		{ serial: 'tpl-classic-member', name: 'Classic member card' },
		{ serial: 'tpl-gold-member', name: 'Gold member card' },
		{ serial: 'tpl-silver-member', name: 'Silver member card' },
	]);
	const passes = nodeItems(runData, 'Create Passes');
	expect(passes.map((i) => [i.json.recipientId, (i.pairedItem as { item: number }).item])).toEqual([
		['ada@example.com', 0],
		['alan@example.com', 1],
		['grace@example.com', 2],
	]);
	for (const pass of passes) {
		expect(pass.json.url).toBe(
			`${ctx.sandbox.walletBaseUrl}/v2/wallet/templates/tpl-classic-member/passes/${encodeURIComponent(String(pass.json.recipientId))}/download`,
		);
	}
	const batches = ctx.sandbox.requests.filter((r) => r.method === 'POST');
	expect(batches.map((r) => [r.path, (r.body as { items: unknown[] }).items.length])).toEqual([
		['/wallet/v2/wallet/templates/tpl-classic-member/passes/batch', 2],
		['/wallet/v2/wallet/templates/tpl-classic-member/passes/batch', 1],
	]);
	expect(ctx.sandbox.walletPasses('tpl-classic-member')[0].fields).toEqual([
		{ place: 'BACK', label: 'Member', fixed: false, value: 'ada' },
		{ place: 'BACK', label: 'Your page', fixed: false, value: link.replace('{{id}}', '1') },
	]);
	expect(JSON.stringify(results)).not.toContain(API_KEY);
});
