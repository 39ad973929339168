/**
 * What the editor shows. The node's subtitle as n8n's editor computes it (the expression evaluated against the node's
 * parameters, defaults applied, as `getNodeSubtitle` does): nine Send nodes in one workflow must
 * not all read "send: message".
 */
import { Workflow } from 'n8n-workflow';
import type { INode, INodeParameters, INodeTypes } from 'n8n-workflow';

import { AudienceMessaging } from '../../nodes/AudienceMessaging/AudienceMessaging.node';

const nodeType = new AudienceMessaging();
const nodeTypes: INodeTypes = { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) };

function subtitleOf(parameters: INodeParameters): unknown {
	const node: INode = { id: 'n1', name: 'Node', type: 'n8n-nodes-audience-messaging.audienceMessaging', typeVersion: 1, position: [0, 0], parameters };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const withDefaults = workflow.getNode('Node')!;
	return workflow.expression.getSimpleParameterValue(withDefaults, nodeType.description.subtitle!, 'internal', {}, undefined, '');
}

describe('subtitle', () => {
	it('Message › Send names the message type and the recipient', () => {
		expect(subtitleOf({ resource: 'message', operation: 'send', messageType: 'image', to: '+33 6 12 34 56 78' })).toBe('Send image to +33 6 12 34 56 78');
		expect(subtitleOf({ resource: 'message', operation: 'send', to: '+15550100100' })).toBe('Send text to +15550100100');
	});

	it('a recipient given by an expression reads as each item\'s recipient, not as the raw expression', () => {
		expect(subtitleOf({ resource: 'message', operation: 'send', messageType: 'template', to: '={{ $json.phone }}' })).toBe("Send template to each item's recipient");
	});

	it('other operations read "operation: resource"', () => {
		expect(subtitleOf({ resource: 'blacklist', operation: 'check' })).toBe('check: blacklist');
		expect(subtitleOf({ resource: 'subscriber', operation: 'addMany' })).toBe('addMany: subscriber');
	});
});

describe('editor layout', () => {
	it('Wallet Template › Get Many: a sort rule asks for the Field before the Direction', () => {
		const sort = nodeType.description.properties.find((property) => property.name === 'sort' && property.displayOptions?.show?.resource?.includes('walletTemplate'));
		const rule = (sort?.options as Array<{ name: string; values: Array<{ name: string }> }> | undefined)?.find((option) => option.name === 'rule');
		expect(rule?.values.map((value) => value.name)).toEqual(['field', 'direction']);
	});
});
