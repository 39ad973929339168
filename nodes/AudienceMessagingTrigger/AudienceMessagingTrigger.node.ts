/** Audience Messaging Trigger: the platform's status callbacks, and Share Pace's turns. */
import type {
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
	CALLBACK_TOKEN_PARAMETER,
	CALLBACK_SECRET_RULE,
	audienceMessagingCallbackTest,
	callbackToken,
	normaliseEvent,
	parseCallbackBody,
	secretMatches,
} from '../../src/platform/callbacks';
import { RecentEvents } from '../../src/platform/callback-repeats';
import { RequestRejection } from '../../src/base/rejection';
import { readBodyWithin } from '../../src/platform/request-body';
import type { WebhookRequest } from '../../src/platform/request-body';
import { redacted } from '../../src/base/secrets';
import { PACE_MAX_BYTES, PACE_WEBHOOK_PATH } from '../../src/pace/board';
import { PACE_WEBHOOK, answerPace } from './pace-webhook';
import { triggerFields } from './fields';
import { callbackSecret, keptCallbackSecret } from './secret';

const WEBHOOK_PATH = 'callbacks';
const CALLBACK_TOO_LARGE = `Callback body over ${CALLBACK_MAX_BYTES} bytes`;
/** The events this process started executions for lately, over all workflows. */
const recentEvents = new RecentEvents();

export class AudienceMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Audience Messaging Trigger',
		name: 'audienceMessagingTrigger',
		icon: { light: 'file:audienceMessaging.svg', dark: 'file:audienceMessaging.dark.svg' },
		group: ['trigger'],
		// 2: n8n reads and parses a JSON body itself (up to its payload limit), with no expression
		// per request; 1, which asks n8n for the body unread, goes on working (docs/operations.md).
		version: [1, 2],
		defaultVersion: 2,
		subtitle:
			'={{$parameter["events"] === "any" ? "Any status" : $parameter["statuses"].join(", ")}}',
		description:
			'Starts a workflow when a chat-app message sent with Audience Messaging changes status: queued, sent, delivered, read or refused',
		defaults: { name: 'Audience Messaging Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			// The name as a literal: n8n's community-node checks read it from here.
			{
				name: 'audienceMessagingCallbackApi',
				required: true,
				testedBy: 'audienceMessagingCallbackTest',
			},
			// No Basic/Header auth on top: the token authenticates each callback, the platform adds
			// no header to callbacks, and community rules forbid reusing n8n's own credentials.
		],
		webhooks: [
			{
				// A fixed path: the token travels in the query string, which n8n does not log.
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty: n8n answers with webhook()'s webhookResponse once the execution is queued.
				responseData: '',
				path: WEBHOOK_PATH,
			},
			{
				// Share Pace's turns (src/pace/board.ts), answered here, no execution: no URL to
				// paste. n8n takes only "default" or "setup" (its Form Trigger's page is "setup").
				name: PACE_WEBHOOK,
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: PACE_WEBHOOK_PATH,
				ndvHideUrl: true,
			},
		],
		properties: triggerFields,
	};

	methods = {
		credentialTest: { audienceMessagingCallbackTest },
	};

	webhookMethods = {
		default: {
			// The platform has no registration call: publishing checks the statuses and secret.
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const statuses = this.getNodeParameter('statuses', []) as unknown;
				if (
					this.getNodeParameter('events', 'any') === 'selected' &&
					(!Array.isArray(statuses) || statuses.length === 0)
				) {
					throw new NodeOperationError(this.getNode(), 'No status selected', {
						description:
							'Pick at least one status under Statuses, or choose Any Status: with none, every event would be dropped.',
					});
				}
				if (!(await callbackSecret(this))) {
					throw new NodeOperationError(this.getNode(), CALLBACK_SECRET_RULE, {
						description:
							'Fix the secret in the Audience Messaging Callbacks credential: the token derived from it is all that protects the callback URL.',
					});
				}
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as WebhookRequest;
		const response = this.getResponseObject();
		const refuse = (status: number, message: string): IWebhookResponseData => {
			// A refused body may be left unread (401, 413): the connection is closed, not drained.
			const close = status === 401 || status === 413 ? { Connection: 'close' } : {};
			response.writeHead(status, { 'Content-Type': 'application/json', ...close });
			response.end(JSON.stringify({ error: message }));
			return { noWebhookResponse: true };
		};

		const secret = await keptCallbackSecret(this);
		const given = (this.getQueryData() as IDataObject)[CALLBACK_TOKEN_PARAMETER];
		const declaredLength = Number(request.headers['content-length']);
		// The body read up to the webhook's limit only (readBodyWithin), chunked or compressed too.
		const pace = this.getWebhookName() === PACE_WEBHOOK;
		const limit = pace ? PACE_MAX_BYTES : CALLBACK_MAX_BYTES;
		const tooLarge = pace ? `Pace request body over ${limit} bytes` : CALLBACK_TOO_LARGE;
		const rawBody = async () => await readBodyWithin(request, limit, tooLarge);

		if (pace) return await answerPace(this, { secret, declaredLength, rawBody, refuse, response });

		if (!secret || typeof given !== 'string' || !secretMatches(given, callbackToken(secret)))
			return refuse(401, 'Unknown callback token');

		if (Number.isFinite(declaredLength) && declaredLength > CALLBACK_MAX_BYTES)
			return refuse(413, CALLBACK_TOO_LARGE);
		let events: Array<Record<string, unknown>>;
		try {
			events = parseCallbackBody(await rawBody());
		} catch (error) {
			if (error instanceof RequestRejection) return refuse(error.httpStatus, error.message);
			throw error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.getNode(), error as Error);
		}

		const wanted =
			this.getNodeParameter('events') === 'any'
				? undefined
				: new Set(this.getNodeParameter('statuses', []) as string[]);
		// The platform echoes the callback URL in its events (`callback`): the token is redacted.
		const selected = redacted(events, [given])
			.map(normaliseEvent)
			.filter((event) => !wanted || wanted.has(String(event.status)));
		// A callback posted again (its answer came late) starts nothing; a test run always starts.
		const items =
			this.getMode() === 'manual'
				? selected
				: recentEvents.firstSeen(`${this.getWorkflow().id} ${this.getNode().id}`, selected);
		const repeated = selected.length - items.length;
		const answer = {
			received: events.length,
			started: items.length,
			...(repeated && { repeated }),
		};
		return {
			webhookResponse: answer,
			...(items.length && { workflowData: [items.map((json) => ({ json: json as IDataObject }))] }),
		};
	}
}
