import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runAsTool } from '../helpers/n8n';
import type { Sandbox } from '../sandbox';
import { API_KEY, node, useSandbox } from './context';

const ctx = useSandbox();

const SENDER = '15550100100';
const USER = '+33612345678';

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;
const locatorFromAI = (key: string, description: string) => ({
	__rl: true,
	mode: 'id',
	value: fromAI(key, description),
});

interface ToolCase {
	operation: string;
	parameters: INodeParameters;
	/** Seeds what the call needs and gives its arguments. */
	arrange: (sandbox: Sandbox) => IDataObject;
	/** The request the call must send, as "METHOD path". */
	request: string;
	/** Checks the answer the model receives (the node's output items). */
	answer: (items: IDataObject[], sandbox: Sandbox) => void;
}

const activeSender = (sandbox: Sandbox) => {
	const sender = sandbox.seedSender(
		{ providerId: 'prov-1', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	sandbox.simulateInbound(USER, SENDER);
	return sender;
};

// Every operation of the node but List › Create From CSV (a binary file, which an agent cannot hand
// over), each with the values a model decides filled by $fromAI().
const cases: ToolCase[] = [
	{
		operation: 'List › Create',
		parameters: {
			resource: 'list',
			operation: 'create',
			name: fromAI('name', 'the name of the new list'),
			columns: { column: [{ name: 'email', type: 'STRING' }] },
		},
		arrange: () => ({ name: 'Agents' }),
		request: 'POST /lists',
		answer: (items) => expect(items[0]).toMatchObject({ name: 'Agents' }),
	},
	{
		operation: 'List › Get',
		parameters: {
			resource: 'list',
			operation: 'get',
			listId: locatorFromAI('listId', 'the list ID'),
		},
		arrange: (sandbox) => ({ listId: String(sandbox.seedList({ name: 'Known', rows: [] }).id) }),
		request: 'GET /lists/{id}',
		answer: (items) => expect(items[0]).toMatchObject({ name: 'Known' }),
	},
	{
		operation: 'List › Delete',
		parameters: {
			resource: 'list',
			operation: 'delete',
			listId: locatorFromAI('listId', 'the ID of the list to delete'),
		},
		arrange: (sandbox) => ({ listId: String(sandbox.seedList({ name: 'Old', rows: [] }).id) }),
		request: 'DELETE /lists/{id}',
		answer: (items, sandbox) => {
			expect(items[0]).toMatchObject({ deleted: true });
			expect(sandbox.allLists()).toHaveLength(0);
		},
	},
	{
		operation: 'Subscriber › Add Many',
		parameters: {
			resource: 'subscriber',
			operation: 'addMany',
			listId: locatorFromAI('listId', 'the list ID'),
			source: 'json',
			subscribers: fromAI(
				'subscribers',
				'the subscribers, an array of objects keyed by column',
				'json',
			),
		},
		arrange: (sandbox) => ({
			listId: String(sandbox.seedList({ name: 'L', rows: [] }).id),
			subscribers: [{ email: 'ada@example.com' }, { email: 'alan@example.com' }],
		}),
		request: 'POST /lists/{id}/subscribers/bulk',
		answer: (items, sandbox) => {
			expect(items[0]).toMatchObject({ subscriberAdded: 2 });
			expect(
				sandbox.allLists()[0] &&
					sandbox.listSubscribers(sandbox.allLists()[0].id)?.map((row) => row.email),
			).toEqual(['ada@example.com', 'alan@example.com']);
		},
	},
	{
		operation: 'Subscriber › Get Many',
		parameters: {
			resource: 'subscriber',
			operation: 'getMany',
			listId: locatorFromAI('listId', 'the list ID'),
			returnAll: false,
			limit: 2,
		},
		arrange: (sandbox) => ({
			listId: String(
				sandbox.seedList({
					name: 'L',
					rows: [{ email: 'a@x.io' }, { email: 'b@x.io' }, { email: 'c@x.io' }],
				}).id,
			),
		}),
		request: 'GET /lists/{id}/subscribers',
		answer: (items) => expect(items.map((item) => item.email)).toEqual(['a@x.io', 'b@x.io']),
	},
	{
		operation: 'Subscriber › Delete',
		parameters: {
			resource: 'subscriber',
			operation: 'delete',
			listId: locatorFromAI('listId', 'the list ID'),
			subscriberId: fromAI('subscriberId', 'the subscriber ID'),
		},
		arrange: (sandbox) => {
			const list = sandbox.seedList({ name: 'L', rows: [{ email: 'a@x.io' }] });
			return {
				listId: String(list.id),
				subscriberId: String(sandbox.listSubscribers(list.id)![0].id),
			};
		},
		request: 'DELETE /lists/{id}/subscribers/{id}',
		answer: (items, sandbox) => {
			expect(items[0]).toMatchObject({ deleted: true });
			expect(sandbox.listSubscribers(sandbox.allLists()[0].id)).toHaveLength(0);
		},
	},
	{
		operation: 'Wallet Template › Get Many',
		parameters: {
			resource: 'walletTemplate',
			operation: 'getMany',
			returnAll: false,
			limit: fromAI('limit', 'how many templates', 'number'),
		},
		arrange: () => ({ limit: 1 }),
		request: 'GET /v2/wallet/templates',
		answer: (items) =>
			expect(items).toEqual([expect.objectContaining({ serial: 'tpl-gold-member' })]),
	},
	{
		operation: 'Wallet Pass › Create',
		parameters: {
			resource: 'walletPass',
			operation: 'create',
			templateSerial: { __rl: true, mode: 'id', value: 'tpl-gold-member' },
			recipientId: fromAI('recipientId', 'the member e-mail address'),
		},
		arrange: () => ({ recipientId: 'ada@example.com' }),
		request: 'POST /v2/wallet/templates/tpl-gold-member/passes/batch',
		answer: (items) =>
			expect(items[0]).toMatchObject({
				recipientId: 'ada@example.com',
				templateSerial: 'tpl-gold-member',
				url: expect.stringMatching(/^https?:\/\//),
			}),
	},
	{
		operation: 'Sender › Create',
		parameters: {
			resource: 'sender',
			operation: 'create',
			providerId: 'prov-1',
			name: fromAI('name', 'the account name'),
			address: '+1 555 010 0199',
			accountTier: 1,
		},
		arrange: () => ({ name: 'ACME Support' }),
		request: 'POST /chatapp/senders',
		answer: (items) =>
			expect(items[0]).toMatchObject({ name: 'ACME Support', state: 'PENDING_IMPLEMENTATION' }),
	},
	{
		operation: 'Sender › Get',
		parameters: {
			resource: 'sender',
			operation: 'get',
			senderId: fromAI('senderId', 'the sender ID'),
		},
		arrange: (sandbox) => ({ senderId: activeSender(sandbox).id }),
		request: 'GET /chatapp/senders/{id}',
		answer: (items) => expect(items[0]).toMatchObject({ name: 'ACME', state: 'ACTIVE' }),
	},
	{
		operation: 'Message Template › Get Many',
		parameters: {
			resource: 'messageTemplate',
			operation: 'getMany',
			senderId: fromAI('senderId', 'the sender ID'),
			returnAll: false,
			limit: 10,
		},
		arrange: (sandbox) => {
			const sender = activeSender(sandbox);
			sandbox.seedMessageTemplate({
				name: 'order_shipped',
				category: 'Shipping Update',
				language: 'en',
				body: 'Order {{ORDER}} shipped',
				senderId: sender.id,
			});
			return { senderId: sender.id };
		},
		request: 'GET /chatapp/templates/',
		answer: (items) => expect(items.map((item) => item.name)).toEqual(['order_shipped']),
	},
	{
		operation: 'Message › Send',
		parameters: {
			resource: 'message',
			operation: 'send',
			messageType: 'text',
			from: '+1 555 010 0100',
			to: fromAI('to', 'the recipient phone number'),
			text: fromAI('text', 'the message'),
		},
		arrange: (sandbox) => {
			activeSender(sandbox);
			return { to: '+33 6 12 34 56 78', text: 'Your order shipped' };
		},
		request: 'POST /chatapp/messages',
		answer: (items, sandbox) => {
			expect(items[0]).toMatchObject({ to: USER, type: 'text' });
			expect(sandbox.messages()[0].request).toMatchObject({ to: USER, body: 'Your order shipped' });
		},
	},
	{
		operation: 'Blacklist › Add',
		parameters: {
			resource: 'blacklist',
			operation: 'add',
			channel: 'SMS',
			from: 'ACME',
			to: fromAI('to', 'the phone number to blacklist'),
		},
		arrange: () => ({ to: USER }),
		request: 'POST /subscribers',
		answer: (_items, sandbox) => expect(sandbox.isBlacklisted('ACME', 'SMS', USER)).toBe(true),
	},
	{
		operation: 'Blacklist › Check',
		parameters: {
			resource: 'blacklist',
			operation: 'check',
			channel: 'SMS',
			from: 'ACME',
			to: fromAI('to', 'the phone number to look up'),
		},
		arrange: (sandbox) => {
			sandbox.seedBlacklist({ from: 'ACME', type: 'SMS', to: USER, reason: 'UNSUBSCRIBED' });
			return { to: USER };
		},
		request: 'GET /subscribers',
		answer: (items) => expect(items[0]).toMatchObject({ blacklisted: true, to: USER }),
	},
];

describe('every operation as an AI agent tool: one call, one request, the answer the model receives', () => {
	it.each([
		[
			'List › Create From CSV',
			{
				resource: 'list',
				operation: 'createFromCsv',
				name: fromAI('name', 'the name of the new list'),
			},
		],
		[
			'Subscriber › Add Many from a CSV file',
			{
				resource: 'subscriber',
				operation: 'addMany',
				listId: locatorFromAI('listId', 'the list ID'),
				source: 'csv',
			},
		],
	])(
		'%s answers that a tool call cannot hand over a file, and what to use instead, sending nothing',
		async (_operation, parameters) => {
			const args = parameters.resource === 'list' ? { name: 'From a file' } : { listId: '1' };
			const { calls } = await runAsTool({
				nodeType: node,
				credentials: ctx.credentials,
				parameters: parameters as INodeParameters,
				calls: [args],
			});
			expect(JSON.parse(calls[0].result!)).toEqual([
				{
					error:
						'This operation uploads a CSV file from an earlier node, which a tool call cannot hand over.',
					description:
						'Nothing was sent. To create a list with its subscribers, use List › Create with Rows (JSON); to add subscribers, use Subscriber › Add Many with Input Data JSON.',
				},
			]);
			expect(ctx.sandbox.requests).toHaveLength(0);
		},
	);

	it('Message › Send and Wait for Response answers that a tool call cannot wait for a person, and what to use instead, sending nothing', async () => {
		const { calls } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: {
				resource: 'message',
				operation: 'sendAndWait',
				from: '+15550100100',
				to: fromAI('to', 'the recipient'),
				message: 'Publish?',
			},
			calls: [{ to: '+33612345678' }],
		});
		expect(JSON.parse(calls[0].result!)).toEqual([
			{
				error: "Send and Wait for Response waits for a person's answer, which a tool call cannot.",
				description:
					"Nothing was sent. To have a person approve the agent's tool calls, connect them to the agent through Audience Messaging's human review step; to send a message, use Message › Send.",
			},
		]);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('covers every operation of the node (List › Create From CSV and Send and Wait for Response above)', () => {
		const operations = node.description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options ?? []).map(
					(option) =>
						`${property.displayOptions?.show?.resource?.[0]}.${'value' in option ? String(option.value) : ''}`,
				),
			);
		const tested = cases.map(
			({ parameters }) => `${String(parameters.resource)}.${String(parameters.operation)}`,
		);
		expect(operations.filter((operation) => !tested.includes(operation))).toEqual([
			'list.createFromCsv',
			'message.sendAndWait',
		]);
	});

	it.each(cases)('$operation', async ({ operation, parameters, arrange, request, answer }) => {
		const args = arrange(ctx.sandbox);
		const { tool, calls, error } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters,
			calls: [args],
		});
		expect(error).toBeUndefined();
		// The model reads what the tool does from its description (n8n's: the operation's action); a
		// delete says it deletes.
		expect(tool.description).toMatch(/ in Audience Messaging$/);
		if (operation.endsWith('Delete')) expect(tool.description).toMatch(/^Delete /);
		expect(Object.keys((tool.schema as { shape: object }).shape).sort()).toEqual(
			Object.keys(args).sort(),
		);
		expect(calls[0].error).toBeUndefined();
		expect(calls[0].result).not.toContain(API_KEY);
		// The request, its IDs written {id}, under whatever path prefix the base URL has.
		const sent = ctx.sandbox.requests.map(
			(recorded) =>
				`${recorded.method} ${recorded.path.replace(/\/(\d+|snd_[\w-]+|[0-9a-f-]{8,})(?=\/|$)/g, '/{id}')}`,
		);
		expect(sent).toHaveLength(1);
		const [method, path] = request.split(' ');
		expect(sent[0].startsWith(`${method} `) && sent[0].endsWith(path)).toBe(true);
		answer(JSON.parse(calls[0].result!) as IDataObject[], ctx.sandbox);
	});
});
