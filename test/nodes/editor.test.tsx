/**
 * What the editor shows. The node's subtitle as n8n's editor computes it (the expression evaluated
 * against the node's parameters, defaults applied, as `getNodeSubtitle` does): nine Send nodes in
 * one workflow must not all read "send: message".
 */
import { NodeHelpers, Workflow } from 'n8n-workflow';
import type { INode, INodeParameters, INodeProperties, INodeTypes } from 'n8n-workflow';

import { AudienceMessaging } from '../../nodes/AudienceMessaging/AudienceMessaging.node';
import { RESOURCES as RESOURCE_LIST } from '../../nodes/AudienceMessaging/resources';
import { simplifyField } from '../../nodes/AudienceMessaging/runner/descriptions';
import { resourceOf } from '../../nodes/AudienceMessaging/runner/operation';
import type { Resource } from '../../nodes/AudienceMessaging/runner/operation';

const nodeType = new AudienceMessaging();
const nodeTypes: INodeTypes = {
	getByName: () => nodeType,
	getByNameAndVersion: () => nodeType,
	getKnownTypes: () => ({}),
};

function subtitleOf(parameters: INodeParameters): unknown {
	const node: INode = {
		id: 'n1',
		name: 'Node',
		type: 'n8n-nodes-audience-messaging.audienceMessaging',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const withDefaults = workflow.getNode('Node')!;
	return workflow.expression.getSimpleParameterValue(
		withDefaults,
		nodeType.description.subtitle!,
		'internal',
		{},
		undefined,
		'',
	);
}

describe('subtitle', () => {
	it('Message › Send names the message type, and never the recipient', () => {
		expect(
			subtitleOf({
				resource: 'message',
				operation: 'send',
				messageType: 'image',
				to: '+33 6 12 34 56 78',
			}),
		).toBe('send: image message');
		expect(subtitleOf({ resource: 'message', operation: 'send', to: '+15550100100' })).toBe(
			'send: text message',
		);
		expect(
			subtitleOf({
				resource: 'message',
				operation: 'send',
				messageType: 'location',
				to: '={{ $json.phone }}',
			}),
		).toBe('send: location message');
	});

	it('other operations read "operation: resource"', () => {
		expect(subtitleOf({ resource: 'blacklist', operation: 'check' })).toBe('check: blacklist');
		expect(subtitleOf({ resource: 'subscriber', operation: 'addMany' })).toBe(
			'addMany: subscriber',
		);
		expect(subtitleOf({ resource: 'list', operation: 'create', messageType: 'image' })).toBe(
			'create: list',
		);
	});

	it('is one plain expression: no function, no branch, no recipient', () => {
		const subtitle = nodeType.description.subtitle!;
		expect(subtitle).not.toMatch(/=>|function|try|catch|\?|\bto\b"/);
		expect(subtitle).not.toContain('"to"');
	});
});

describe('editor layout', () => {
	it('Wallet Template › Get Many: a sort rule asks for the Field before the Direction', () => {
		const sort = nodeType.description.properties.find(
			(property) =>
				property.name === 'sort' &&
				property.displayOptions?.show?.resource?.includes('walletTemplate'),
		);
		const rule = (
			sort?.options as Array<{ name: string; values: Array<{ name: string }> }> | undefined
		)?.find((option) => option.name === 'rule');
		expect(rule?.values.map((value) => value.name)).toEqual(['field', 'direction']);
	});
});

/**
 * An operation's resource, operation and fields are named in one place (resourceOf adds the
 * resource and operation to a copy of each field's conditions). Every field of the node's
 * description shows for exactly the operations that list it; a field that names a resource or an
 * operation of its own is refused; the operations' own field objects are left as they are.
 */
const RESOURCES: Record<string, Resource> = Object.fromEntries(
	RESOURCE_LIST.map((resource) => [resource.option.value, resource]),
);

/** The places where the description and the operations' lists disagree (none is right). */
function misplacedFields(properties: INodeProperties[], resources: Record<string, Resource>) {
	const problems: string[] = [];
	const fields = properties.filter(
		(property) => !['resource', 'operation'].includes(property.name),
	);
	const key = (field: INodeProperties) => `${field.name} (${field.displayName})`;
	for (const field of fields) {
		const show = field.displayOptions?.show ?? {};
		if (show.resource?.length !== 1 || !show.operation?.length)
			problems.push(`${key(field)} is not shown for one resource and its operations`);
	}
	for (const [resource, { fieldsOf }] of Object.entries(resources))
		for (const [operation, listed] of Object.entries(fieldsOf)) {
			const shown = fields
				.filter((field) => {
					const show = field.displayOptions?.show ?? {};
					return show.resource?.includes(resource) && show.operation?.includes(operation);
				})
				.map(key)
				.sort();
			const expected = listed.map(key).sort();
			if (JSON.stringify(shown) !== JSON.stringify(expected))
				problems.push(
					`${resource} › ${operation} shows [${shown.join(', ')}], lists [${expected.join(', ')}]`,
				);
		}
	return problems;
}

describe('every field shows for its own resource and operation, named once', () => {
	it('each of the node’s fields shows exactly for the operations that list it, and no operation’s own field names its resource', () => {
		const { properties } = nodeType.description;
		expect(Object.keys(RESOURCES).sort()).toEqual(
			(
				properties.find((property) => property.name === 'resource')!.options as Array<{
					value: string;
				}>
			)
				.map(({ value }) => value)
				.sort(),
		);
		// Every resource's fields are in the description.
		for (const resource of Object.values(RESOURCES))
			for (const field of resource.fields) expect(properties).toContain(field);
		expect(misplacedFields(properties, RESOURCES)).toEqual([]);
		// The operations' own field objects are not the description's, and were left unchanged.
		for (const resource of Object.values(RESOURCES))
			for (const listed of Object.values(resource.fieldsOf))
				for (const field of listed) {
					expect(properties).not.toContain(field);
					expect(field.displayOptions?.show?.resource).toBeUndefined();
				}
	});

	it('the check finds a field shown for another operation, one missing, and a stale condition', () => {
		const { properties } = nodeType.description;
		const moved = properties.map((property) =>
			property.name === 'simplify' && property.displayOptions?.show?.operation?.includes('get')
				? { ...property, displayOptions: { show: { resource: ['list'], operation: ['delete'] } } }
				: property,
		);
		expect(misplacedFields(moved, RESOURCES)).toEqual([
			'list › get shows [listId (List)], lists [listId (List), simplify (Simplify)]',
			'list › delete shows [listId (List), options (Options), simplify (Simplify)], lists [listId (List), options (Options)]',
		]);
		// A field that names its operation itself (or one two resources list) is refused at once.
		const run = RESOURCES.list.executors.get;
		const option = { name: 'Get', value: 'get', action: 'Get a list', description: 'Get a list' };
		expect(() =>
			resourceOf('List', 'list', [
				{
					option,
					fields: [{ ...simplifyField(), displayOptions: { show: { operation: ['delete'] } } }],
					run,
				},
			]),
		).toThrow('The field "simplify" of list › get names a resource or an operation itself');
		// A field two resources list is shown for each, in a copy: the field itself is not changed.
		const shared = simplifyField();
		const before = JSON.stringify(shared);
		const [inList] = resourceOf('List', 'list', [{ option, fields: [shared], run }]).fields;
		const [inSender] = resourceOf('Sender', 'sender', [{ option, fields: [shared], run }]).fields;
		expect(JSON.stringify(shared)).toBe(before);
		expect([inList.displayOptions?.show, inSender.displayOptions?.show]).toEqual([
			{ ...shared.displayOptions?.show, resource: ['list'], operation: ['get'] },
			{ ...shared.displayOptions?.show, resource: ['sender'], operation: ['get'] },
		]);
	});
});

describe('Message › Send › Source in the AI tool variant', () => {
	const shown = (tool: boolean, values: INodeParameters) => {
		const description = {
			...nodeType.description,
			name: tool ? 'audienceMessagingTool' : 'audienceMessaging',
		};
		const parameters = { resource: 'message', operation: 'send', ...values };
		return nodeType.description.properties
			.filter((field) =>
				NodeHelpers.displayParameter(parameters, field, { typeVersion: 1 }, description),
			)
			.map((field) => field.name);
	};

	it('the node offers URL or Binary File; the tool variant only the URL, and says why', () => {
		const node = shown(false, { messageType: 'image' });
		expect(node).toEqual(expect.arrayContaining(['mediaSource', 'mediaUrl']));
		expect(node).not.toContain('toolMediaNotice');
		const binary = shown(false, { messageType: 'image', mediaSource: 'binary' });
		expect(binary).toEqual(expect.arrayContaining(['binaryPropertyName', 'binaryNotice']));
		expect(binary).not.toContain('mediaUrl');
		const tool = shown(true, { messageType: 'image' });
		expect(tool).toEqual(expect.arrayContaining(['mediaUrl', 'toolMediaNotice']));
		expect(tool).not.toContain('mediaSource');
		expect(tool).not.toContain('binaryPropertyName');
		// A text message shows none of them.
		expect(shown(false, { messageType: 'text' })).not.toContain('mediaSource');
	});
});
