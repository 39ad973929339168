/** Blacklist add and check through the installed package in a real n8n. */
import { executeBatch, nodeItems } from './n8n-harness';
import { audienceNode, chain, codeNode, manualTrigger, usePackageInN8n } from './package-setup';

jest.setTimeout(300_000);

/** Unsubscribe one recipient, then check it and a clean one, with an IF on the result. */
const blacklistWorkflow = {
	id: 'amE2eBlacklist1',
	name: 'e2e: blacklist',
	nodes: [
		manualTrigger,
		audienceNode('Unsubscribe', 1, {
			resource: 'blacklist',
			operation: 'add',
			channel: 'SMS',
			from: 'ACME',
			to: '+33 6 12 34 56 78',
		}),
		codeNode(
			'Recipients',
			2,
			"return [{ json: { to: '+33612345678' } }, { json: { to: '0044 7700 900123' } }];",
		),
		audienceNode('Check', 3, {
			resource: 'blacklist',
			operation: 'check',
			channel: 'SMS',
			from: 'ACME',
			to: '={{ $json.to }}',
		}),
		{
			id: 'if-1',
			name: 'Blacklisted?',
			type: 'n8n-nodes-base.if',
			typeVersion: 2,
			position: [880, 0],
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
					conditions: [
						{
							id: 'c1',
							leftValue: '={{ $json.blacklisted }}',
							rightValue: '',
							operator: { type: 'boolean', operation: 'true', singleValue: true },
						},
					],
					combinator: 'and',
				},
				options: {},
			},
		},
	],
	connections: chain('Start', 'Unsubscribe', 'Recipients', 'Check', 'Blacklisted?'),
};

const ctx = usePackageInN8n('am-e2e-blacklist-', () => [blacklistWorkflow]);

it('adds a recipient, then checks it and a clean recipient, and an IF node branches on the result', async () => {
	const result = (await executeBatch(ctx.folder, [blacklistWorkflow.id]))[blacklistWorkflow.id];
	expect(result.error).toBeUndefined();
	const runData = result.runData!;
	expect(nodeItems(runData, 'Unsubscribe')[0].json).toMatchObject({
		to: '+33612345678',
		reason: 'UNSUBSCRIBED',
	});
	expect(nodeItems(runData, 'Check').map((i) => [i.json.to, i.json.blacklisted])).toEqual([
		['+33612345678', true],
		['+447700900123', false],
	]);
	expect(nodeItems(runData, 'Blacklisted?', 0).map((i) => i.json.to)).toEqual(['+33612345678']);
	expect(nodeItems(runData, 'Blacklisted?', 1).map((i) => i.json.to)).toEqual(['+447700900123']);
	// The two checks go out in parallel (Options › Parallel Requests), so they may arrive in either
	// order.
	const requests = ctx.sandbox.requests.map(
		(r) => `${r.method} ${r.path} ${String(r.query.to ?? (r.body as { to?: string }).to)}`,
	);
	expect(requests[0]).toBe('POST /messaging/subscribers +33612345678');
	expect(requests.slice(1).sort()).toEqual([
		'GET /messaging/subscribers +33612345678',
		'GET /messaging/subscribers +447700900123',
	]);
});
