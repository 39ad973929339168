import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	apiRequest,
	fieldError,
	integer,
	oneOf,
	parsed,
	parsePass,
	PASS_PLACE_BACK,
	passFieldSources,
	passFromItem,
	passFromParameters,
	passOutcomes,
	readPassBatchResult,
	record,
	requiredText,
	templateSerialSchema,
} from '../../core';
import type { Pass } from '../../core';
import { runInBatches } from '../../shared/batches';
import { parallelRequestsOf, parallelRequestsOption, rateLimitWaitOption } from '../../shared/descriptions';
import { validated } from '../../shared/execute';
import { fieldLabels } from '../../shared/labels';
import { perItem, rawPerItem } from '../../shared/parameters';

const show = { resource: ['walletPass'], operation: ['create'] };
const PASS_DATA = ['define', 'itemFields'] as const;
const showDefined = { ...show, passData: ['define'] };
const showFromItems = { ...show, passData: ['itemFields'] };

/**
 * Passes per batch request. The spec shows no limit on the passes one POST .../passes/batch may
 * hold, so neither number is the platform's: the default keeps requests modest, the maximum only
 * bounds the option (as Subscriber › Add Many's 10,000 rows). The sandbox refuses more than 500
 * per request, a choice of its own (test/sandbox/README.md) that the node does not rely on.
 */
export const DEFAULT_PASS_BATCH_SIZE = 100;
export const MAX_PASS_BATCH_SIZE = 10_000;
const MAX_PARALLEL_BATCHES = 10;

/** A pass's paths (as the pass schema names them) to the fields of "Define Below"; a whole-value error is the template's. */
const definedAliases = { '': 'templateSerial', 'uniqueValues.fields': 'fields' };
/** "From Input Item Fields" names the fields that name the input fields holding the values. */
const itemFieldAliases = { '': 'templateSerial', recipientId: 'recipientIdField', 'uniqueValues.fields': 'fieldsFromInput', 'uniqueValues.fields.value': 'fieldsFromInput.inputField' };

/** The place of a pass field: BACK, or one the user types. */
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

/** The Fields collection of either Pass Data mode: Label and Place, then where the value comes from. */
function passFieldsCollection(name: string, description: string, show: Record<string, string[]>, value: INodeProperties): INodeProperties {
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
				values: [{ displayName: 'Label', name: 'label', type: 'string', default: '', description: 'Label of the field, as set in the template' }, ...placeFields, value],
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
		displayOptions: { show },
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
		displayOptions: { show },
		options: [
			{
				name: 'Define Below',
				value: 'define',
				description: 'Recipient ID and field values set below, with expressions for what differs per item',
			},
			{
				name: 'From Input Item Fields',
				value: 'itemFields',
				description: "Recipient ID and field values read from each input item's fields by name: no expression per item, the fastest way for thousands of passes",
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
		description: 'Name of the input item field holding the recipient ID; each pass of a template needs a different one',
		displayOptions: { show: showFromItems },
	},
	passFieldsCollection('fieldsFromInput', 'Template fields set as Unique, each filled from an input item field', showFromItems, {
		displayName: 'Input Field',
		name: 'inputField',
		type: 'string',
		default: '',
		placeholder: 'e.g. memberPage',
		description: 'Name of the input item field holding the text of this field (sent as written; an HTML anchor is shown as a link)',
	}),
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
	passFieldsCollection('fields', 'Values of the template fields set as Unique (personalised per pass)', showDefined, {
		displayName: 'Value',
		name: 'value',
		type: 'string',
		default: '',
		placeholder: 'e.g. <a href="https://example.com/members/42">Your member page</a>',
		description: 'Text of the field for this pass; an HTML anchor is sent as written and shown as a link',
	}),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_PASS_BATCH_SIZE },
				default: DEFAULT_PASS_BATCH_SIZE,
				description: 'Max number of passes sent in one batch request. The platform documents no limit per request: if it refuses a batch as too large, lower this.',
			},
			parallelRequestsOption(1, MAX_PARALLEL_BATCHES, 'batch requests'),
			rateLimitWaitOption(),
		],
	},
];

type PreparePass = (itemIndex: number) => { group: string; value: Pass };

/** "Define Below": the parameters of each item (plain `$json` references read from the item, other expressions evaluated by n8n), checked as the pass schema does. */
function passFromDefinedValues(context: IExecuteFunctions, serialOf: (itemIndex: number) => string): PreparePass {
	const recipientOf = rawPerItem(context, 'recipientId', '');
	const fieldsOf = perItem(context, 'fields', (value) => record(value, 'uniqueValues.fields').field, {});
	return (itemIndex) => ({ group: serialOf(itemIndex), value: parsePass(passFromParameters(recipientOf(itemIndex), fieldsOf(itemIndex))) });
}

/**
 * "From Input Item Fields": the field names are read once (unless they are expressions), then
 * each pass is read from its item's JSON; the values are checked as they are read, so no
 * expression and no schema pass runs per item.
 */
function passFromItemFields(context: IExecuteFunctions, serialOf: (itemIndex: number) => string): PreparePass {
	const items = context.getInputData();
	const recipientFieldOf = perItem(context, 'recipientIdField', (value) => requiredText(value, 'recipientIdField', 'the name of the input field holding the recipient ID'), 'recipientId');
	const sourcesOf = perItem(context, 'fieldsFromInput', (value) => passFieldSources(record(value, 'uniqueValues.fields').field), {});
	return (itemIndex) => ({ group: serialOf(itemIndex), value: passFromItem(items[itemIndex].json, recipientFieldOf(itemIndex), sourcesOf(itemIndex)) });
}

/**
 * Wallet Pass > Create: each input item is one pass; passes go out in batches per template
 * (POST /v2/wallet/templates/{serial}/passes/batch) and come back as { recipientId, url },
 * matched to their item by recipientId. A recipient may hold one pass per template.
 */
export async function createWalletPasses(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const labels = fieldLabels(createWalletPassFields, definedAliases);
	const options = validated(this, 0, labels, () => record(this.getNodeParameter('options', 0, {}), 'options'));
	const batchSize = validated(this, 0, labels, () =>
		options.batchSize === undefined ? DEFAULT_PASS_BATCH_SIZE : integer(options.batchSize, 'batchSize', { min: 1, max: MAX_PASS_BATCH_SIZE }),
	);
	const concurrency = validated(this, 0, labels, () =>
		parallelRequestsOf(options, 1, MAX_PARALLEL_BATCHES),
	);
	const passData = validated(this, 0, labels, () => oneOf(this.getNodeParameter('passData', 0, 'define'), 'passData', PASS_DATA));
	const serialOf = perItem(this, 'templateSerial', (value) => parsed(templateSerialSchema, value, 'templateSerial'), undefined, { extractValue: true });
	const itemLabels = passData === 'itemFields' ? fieldLabels(createWalletPassFields, itemFieldAliases) : labels;
	return await runInBatches<Pass>(this, {
		labels: itemLabels,
		batchSize,
		concurrency,
		rateLimitWaitOption: true,
		describe: (serial, pass) => ({ recipientId: pass.recipientId, templateSerial: serial }),
		prepare: passData === 'itemFields' ? passFromItemFields(this, serialOf) : passFromDefinedValues(this, serialOf),
		crossCheck: (entries) => {
			const errors = new Map<number, Error>();
			// Per template, the item that first named each recipient.
			const firstSeen = new Map<string, Map<string, number>>();
			for (const { itemIndex, group, value } of entries) {
				let recipients = firstSeen.get(group);
				if (!recipients) firstSeen.set(group, (recipients = new Map()));
				const first = recipients.get(value.recipientId);
				if (first === undefined) recipients.set(value.recipientId, itemIndex);
				else errors.set(itemIndex, fieldError(this.getNode(), itemIndex, labels.recipientId, `"${value.recipientId}" is already the recipient of item ${first} for template ${group}; each pass of a template needs a different recipient ID`));
			}
			return errors;
		},
		send: async (serial, batch) => {
			const passes = batch.map((entry) => entry.value);
			const response = await apiRequest(this, {
				base: 'wallet',
				method: 'POST',
				path: `/v2/wallet/templates/${encodeURIComponent(serial)}/passes/batch`,
				body: { items: passes } as unknown as IDataObject,
				headers: { 'Content-Type': 'application/json;charset=UTF-8' },
				itemIndex: batch[0].itemIndex,
				action: `create ${passes.length} passes of wallet template ${serial}`,
				reconcile: `look for these recipients' passes in wallet template ${serial} on the platform`,
			});
			const answer = readPassBatchResult(response.body);
			if (!answer.success) {
				// The platform accepted the batch (2xx): the passes exist as far as it says, so they are not reported as failed.
				const warning = `Accepted, answer unreadable: the platform accepted the batch (HTTP ${response.statusCode}) but its answer could not be read (${answer.message}); the pass URLs are unknown. Check the template's passes before creating them again.`;
				return new Map(batch.map(({ itemIndex, value }): [number, IDataObject] => [itemIndex, { recipientId: value.recipientId, templateSerial: serial, status: 'accepted', warning }]));
			}
			const outcomes = passOutcomes(passes, answer.data);
			return new Map(
				batch.map(({ itemIndex, value }): [number, IDataObject | Error] => {
					const outcome = outcomes.get(value.recipientId) ?? {};
					if (outcome.url) return [itemIndex, { recipientId: value.recipientId, url: outcome.url, templateSerial: serial }];
					return [
						itemIndex,
						new NodeOperationError(this.getNode(), `The platform did not create the pass of recipient "${value.recipientId}": ${outcome.error}`, {
							itemIndex,
							description: 'The other passes of the batch were still created.',
						}),
					];
				}),
			);
		},
	});
}
