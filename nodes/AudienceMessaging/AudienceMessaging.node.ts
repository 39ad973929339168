import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { baseUrlExpression } from '../../src/transport';
import { audienceMessagingApiTest } from './methods/credentialTest';
import { searchLists } from './methods/listSearch';
import { createListFromCsv, listFields, listOperations } from './resources/list';
import { addManySubscribers, subscriberFields, subscriberOperations } from './resources/subscriber';

export class AudienceMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Audience Messaging',
		name: 'audienceMessaging',
		icon: { light: 'file:audienceMessaging.svg', dark: 'file:audienceMessaging.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Manage subscriber lists and subscribers of the audience messaging platform',
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
					{ name: 'List', value: 'list' },
					{ name: 'Subscriber', value: 'subscriber' },
				],
				default: 'list',
			},
			listOperations,
			...listFields,
			subscriberOperations,
			...subscriberFields,
		],
	};

	methods = {
		listSearch: { searchLists },
		credentialTest: { audienceMessagingApiTest },
	};

	customOperations = {
		list: { createFromCsv: createListFromCsv },
		subscriber: { addMany: addManySubscribers },
	};
}
