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
	 * The Bearer header, added by n8n to every request of the nodes (and of an HTTP Request node
	 * using this credential). A function rather than the generic `=Bearer {{$credentials.apiKey}}`
	 * form: n8n 2.40 evaluates that expression in its sandboxed expression engine for every
	 * request, which a bulk run of hundreds of requests feels. A field,
	 * not a method: n8n's editor offers a credential under HTTP Request › Predefined Credential Type
	 * only when its type data has `authenticate`, and that data copies the object's own fields.
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
	 * n8n's **Test** button: one read-only request of the spec that answers 2xx for a good key, the
	 * wallet template list (limit=1), sent by n8n's own request helper (proxy, credential) without
	 * following redirects, so the key stays at the address given. n8n allows one request here, so
	 * the Lists and Messaging base URLs are not part of the test: a wrong one shows on the node's
	 * first request, whose error names the credential's base URL (README, Credentials). A test of
	 * all three URLs would need the credential-test code path, which n8n gives only its deprecated
	 * `request` helper, refused by n8n's community-package scanner.
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
