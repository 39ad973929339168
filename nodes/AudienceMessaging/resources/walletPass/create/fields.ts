/** Wallet Pass › Create's fields: the template, the pass data (two modes) and the options. */
import type { INodeProperties } from 'n8n-workflow';

import { PASS_PLACE_BACK } from '../../../../../src/platform';
import {
	optionsCollection,
	parallelRequestsOption,
	previewOption,
	rateLimitWaitOption,
} from '../../../runner/descriptions';
import type { FieldAliases } from '../../../runner/labels';

export const PASS_DATA = ['define', 'itemFields'] as const;
const showDefined = { passData: ['define'] };
const showFromItems = { passData: ['itemFields'] };

/**
 * Passes per batch request: the spec shows no limit, so the default only keeps requests modest and
 * the maximum bounds the option; the sandbox's own cap (test/sandbox/README.md) is not relied on.
 */
export const DEFAULT_PASS_BATCH_SIZE = 100;
export const MAX_PASS_BATCH_SIZE = 10_000;
export const MAX_PARALLEL_BATCHES = 10;

/** A pass's schema paths to the fields of "Define Below"; a whole-value error is the template's. */
export const definedAliases: FieldAliases = {
	'': 'templateSerial',
	'uniqueValues.fields': 'fields',
};
/** "From Input Item Fields" names the fields that name the input fields holding the values. */
export const itemFieldAliases: FieldAliases = {
	'': 'templateSerial',
	recipientId: 'recipientIdField',
	'uniqueValues.fields': 'fieldsFromInput',
	'uniqueValues.fields.value': 'fieldsFromInput.inputField',
};

const placeFields: INodeProperties[] = [
	{
		displayName: 'Place',
		name: 'place',
		type: 'options',
		default: PASS_PLACE_BACK,
		description: 'Where the field sits on the pass',
		options: [
			{ name: 'Back of the Pass', value: PASS_PLACE_BACK },
			{ name: 'Other (Type It)', value: 'custom' },
		],
	},
	{
		displayName: 'Other Place',
		name: 'customPlace',
		type: 'string',
		default: '',
		placeholder: 'e.g. AUXILIARY',
		description: 'Placement name as the platform knows it; the documentation names only BACK',
		displayOptions: { show: { place: ['custom'] } },
	},
];

/** The Fields of either Pass Data mode: Label and Place, then where the value comes from. */
function passFieldsCollection(
	name: string,
	description: string,
	show: Record<string, string[]>,
	value: INodeProperties,
): INodeProperties {
	return {
		displayName: 'Fields',
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Field',
		default: {},
		description,
		displayOptions: { show },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Label',
						name: 'label',
						type: 'string',
						default: '',
						description: 'Label of the field, as set in the template',
					},
					...placeFields,
					value,
				],
			},
		],
	};
}

export const createWalletPassFields: INodeProperties[] = [
	{
		displayName: 'Template',
		name: 'templateSerial',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The wallet template the pass is made from',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template...',
				typeOptions: { searchListMethod: 'searchWalletTemplates', searchable: true },
			},
			{
				displayName: 'By Serial',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. tpl-gold-member',
			},
		],
	},
	{
		displayName: 'Pass Data',
		name: 'passData',
		type: 'options',
		noDataExpression: true,
		default: 'define',
		options: [
			{
				name: 'Define Below',
				value: 'define',
				description:
					'Recipient ID and field values set below, with expressions for what differs per item',
			},
			{
				name: 'From Input Item Fields',
				value: 'itemFields',
				description:
					"Recipient ID and field values read from each input item's fields by name: no expression per item, the fastest way for thousands of passes",
			},
		],
	},
	{
		displayName: 'Recipient ID Field',
		name: 'recipientIdField',
		type: 'string',
		required: true,
		default: 'recipientId',
		placeholder: 'e.g. email',
		description:
			'Name of the input item field holding the recipient ID; each pass of a template needs a different one',
		displayOptions: { show: showFromItems },
	},
	passFieldsCollection(
		'fieldsFromInput',
		'Template fields set as Unique, each filled from an input item field',
		showFromItems,
		{
			displayName: 'Input Field',
			name: 'inputField',
			type: 'string',
			default: '',
			placeholder: 'e.g. memberPage',
			description:
				'Name of the input item field holding the text of this field (sent as written; an HTML anchor is shown as a link)',
		},
	),
	{
		displayName: 'Recipient ID',
		name: 'recipientId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.email }}',
		description: 'Identifies the pass holder; each pass of a template needs a different one',
		displayOptions: { show: showDefined },
	},
	passFieldsCollection(
		'fields',
		'Values of the template fields set as Unique (personalised per pass)',
		showDefined,
		{
			displayName: 'Value',
			name: 'value',
			type: 'string',
			default: '',
			placeholder: 'e.g. <a href="https://example.com/members/42">Your member page</a>',
			description:
				'Text of the field for this pass; an HTML anchor is sent as written and shown as a link',
		},
	),
	optionsCollection([
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PASS_BATCH_SIZE },
			default: DEFAULT_PASS_BATCH_SIZE,
			description:
				'Max number of passes sent in one batch request. The platform documents no limit per request: if it refuses a batch as too large, lower this.',
		},
		parallelRequestsOption(1, MAX_PARALLEL_BATCHES, 'batch requests'),
		previewOption(),
		rateLimitWaitOption(),
	]),
];
