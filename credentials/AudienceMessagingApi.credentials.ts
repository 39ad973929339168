/** The Audience Messaging API credential: key, base URLs, timeout, Bearer header, Test. */
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class AudienceMessagingApi implements ICredentialType {
	name = 'audienceMessagingApi';

	displayName = 'Audience Messaging API';

	documentationUrl =
		'https://github.com/n8n-nodes-audience-messaging/n8n-nodes-audience-messaging#credentials';

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
			placeholder: 'e.g. https://api.example.com/lists/v3',
			description:
				'Base URL of the list and subscriber endpoints; it ends with the version segment v3',
		},
		{
			displayName: 'Wallet Base URL',
			name: 'walletBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com/wallet',
			description: 'Base URL of the wallet endpoints, without the /v2 that starts their paths',
		},
		{
			displayName: 'Messaging Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://api.example.com/messaging',
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
	 * A function, not `=Bearer {{$credentials.apiKey}}`: n8n evaluates that expression in its
	 * sandbox for every request, which a bulk run feels. A field, not a method: HTTP Request offers
	 * the credential as a Predefined Credential Type only when its type data (own fields) has it.
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
		},
	});

	/**
	 * n8n's Test: one read-only request (wallet templates, limit=1), no redirects followed, so the
	 * key stays at the address given. n8n allows one request, so the Lists and Messaging URLs go
	 * untested: a wrong one shows in the node's first error, naming the URL (README, Credentials).
	 * Testing all three needs the deprecated `request` helper, which n8n's package scanner refuses.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.walletBaseUrl ?? "").trim().replace(/\\/+$/, "") }}',
			url: '/v2/wallet/templates',
			method: 'GET',
			qs: { limit: 1 },
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
		},
		rules: [
			...[401, 403].map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The platform refused the API key at the Wallet Base URL (HTTP ${status}): check that the key is correct, active and not expired`,
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						"The Wallet Base URL does not answer like the platform's API (HTTP 404): it is the address before /v2/wallet/templates",
				},
			},
			...[301, 302, 303, 307, 308].map((status) => ({
				type: 'responseCode' as const,
				properties: {
					value: status,
					message: `The Wallet Base URL redirects elsewhere (HTTP ${status}): put the final address in the credential`,
				},
			})),
		],
	};
}
