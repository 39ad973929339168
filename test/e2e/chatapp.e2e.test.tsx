/** Senders and every message type through the installed package in a real n8n. */
import { executeBatch, executeWorkflow, nodeItems } from './n8n-harness';
import {
	API_KEY,
	audienceNode,
	chain,
	codeNode,
	manualTrigger,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(300_000);

const SENDER = '+1 555 010 0100';
const USER = '+33612345678';

const createSender = {
	id: 'amE2eSender1',
	name: 'e2e: create sender',
	nodes: [
		manualTrigger,
		audienceNode('Create Sender', 1, {
			resource: 'sender',
			operation: 'create',
			providerId: 'prov-e2e',
			name: 'ACME',
			address: SENDER,
			accountTier: 1,
		}),
	],
	connections: chain('Start', 'Create Sender'),
};

/** One item per message type, each routed through its own Send node by a Switch on the type. */
const types = [
	'text',
	'image',
	'audio',
	'video',
	'document',
	'contacts',
	'location',
	'interactive',
] as const;
const typeFields: Record<(typeof types)[number], Record<string, unknown>> = {
	text: { text: 'Your order has shipped' },
	image: { mediaUrl: 'https://example.com/media/parcel.jpg' },
	audio: { mediaUrl: 'https://example.com/media/hello.mp3' },
	video: { mediaUrl: 'https://example.com/media/howto.mp4' },
	document: { mediaUrl: 'https://example.com/media/invoice.pdf' },
	contacts: {
		contacts: {
			contact: [
				{
					formattedName: 'ACME Support',
					firstName: 'ACME',
					lastName: 'Support',
					phones: { phone: [{ phone: '+1 555 010 0199', type: 'WORK' }] },
				},
			],
		},
	},
	location: {
		latitude: 40.7128,
		longitude: -74.006,
		locationName: 'ACME Store',
		locationAddress: '1 Main St, New York',
	},
	interactive: {
		bodyText: 'Did your parcel arrive?',
		buttons: {
			button: [
				{ id: 'yes', title: 'Yes' },
				{ id: 'no', title: 'Not yet' },
			],
		},
	},
};
const sendEachType = {
	id: 'amE2eSendAll1',
	name: 'e2e: send every message type',
	nodes: [
		manualTrigger,
		...types.map((type, i) =>
			audienceNode(`Send ${type}`, i + 1, {
				resource: 'message',
				operation: 'send',
				messageType: type,
				from: SENDER,
				to: USER,
				...typeFields[type],
				options: { externalId: `e2e${type}` },
			}),
		),
	],
	connections: chain('Start', ...types.map((type) => `Send ${type}`)),
};

const notActiveYet = {
	id: 'amE2eInactive1',
	name: 'e2e: sender not active',
	nodes: [
		manualTrigger,
		codeNode('Nothing', 1, 'return [{ json: {} }];'),
		audienceNode('Send', 2, {
			resource: 'message',
			operation: 'send',
			messageType: 'text',
			from: '+1 555 010 0777',
			to: USER,
			text: 'hi',
		}),
	],
	connections: chain('Start', 'Nothing', 'Send'),
};

const ctx = usePackageInN8n('am-e2e-chatapp-', () => [createSender, sendEachType, notActiveYet]);

it('creates a sender, which is pending until approved, then sends one message of each type', async () => {
	const created = await executeWorkflow(ctx.folder, createSender.id);
	expect(created.error).toBeUndefined();
	const [sender] = nodeItems(created.runData, 'Create Sender');
	expect(sender.json).toMatchObject({ state: 'PENDING_IMPLEMENTATION', address: '15550100100' });
	expect(String(sender.json.hint)).toContain('48 hours');

	ctx.sandbox.approveSender(String(sender.json.id));
	ctx.sandbox.simulateInbound(USER, '15550100100');
	ctx.sandbox.clearRequests();

	const result = (await executeBatch(ctx.folder, [sendEachType.id]))[sendEachType.id];
	expect(result.error).toBeUndefined();
	for (const type of types) {
		const [item] = nodeItems(result.runData!, `Send ${type}`);
		expect(item.json).toMatchObject({
			status: 'QUEUE',
			type,
			from: '15550100100',
			to: USER,
			externalId: `e2e${type}`,
		});
	}
	const bodies = ctx.sandbox.requests.map((r) => r.body as Record<string, unknown>);
	expect(bodies.map((b) => b.type)).toEqual([...types]);
	expect(bodies[5].contacts).toEqual([
		{
			name: { formatted_name: 'ACME Support', first_name: 'ACME', last_name: 'Support' },
			phones: [{ phone: '+1 555 010 0199', type: 'WORK' }],
		},
	]);
	expect(bodies[7].interactive).toMatchObject({
		action: {
			buttons: [
				{ type: 'reply', reply: { id: 'yes', title: 'Yes' } },
				{ type: 'reply', reply: { id: 'no', title: 'Not yet' } },
			],
		},
	});
	expect(ctx.sandbox.messages()).toHaveLength(8);
	expect(JSON.stringify(result)).not.toContain(API_KEY);
});

it('stops on a sender that is not active, naming the rule', async () => {
	ctx.sandbox.seedSender({
		providerId: 'p',
		name: 'Pending',
		address: '15550100777',
		accountTier: 1,
	});
	const result = await executeWorkflow(ctx.folder, notActiveYet.id);
	expect(result.status).toBe('error');
	expect(result.error?.message).toMatch(/PENDING_IMPLEMENTATION/);
	expect(result.error?.message).toContain('[HTTP 403]');
});
