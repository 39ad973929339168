/** The Audience Messaging node: its description, pickers, webhook and operation dispatch. */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { audienceMessagingCallbackTest } from '../../src/platform';
import { searchLists, searchWalletTemplates } from './methods/listSearch';
import { RESOURCES } from './resources';
import { PACE_ONLY } from './resources/message/send/fields';
import { answerWebhook } from './resources/message/sendAndWait/webhook';
import type { Executor } from './runner/operation';

/** Executors, not n8n's routing (it sends item 0 before reading item 1): see runner/execute.ts. */
const EXECUTORS = new Map<string, Map<string, Executor>>(
	RESOURCES.map(({ option, executors }) => [option.value, new Map(Object.entries(executors))]),
);

export class AudienceMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Audience Messaging',
		name: 'audienceMessaging',
		icon: { light: 'file:audienceMessaging.svg', dark: 'file:audienceMessaging.dark.svg' },
		group: ['output'],
		version: 1,
		// "operation: [message type] resource" ("send: image message"): no recipient on the canvas.
		subtitle:
			'={{ $parameter["operation"] + ": " + [$parameter["messageType"], $parameter["resource"]].join(" ").trim() }}',
		description:
			'Subscriber lists, wallet passes, chat-app messages and per-sender blacklists of the audience messaging platform',
		defaults: { name: 'Audience Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Send and Wait's links come back here (waiting webhooks); n8n checks their signature.
		webhooks: ['GET', 'POST'].map((httpMethod) => ({
			name: 'default',
			httpMethod,
			responseMode: 'onReceived',
			responseData: '',
			path: '={{ $nodeId }}',
			restartWebhook: true,
			isFullPath: true,
		})),
		waitingNodeTooltip:
			'={{ $parameter["operation"] === "sendAndWait" ? "Execution will continue after the user\'s response" : "" }}',
		credentials: [
			{ name: 'audienceMessagingApi', required: true },
			{
				name: 'audienceMessagingCallbackApi',
				required: true,
				testedBy: 'audienceMessagingCallbackTest',
				displayOptions: {
					show: {
						resource: ['message'],
						operation: ['send'],
						sendToTrigger: [true, PACE_ONLY],
					},
				},
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCES.map(({ option }) => option).sort((a, b) => a.name.localeCompare(b.name)),
				default: 'list',
			},
			...RESOURCES.flatMap((resource) => [resource.operations, ...resource.fields]),
		],
	};

	methods = {
		listSearch: { searchLists, searchWalletTemplates },
		credentialTest: { audienceMessagingCallbackTest },
	};

	webhook = answerWebhook;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const resource = String(this.getNodeParameter('resource', 0));
		const operation = String(this.getNodeParameter('operation', 0));
		const executor = EXECUTORS.get(resource)?.get(operation);
		if (!executor)
			throw new NodeOperationError(
				this.getNode(),
				`The operation "${operation}" of "${resource}" is not supported`,
			);
		return await executor.call(this);
	}
}
