import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	CALLBACK_MAX_BYTES,
	CALLBACK_SECRET_PATTERN,
	CALLBACK_STATUSES,
	CallbackRejection,
	normaliseEvent,
	parseCallbackBody,
	secretMatches,
} from '../../src/callbacks';

const WEBHOOK_PATH = 'callbacks';

type RawRequest = ReturnType<IWebhookFunctions['getRequestObject']> & { rawBody?: Buffer; readRawBody?: () => Promise<void> };

export class AudienceMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Audience Messaging Trigger',
		name: 'audienceMessagingTrigger',
		icon: { light: 'file:audienceMessaging.svg', dark: 'file:audienceMessaging.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"] === "any" ? "Any status" : $parameter["statuses"].join(", ")}}',
		description: 'Starts the workflow when the platform posts a status event of a chat-app message (sent with this URL as callback)',
		defaults: { name: 'Audience Messaging Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// n8n's own generic credentials, as its Webhook node uses them.
			// eslint-disable-next-line n8n-nodes-base/node-class-description-credentials-name-unsuffixed
			{ name: 'httpBasicAuth', required: true, displayOptions: { show: { authentication: ['basicAuth'] } } },
			// eslint-disable-next-line n8n-nodes-base/node-class-description-credentials-name-unsuffixed
			{ name: 'httpHeaderAuth', required: true, displayOptions: { show: { authentication: ['headerAuth'] } } },
		],
		webhooks: [
			{
				// The URL users paste into Send Message > Callback URLs: the secret is part of it.
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: `={{"${WEBHOOK_PATH}/" + $parameter["secret"]}}`,
			},
			{
				// Catches the same path with any other secret, so a wrong one is answered 401 rather than
				// ignored. n8n types webhook names as 'default' | 'setup'; this one has no lifecycle methods.
				name: 'setup',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: `${WEBHOOK_PATH}/:secret`,
				// n8n keys dynamic paths by the node's webhook ID itself, so this path must not repeat it.
				isFullPath: true,
				ndvHideUrl: true,
			},
		],
		properties: [
			{
				displayName:
					'Paste this node\'s Production URL (shown above, secret included) into the Callback URLs option of Audience Messaging > Message > Send, then publish the workflow. The platform does not sign callbacks: the secret in the URL is what protects this endpoint.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Secret',
				name: 'secret',
				type: 'string',
				typeOptions: { password: true },
				required: true,
				default: '',
				placeholder: 'e.g. 3f9c1a7e5b2d4c6a8e0f1b3d5c7a9e2f',
				description: 'At least 16 letters, digits, - or _; part of the callback URL. Any random value works, for example the output of: openssl rand -hex 24.',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'options',
				default: 'any',
				options: [
					{ name: 'Any Status', value: 'any', description: 'Every event, including statuses the platform may add later' },
					{ name: 'Only Selected Statuses', value: 'selected' },
				],
			},
			{
				displayName: 'Statuses',
				name: 'statuses',
				type: 'multiOptions',
				default: [],
				description: 'Start the workflow only for these statuses; other events are acknowledged and dropped',
				displayOptions: { show: { events: ['selected'] } },
				options: CALLBACK_STATUSES.map((status) => ({ name: status, value: status })),
			},
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				default: 'none',
				description: 'Extra check on top of the secret, when the callback URL carries credentials or a proxy adds a header',
				options: [
					{ name: 'Basic Auth', value: 'basicAuth' },
					{ name: 'Header Auth', value: 'headerAuth' },
					{ name: 'None', value: 'none' },
				],
			},
			{
				// n8n does not parse the body of a version-1 webhook node that asks for binary data, so this node reads and checks it itself.
				displayName: 'Raw Body',
				name: 'options',
				type: 'hidden',
				default: { binaryData: true },
			},
		],
	};

	webhookMethods = {
		default: {
			// The platform has no registration call: the "registration" is the secret check, done when the workflow is published.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const data = this.getWorkflowStaticData('node');
				return data.secretChecked === this.getNodeParameter('secret');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const secret = this.getNodeParameter('secret') as string;
				if (!CALLBACK_SECRET_PATTERN.test(secret)) {
					throw new NodeOperationError(this.getNode(), 'The Secret must be 16 to 128 letters, digits, - or _', {
						description: 'It is part of the callback URL and is all that protects it, so it must not be guessable.',
					});
				}
				this.getWorkflowStaticData('node').secretChecked = secret;
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				delete this.getWorkflowStaticData('node').secretChecked;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as RawRequest;
		const response = this.getResponseObject();
		const refuse = (status: number, message: string, headers: Record<string, string> = {}): IWebhookResponseData => {
			response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
			response.end(JSON.stringify({ error: message }));
			return { noWebhookResponse: true };
		};

		const secret = this.getNodeParameter('secret') as string;
		const given = this.getWebhookName() === 'default' ? secret : String((this.getParamsData() as { secret?: string }).secret ?? '');
		if (!CALLBACK_SECRET_PATTERN.test(secret) || !secretMatches(given, secret)) return refuse(401, 'Unknown callback secret');
		if (!(await authorised(this, request))) return refuse(401, 'Authorization failed', { 'WWW-Authenticate': 'Basic realm="Audience Messaging callbacks"' });

		const declaredLength = Number(request.headers['content-length']);
		if (Number.isFinite(declaredLength) && declaredLength > CALLBACK_MAX_BYTES) return refuse(413, `Callback body over ${CALLBACK_MAX_BYTES} bytes`);
		let events: Array<Record<string, unknown>>;
		try {
			if (!request.rawBody && request.readRawBody) await request.readRawBody();
			events = parseCallbackBody(request.rawBody ?? (request.body ? Buffer.from(JSON.stringify(request.body)) : undefined));
		} catch (error) {
			if (error instanceof CallbackRejection) return refuse(error.httpStatus, error.message);
			throw error;
		}

		const wanted = this.getNodeParameter('events') === 'any' ? undefined : new Set(this.getNodeParameter('statuses', []) as string[]);
		const items = events.map(normaliseEvent).filter((event) => !wanted || wanted.has(String(event.status)));
		if (items.length === 0) {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify({ message: 'Event received; its status is not one this workflow starts on' }));
			return { noWebhookResponse: true };
		}
		return { workflowData: [items.map((json) => ({ json: json as IDataObject }))] };
	}
}

/** The optional Basic or Header authentication, compared in constant time. */
async function authorised(context: IWebhookFunctions, request: RawRequest): Promise<boolean> {
	const authentication = context.getNodeParameter('authentication') as string;
	if (authentication === 'none') return true;
	let credentials: ICredentialDataDecryptedObject;
	try {
		credentials = await context.getCredentials(authentication === 'basicAuth' ? 'httpBasicAuth' : 'httpHeaderAuth');
	} catch {
		return false;
	}
	if (authentication === 'basicAuth') {
		const expected = `Basic ${Buffer.from(`${String(credentials.user ?? '')}:${String(credentials.password ?? '')}`).toString('base64')}`;
		return secretMatches(String(request.headers.authorization ?? ''), expected);
	}
	const name = String(credentials.name ?? '').toLowerCase();
	return !!name && secretMatches(String(request.headers[name] ?? ''), String(credentials.value ?? ''));
}
