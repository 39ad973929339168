import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The secret that protects the Audience Messaging Trigger's callback URL. Kept in n8n's
 * encrypted credential store, so it appears neither in workflow JSON nor in execution data;
 * the URL carries a token derived from it (see README, Audience Messaging Trigger).
 */
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
