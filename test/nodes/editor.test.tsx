/**
 * What the editor shows. The node's subtitle as n8n's editor computes it (the expression evaluated
 * against the node's parameters, defaults applied, as `getNodeSubtitle` does): nine Send nodes in
 * one workflow must not all read "send: message".
 */
import { Workflow } from 'n8n-workflow';
import type { INode, INodeParameters, INodeTypes } from 'n8n-workflow';

import { AudienceMessaging } from '../../nodes/AudienceMessaging/AudienceMessaging.node';

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
