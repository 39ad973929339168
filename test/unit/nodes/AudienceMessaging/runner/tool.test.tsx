import type { INodeProperties } from 'n8n-workflow';

import {
	expectedFormat,
	fromAiKeys,
	runsAsTool,
} from '../../../../../nodes/AudienceMessaging/runner/tool';

describe('the node as an AI agent tool', () => {
	it('tells the tool variant n8n makes of a usableAsTool node from the node itself', () => {
		expect(runsAsTool({ type: 'n8n-nodes-audience-messaging.audienceMessagingTool' })).toBe(true);
		expect(runsAsTool({ type: 'n8n-nodes-audience-messaging.audienceMessaging' })).toBe(false);
	});

	it('finds the $fromAI() argument names in a raw parameter, nested ones too, once each', () => {
		expect(fromAiKeys("={{ $fromAI('to', 'the phone', 'string') }}")).toEqual(['to']);
		expect(fromAiKeys('={{ $fromAI("list_id") }}')).toEqual(['list_id']);
		expect(fromAiKeys('={{ $fromAI(`ref`) + $fromAI( "ref" ) }}')).toEqual(['ref']);
		expect(fromAiKeys("={{ $fromAI('it\\'s', 'x') }}")).toEqual(["it's"]);
		expect(
			fromAiKeys({
				button: [
					{ id: "={{ $fromAI('id1') }}", title: "={{ $fromAI('title1') }}" },
					{ id: 'fixed' },
				],
			}),
		).toEqual(['id1', 'title1']);
		expect(fromAiKeys('+33612345678')).toEqual([]);
		expect(fromAiKeys(undefined)).toEqual([]);
	});

	it("words what a field takes from its description's first sentence, its choices or range, and its example", () => {
		const field = (extra: Partial<INodeProperties>): INodeProperties => ({
			displayName: 'F',
			name: 'f',
			type: 'string',
			default: '',
			...extra,
		});
		expect(
			expectedFormat(
				field({
					description:
						'Phone number with country code; sent in E.164 form. Outside 24 hours, only templates.',
					placeholder: 'e.g. +33 6 12 34 56 78',
				}),
			),
		).toBe('Phone number with country code; sent in E.164 form; e.g. +33 6 12 34 56 78');
		expect(
			expectedFormat(field({ type: 'number', typeOptions: { minValue: -90, maxValue: 90 } })),
		).toBe('a number from -90 to 90');
		expect(
			expectedFormat(
				field({
					type: 'options',
					options: [
						{ name: 'SMS', value: 'SMS' },
						{ name: 'Email', value: 'EMAIL' },
					],
				}),
			),
		).toBe('one of "SMS", "EMAIL"');
		expect(expectedFormat(field({ type: 'boolean', default: false }))).toBe('true or false');
		expect(expectedFormat(field({ placeholder: 'Add Option' }))).toBeUndefined();
	});
});
