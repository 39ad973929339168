import type {
	IAuthenticateGeneric,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class AudienceMessagingApi implements ICredentialType {
	name = 'audienceMessagingApi';

	displayName = 'Audience Messaging API';

	documentationUrl = 'https://github.com/n8n-nodes-audience-messaging/n8n-nodes-audience-messaging#credentials';

	icon = {
		light: 'file:../nodes/AudienceMessaging/audienceMessaging.svg',
		dark: 'file:../nodes/AudienceMessaging/audienceMessaging.dark.svg',
	} as const;

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Copy it from the Preferences section, API tab, of the platform web application. Sent as "Authorization: Bearer &lt;key&gt;".',
		},
		{
			displayName: 'Lists Base URL',
			name: 'listsBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/lists/v3',
			description: 'Base URL of the list and subscriber endpoints; it ends with the version segment v3',
		},
		{
			displayName: 'Wallet Base URL',
			name: 'walletBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/wallet',
			description: 'Base URL of the wallet endpoints, without the /v2 that starts their paths',
		},
		{
			displayName: 'Messaging Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/messaging',
			description: 'Base URL of the chat-app and blacklist endpoints',
		},
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 3600 },
			default: 60,
			description: 'How long a request may wait for the platform to answer before it fails',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// No `test` request here: n8n would prefer it to the node's credentialTest, which checks all three base URLs.
}
