import type {
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeType,
} from 'n8n-workflow';

import { runNode } from '../helpers/n8n';
import { byId, node, useSandbox } from './context';

const ctx = useSandbox();

/**
 * A copy of the node (its modules loaded again), so a renamed field changes nothing for the
 * other tests: the editor of this copy would show the new name.
 */
async function nodeCopy(): Promise<INodeType> {
	let copy: INodeType | undefined;
	await jest.isolateModulesAsync(async () => {
		const { AudienceMessaging } = await import(
			'../../nodes/AudienceMessaging/AudienceMessaging.node'
		);
		copy = new AudienceMessaging();
	});
	return copy!;
}

/**
 * The field at a path of names (a fixed collection's group included), first of that name whose
 * displayOptions show the resource and operation.
 */
function field(
	properties: INodeProperties[],
	resource: string,
	operation: string,
	path: string[],
): INodeProperties | INodePropertyCollection {
	const shown = (property: INodeProperties) => {
		const show = property.displayOptions?.show ?? {};
		return (
			(!show.resource || show.resource.includes(resource)) &&
			(!show.operation || show.operation.includes(operation))
		);
	};
	let found: INodeProperties | INodePropertyCollection | undefined = properties.find(
		(property) => property.name === path[0] && shown(property),
	);
	for (const name of path.slice(1)) {
		const children: Array<INodeProperties | INodePropertyCollection> =
			found && 'values' in found
				? found.values
				: (((found as INodeProperties | undefined)?.options ?? []) as Array<
						INodeProperties | INodePropertyCollection
					>);
		found = children.find((child) => child.name === name);
	}
	if (!found) throw new Error(`no field ${path.join('.')} in ${resource} › ${operation}`);
	return found;
}

const send = (extra: INodeParameters): INodeParameters => ({
	resource: 'message',
	operation: 'send',
	messageType: 'text',
	from: '+1 555 010 0100',
	to: '+33 6 12 34 56 78',
	text: 'Hi',
	...extra,
});

const cases: Array<{
	title: string;
	path: string[];
	rename: string;
	parameters: INodeParameters;
	before: string;
	after: string;
}> = [
	{
		title: 'a top-level field (Message › Send, Recipient)',
		path: ['to'],
		rename: 'Phone Number of the Recipient',
		parameters: send({ to: 'nope' }),
		before: 'Recipient',
		after: 'Phone Number of the Recipient',
	},
	{
		title: "a fixed collection's value reached through the message schema's path (Buttons › Title)",
		path: ['buttons', 'button', 'title'],
		rename: 'Caption',
		parameters: send({
			messageType: 'interactive',
			bodyText: 'Pick',
			buttons: { button: [{ id: 'yes', title: '' }] },
		}),
		before: 'Buttons › Title',
		after: 'Buttons › Caption',
	},
	{
		title: 'an option found by its own name (Subscriber › Add Many, Options › Batch Size)',
		path: ['options', 'batchSize'],
		rename: 'Rows per Request',
		parameters: {
			resource: 'subscriber',
			operation: 'addMany',
			listId: byId(1),
			source: 'items',
			options: { batchSize: 0 },
		},
		before: 'Options › Batch Size',
		after: 'Options › Rows per Request',
	},
	{
		title: 'a collection holding an option (Sender › Create, Additional Fields › Daily Quota)',
		path: ['additionalFields'],
		rename: 'More Fields',
		parameters: {
			resource: 'sender',
			operation: 'create',
			providerId: 'p',
			name: 'ACME',
			address: '+15550100100',
			accountTier: 1,
			additionalFields: { dailyQuota: 0 },
		},
		before: 'Additional Fields › Daily Quota',
		after: 'More Fields › Daily Quota',
	},
	{
		title: "a pass's field through an alias (Wallet Pass › Create, Fields › Place)",
		path: ['fields'],
		rename: 'Pass Fields',
		parameters: {
			resource: 'walletPass',
			operation: 'create',
			templateSerial: byId('tpl-gold-member'),
			recipientId: 'r',
			fields: { field: [{ place: 'custom', customPlace: '', value: 'v' }] },
		},
		before: 'Fields › Place',
		after: 'Pass Fields › Place',
	},
	{
		title: 'a described operation (List › Get, List)',
		path: ['listId'],
		rename: 'Subscriber List',
		parameters: {
			resource: 'list',
			operation: 'get',
			listId: { __rl: true, mode: 'id', value: '={{ "forty-two" }}' },
		},
		before: 'List',
		after: 'Subscriber List',
	},
	{
		title:
			'a rule across two fields (Message Template › Get Many, Sender ID or Business Account ID)',
		path: ['bizAccountId'],
		rename: 'WABA ID',
		parameters: { resource: 'messageTemplate', operation: 'getMany', senderId: '' },
		before: 'Sender ID or Business Account ID',
		after: 'Sender ID or WABA ID',
	},
];

describe('errors name a field as the node description shows it: no label is written twice', () => {
	it.each(cases)('$title', async ({ path, rename, parameters, before, after }) => {
		const { resource, operation } = parameters as { resource: string; operation: string };
		const original = await runNode({
			nodeType: node,
			parameters,
			credentials: ctx.credentials,
			items: [{ json: { id: 1 } }],
		});
		expect(original.error?.message).toMatch(
			new RegExp(`^Invalid "${before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( #1)?" in item 0: `),
		);

		const copy = await nodeCopy();
		field(copy.description.properties, resource, operation, path).displayName = rename;
		const renamed = await runNode({
			nodeType: copy,
			parameters,
			credentials: ctx.credentials,
			items: [{ json: { id: 1 } }],
		});
		expect(renamed.error?.message).toBe(original.error!.message.replace(`"${before}`, `"${after}`));
		expect(renamed.error?.message).not.toBe(original.error?.message);
		expect(ctx.sandbox.requests).toHaveLength(0);

		// The copy is a copy: the node the other tests use still shows and names the old label.
		expect(
			(field(node.description.properties, resource, operation, path) as { displayName: string })
				.displayName,
		).not.toBe(rename);
	});
});
