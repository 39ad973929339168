/** Wallet Pass › Create: a pass per item, in batches per template, matched back by recipient. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../../../../../src/http';
import { fieldError, oneOf, parsed, quoted, record, requiredText } from '../../../../../src/base';
import type { FieldLabels } from '../../../../../src/base';
import {
	parsePass,
	passFieldSources,
	passFromItem,
	passFromParameters,
	passOutcomes,
	readPassBatchResult,
	templateSerialSchema,
} from '../../../../../src/platform';
import type { Pass } from '../../../../../src/platform';
import { runInBatches } from '../../../runner/batches';
import { wholeOptionOf } from '../../../runner/descriptions';
import { runOptions } from '../../../runner/execute';
import { validated } from '../../../runner/item-errors';
import { fieldLabels } from '../../../runner/labels';
import { perItem, rawPerItem } from '../../../runner/parameters';
import {
	DEFAULT_PASS_BATCH_SIZE,
	MAX_PARALLEL_BATCHES,
	MAX_PASS_BATCH_SIZE,
	PASS_DATA,
	createWalletPassFields,
	definedAliases,
	itemFieldAliases,
} from './fields';

type PreparePass = (itemIndex: number) => Pass;

/** "Define Below": each item's parameters, checked as the pass schema does. */
function passFromDefinedValues(context: IExecuteFunctions): PreparePass {
	const recipientOf = rawPerItem(context, 'recipientId', '');
	const fieldsOf = perItem(
		context,
		'fields',
		(value) => record(value, 'uniqueValues.fields').field,
		{},
	);
	return (itemIndex) => parsePass(passFromParameters(recipientOf(itemIndex), fieldsOf(itemIndex)));
}

/** "From Input Item Fields": names read once, each pass checked as read: no expression per item. */
function passFromItemFields(context: IExecuteFunctions): PreparePass {
	const items = context.getInputData();
	const recipientFieldOf = perItem(
		context,
		'recipientIdField',
		(value) =>
			requiredText(
				value,
				'recipientIdField',
				'the name of the input field holding the recipient ID',
			),
		'recipientId',
	);
	const sourcesOf = perItem(
		context,
		'fieldsFromInput',
		(value) => passFieldSources(record(value, 'uniqueValues.fields').field),
		{},
	);
	return (itemIndex) =>
		passFromItem(items[itemIndex].json, recipientFieldOf(itemIndex), sourcesOf(itemIndex));
}

/** Per template, each recipient once: a later item naming a recipient again is refused. */
function repeatedRecipients(
	context: IExecuteFunctions,
	labels: FieldLabels,
	entries: Array<{ itemIndex: number; group: string; value: Pass }>,
): Map<number, Error> {
	const errors = new Map<number, Error>();
	const firstSeen = new Map<string, Map<string, number>>();
	for (const { itemIndex, group, value } of entries) {
		let recipients = firstSeen.get(group);
		if (!recipients) firstSeen.set(group, (recipients = new Map()));
		const first = recipients.get(value.recipientId);
		if (first === undefined) recipients.set(value.recipientId, itemIndex);
		else
			errors.set(
				itemIndex,
				fieldError(
					context.getNode(),
					itemIndex,
					labels.recipientId,
					`${quoted(value.recipientId)} is already the recipient of item ${first} for template ${group}; each pass of a template needs a different recipient ID`,
				),
			);
	}
	return errors;
}

/** One batch of a template's passes; an unreadable 2xx answer makes every pass `accepted`. */
async function sendPassBatch(
	context: IExecuteFunctions,
	serial: string,
	batch: Array<{ itemIndex: number; value: Pass }>,
): Promise<Map<number, IDataObject | Error>> {
	const passes = batch.map((entry) => entry.value);
	const response = await apiRequest(context, {
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
		const warning = `Accepted, answer unreadable: the platform accepted the batch (HTTP ${response.statusCode}) but its answer could not be read (${answer.message}); the pass URLs are unknown. Look for these recipients' passes in the platform's web application (the API lists no passes) before creating them again.`;
		return new Map(
			batch.map(({ itemIndex, value }): [number, IDataObject] => [
				itemIndex,
				{ recipientId: value.recipientId, templateSerial: serial, status: 'accepted', warning },
			]),
		);
	}
	const outcomes = passOutcomes(passes, answer.data);
	return new Map(
		batch.map(({ itemIndex, value }): [number, IDataObject | Error] => {
			const outcome = outcomes.get(value.recipientId) ?? {};
			if (outcome.url)
				return [
					itemIndex,
					{ recipientId: value.recipientId, url: outcome.url, templateSerial: serial },
				];
			return [
				itemIndex,
				new NodeOperationError(
					context.getNode(),
					`The platform did not create the pass of recipient "${value.recipientId}": ${outcome.error}`,
					{
						itemIndex,
						description:
							'The other passes of the batch were still created. With On Error at Stop Workflow their download URLs are not output: set On Error to Continue to get each pass as its own item.',
					},
				),
			];
		}),
	);
}

export async function createWalletPasses(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const labels = fieldLabels(createWalletPassFields, definedAliases);
	const options = runOptions(this, labels);
	const { batchSize, concurrency, passData } = validated(this, 0, labels, () => ({
		batchSize: wholeOptionOf(options, 'batchSize', DEFAULT_PASS_BATCH_SIZE, MAX_PASS_BATCH_SIZE),
		concurrency: wholeOptionOf(options, 'parallelRequests', 1, MAX_PARALLEL_BATCHES),
		passData: oneOf(this.getNodeParameter('passData', 0, 'define'), 'passData', PASS_DATA),
	}));
	const serialOf = perItem(
		this,
		'templateSerial',
		(value) => parsed(templateSerialSchema, value, 'templateSerial'),
		undefined,
		{ extractValue: true },
	);
	const [itemLabels, passOf] =
		passData === 'itemFields'
			? [fieldLabels(createWalletPassFields, itemFieldAliases), passFromItemFields(this)]
			: [labels, passFromDefinedValues(this)];
	return await runInBatches<Pass>(this, {
		labels: itemLabels,
		options,
		batchSize,
		concurrency,
		rateLimitWaitOption: true,
		describe: (serial, pass) => ({ recipientId: pass.recipientId, templateSerial: serial }),
		rowsAt: 'items',
		prepare: (itemIndex) => ({ group: serialOf(itemIndex), value: passOf(itemIndex) }),
		crossCheck: (entries) => repeatedRecipients(this, labels, entries),
		send: async (serial, batch) => await sendPassBatch(this, serial, batch),
	});
}
