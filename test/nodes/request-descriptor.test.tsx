/**
 * An operation described as data (runner/request.ts): docs/architecture.md's worked example,
 * Sender › Get Template Namespace, built from its descriptor
 * (test/nodes/fixtures/example-operation.tsx) into a node of its own and run in n8n-core against
 * the sandbox: every item read and checked before the first request, the path's values URL-encoded,
 * the output shaped by the descriptor.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOf } from '../../nodes/AudienceMessaging/runner/operation';
import { fillTemplate } from '../../nodes/AudienceMessaging/runner/request';
import { runNode } from '../helpers/n8n';
import { outputOf, useSandbox } from './context';
import { getNamespace, operation as getNamespaceOperation } from './fixtures/example-operation';

const ctx = useSandbox();

// The example's own node: the package's credential, one resource, one operation, the example's
// fields.
const example = resourceOf('Sender', 'sender', [getNamespaceOperation]);
const description: INodeTypeDescription = {
	displayName: 'Descriptor Example',
	name: 'descriptorExample',
	description: 'One operation built from a request descriptor',
	group: ['output'],
	version: 1,
	defaults: { name: 'Descriptor Example' },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: 'audienceMessagingApi', required: true }],
	properties: [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: [{ name: 'Sender', value: 'sender' }],
			default: 'sender',
		},
		// As the node builds each resource: the Operation list, and the fields shown for their
		// operation.
		example.operations,
		...example.fields,
	],
};
const exampleNode: INodeType = { description, execute: getNamespace };

const run = async (items: Array<{ id: string }>, continueOnFail = false) =>
	await runNode({
		nodeType: exampleNode,
		parameters: { senderId: '={{ $json.id }}' },
		credentials: ctx.credentials,
		items: items.map((json) => ({ json })),
		continueOnFail,
	});

const senderCalls = () =>
	ctx.sandbox.requests.filter((request) => request.path.includes('/chatapp/senders/'));

it('sends one request per item to the path its values fill (URL-encoded) and outputs what the descriptor shapes, paired', async () => {
	const plain = ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'A', address: '+15550100101', accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.approveSender(plain.id, { templateNamespace: 'ns-acme' });
	const pending = ctx.sandbox.seedSender({
		providerId: 'p',
		name: 'B',
		address: '+15550100102',
		accountTier: 1,
	});
	const result = await run([{ id: plain.id }, { id: pending.id }, { id: 'a/b?c' }], true);
	const output = outputOf(result);
	expect(output.map((item) => [item.json, item.pairedItem])).toEqual([
		[{ senderId: plain.id, templateNamespace: 'ns-acme' }, { item: 0 }],
		[{ senderId: pending.id, templateNamespace: null }, { item: 1 }],
		[expect.objectContaining({ error: expect.stringContaining('[HTTP 404]') }), { item: 2 }],
	]);
	expect(senderCalls().map((request) => `${request.method} ${request.path}`)).toEqual([
		`GET /messaging/chatapp/senders/${plain.id}`,
		`GET /messaging/chatapp/senders/${pending.id}`,
		'GET /messaging/chatapp/senders/a%2Fb%3Fc',
	]);
});

it('checks every item before the first request: a bad item stops the run with the field named by its label, nothing sent', async () => {
	const sender = ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'A', address: '+15550100103', accountTier: 1 },
		{ active: true },
	);
	const result = await run([{ id: sender.id }, { id: '..' }]);
	expect(result.error?.message).toBe('Invalid "Sender ID" in item 1: ".." is not a sender ID');
	expect(senderCalls()).toHaveLength(0);
});

it('docs/architecture.md shows the example exactly as the test builds it', () => {
	const root = join(__dirname, '..', '..');
	const source = readFileSync(join(__dirname, 'fixtures', 'example-operation.tsx'), 'utf8');
	const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
	const operation = source.slice(
		source.indexOf("/** The operation's fields"),
		source.lastIndexOf('};') + 2,
	);
	expect(operation.length).toBeGreaterThan(500);
	expect(doc).toContain(operation);
});

describe('fillTemplate', () => {
	it('fills each {name} from the values, through the encoder', () => {
		expect(
			fillTemplate(
				'/lists/{listId}/subscribers/{id}',
				{ listId: '4 2', id: 'a/b' },
				encodeURIComponent,
			),
		).toBe('/lists/4%202/subscribers/a%2Fb');
		expect(fillTemplate('delete {id} of {n}', { id: 'x', n: 3 })).toBe('delete x of 3');
	});

	it('refuses a name the values do not hold as text (a mistake of the descriptor, never a request to a wrong path)', () => {
		expect(() => fillTemplate('/lists/{listId}', {})).toThrow('"listId"');
		expect(() => fillTemplate('/lists/{listId}', { listId: { a: 1 } })).toThrow('"listId"');
	});
});
