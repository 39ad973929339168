import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
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

	/**
	 * The Bearer header, added by n8n to every request of the nodes (and of an HTTP Request node
	 * using this credential). A function rather than the generic `=Bearer {{$credentials.apiKey}}`
	 * form: n8n 2.40 evaluates that expression in its sandboxed expression engine for every
	 * request (about 1 ms each, measured), which a bulk run of hundreds of requests feels.
	 */
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		return { ...requestOptions, headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey ?? '')}` } };
	}

	// No `test` request here: n8n would prefer it to the node's credentialTest, which checks all three base URLs.
}
