/**
 * Message › Send's trigger fields as n8n's editor and runner see them: the Trigger Production URL
 * and the Callbacks credential for Send Status Events to a Trigger at Yes, or at No, Only Share
 * Pace Through It, and the credential active (n8n keeps only active credentials).
 */
import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AudienceMessaging } from '../../../../../../../../nodes/AudienceMessaging/AudienceMessaging.node';

const description = new AudienceMessaging().description;

/** What n8n shows, and keeps active, for a node with these parameters. */
function shown(parameters: INodeParameters) {
	const node = { parameters, typeVersion: 2 } as unknown as INode;
	const visible = description.properties.filter(
		(property) =>
			property.name === 'triggerUrl' &&
			NodeHelpers.displayParameter(parameters, property, node, description),
	);
	return {
		triggerUrl: visible.length,
		credentials: [...(NodeHelpers.getActiveCredentialTypes(node, description) ?? [])].sort(),
	};
}

const send = { resource: 'message', operation: 'send' };
const both = ['audienceMessagingApi', 'audienceMessagingCallbackApi'];

it.each<[string, INodeParameters, { triggerUrl: number; credentials: string[] }]>([
	['Yes', { ...send, sendToTrigger: true }, { triggerUrl: 1, credentials: both }],
	[
		'No, Only Share Pace Through It',
		{ ...send, sendToTrigger: 'paceOnly', options: { sharePace: true } },
		{ triggerUrl: 1, credentials: both },
	],
	[
		'No',
		{ ...send, sendToTrigger: false },
		{ triggerUrl: 0, credentials: ['audienceMessagingApi'] },
	],
	['not set', { ...send }, { triggerUrl: 0, credentials: ['audienceMessagingApi'] }],
	[
		'another operation',
		{ resource: 'message', operation: 'sendAndWait', sendToTrigger: true },
		{ triggerUrl: 0, credentials: ['audienceMessagingApi'] },
	],
])('%s', (_name, parameters, expected) => {
	expect(shown(parameters)).toEqual(expected);
});

it("keeps a saved workflow's true and false, and offers the third choice in the editor", () => {
	const field = description.properties.find((property) => property.name === 'sendToTrigger')!;
	expect(field).toMatchObject({ type: 'options', default: false });
	expect(field.options?.map((option) => ('value' in option ? option.value : undefined))).toEqual([
		false,
		'paceOnly',
		true,
	]);
});
