/**
 * The callback secret credential: the trigger's URL carries a token derived from it.
 *
 * Encrypted by n8n, out of workflow JSON and execution data (README, Audience Messaging Trigger).
 */
import type { ICredentialType, INodeProperties } from 'n8n-workflow';

export class AudienceMessagingCallbackApi implements ICredentialType {
	name = 'audienceMessagingCallbackApi';

	displayName = 'Audience Messaging Callbacks API';

	documentationUrl =
		'https://github.com/n8n-nodes-audience-messaging/n8n-nodes-audience-messaging#audience-messaging-trigger';

	icon = {
		light: 'file:../nodes/AudienceMessaging/audienceMessaging.svg',
		dark: 'file:../nodes/AudienceMessaging/audienceMessaging.dark.svg',
	} as const;

	properties: INodeProperties[] = [
		{
			displayName: 'Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. 3f9c1a7e5b2d4c6a8e0f1b3d5c7a9e2f',
			hint: '16 to 128 characters: letters, digits, - or _. Test checks it and shows the token.',
			description:
				'Any random value, e.g. the output of openssl rand -hex 24. Use the same credential in the trigger and in Message › Send.',
		},
	];
}
