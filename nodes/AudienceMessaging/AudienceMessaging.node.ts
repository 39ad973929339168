import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { baseUrlExpression } from '../../src/transport';
import { audienceMessagingApiTest } from './methods/credentialTest';
import { searchLists, searchWalletTemplates } from './methods/listSearch';
import { blacklistFields, blacklistOperations } from './resources/blacklist';
import { createListFromCsv, listFields, listOperations } from './resources/list';
import { messageFields, messageOperations, sendMessages } from './resources/message';
import { messageTemplateFields, messageTemplateOperations } from './resources/messageTemplate';
import { senderFields, senderOperations } from './resources/sender';
import { addManySubscribers, subscriberFields, subscriberOperations } from './resources/subscriber';
import { createWalletPasses, walletPassFields, walletPassOperations } from './resources/walletPass';
import { walletTemplateFields, walletTemplateOperations } from './resources/walletTemplate';

export class AudienceMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Audience Messaging',
		name: 'audienceMessaging',
		icon: { light: 'file:audienceMessaging.svg', dark: 'file:audienceMessaging.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Subscriber lists, wallet passes, chat-app messages and per-sender blacklists of the audience messaging platform',
		defaults: { name: 'Audience Messaging' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'audienceMessagingApi', required: true, testedBy: 'audienceMessagingApiTest' }],
		requestDefaults: {
			baseURL: baseUrlExpression('lists'),
			headers: { Accept: 'application/json' },
			ignoreHttpStatusErrors: true,
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Blacklist', value: 'blacklist' },
					{ name: 'List', value: 'list' },
					{ name: 'Message', value: 'message' },
					{ name: 'Message Template', value: 'messageTemplate' },
					{ name: 'Sender', value: 'sender' },
					{ name: 'Subscriber', value: 'subscriber' },
					{ name: 'Wallet Pass', value: 'walletPass' },
					{ name: 'Wallet Template', value: 'walletTemplate' },
				],
				default: 'list',
			},
			listOperations,
			...listFields,
			subscriberOperations,
			...subscriberFields,
			walletPassOperations,
			...walletPassFields,
			walletTemplateOperations,
			...walletTemplateFields,
			blacklistOperations,
			...blacklistFields,
			senderOperations,
			...senderFields,
			messageTemplateOperations,
			...messageTemplateFields,
			messageOperations,
			...messageFields,
		],
	};

	methods = {
		listSearch: { searchLists, searchWalletTemplates },
		credentialTest: { audienceMessagingApiTest },
	};

	customOperations = {
		list: { createFromCsv: createListFromCsv },
		subscriber: { addMany: addManySubscribers },
		walletPass: { create: createWalletPasses },
		message: { send: sendMessages },
	};
}
