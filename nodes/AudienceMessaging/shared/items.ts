import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isRecord, outcomeOf } from '../../../src/http';
import type { RequestPreview } from '../../../src/http';

/**
 * An item that failed under "Continue On Fail": the error message, paired to its input item.
 * An error with an outcome (a write that may have been applied, a request not sent because the
 * run's wait budget is spent) says it in `status` (`unknown`, `notSent`), next to what
 * identifies the item (`context`: the message's recipient and External ID, for example).
 */
export function errorItem(
	error: Error,
	itemIndex: number,
	context: IDataObject = {},
): INodeExecutionData {
	const description = (error as { description?: string }).description;
	const httpCode = (error as { httpCode?: string | null }).httpCode;
	const outcome = outcomeOf(error);
	return {
		json: {
			...(outcome ? { ...context, status: outcome } : {}),
			error: error.message,
			...(description ? { description } : {}),
			...(httpCode ? { httpCode } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}

/**
 * The output of a write the platform accepted whose answer cannot be read: not a failure (the
 * platform applied it), so an item with status `accepted` and a warning, with or without Continue
 * On Fail.
 */
function acceptedItem(
	error: Error,
	itemIndex: number,
	context: IDataObject = {},
): INodeExecutionData {
	const description = (error as { description?: string }).description;
	return {
		json: {
			...context,
			status: 'accepted',
			warning: [error.message, description].filter(Boolean).join('. '),
		},
		pairedItem: { item: itemIndex },
	};
}

/**
 * The output item of a send that threw, or undefined when the run must stop on it: an accepted
 * write gives its `accepted` item in any case; otherwise Continue On Fail gives an error item
 * (with `status` and `describe()`'s identifying fields when the error carries an outcome).
 */
export function failedSendItem(
	error: Error,
	itemIndex: number,
	continueOnFail: boolean,
	describe?: () => IDataObject,
): INodeExecutionData | undefined {
	const outcome = outcomeOf(error);
	const context = outcome ? (describe?.() ?? {}) : {};
	if (outcome === 'accepted') return acceptedItem(error, itemIndex, context);
	return continueOnFail ? errorItem(error, itemIndex, context) : undefined;
}

/**
 * The output item of a write a preview run did not send: what identifies the item (`describe`),
 * `status: preview`, and the request (method, URL, body) it would have sent.
 */
export function previewItem(
	request: RequestPreview['request'] | IDataObject,
	itemIndex: number,
	context: IDataObject = {},
): INodeExecutionData {
	return {
		json: { ...context, status: 'preview', request: request as IDataObject },
		pairedItem: { item: itemIndex },
	};
}

/**
 * The output items of a batch a preview run did not send: each item's own part of the body and
 * where it sits (`bodyPath`, `items[3]`), with the batch's number and size, so the batch's body is
 * the item parts put back in place; never the whole body on every item (10,000 items in batches
 * of 500 would hold each batch 500 times).
 */
export function batchPreviewItems<V>(
	preview: RequestPreview,
	batch: Array<{ itemIndex: number; value: V }>,
	number: number,
	rowsAt: string | undefined,
	describe: (value: V) => IDataObject,
): INodeExecutionData[] {
	const { body, ...request } = preview.request;
	const rows = rowsAt === undefined ? body : isRecord(body) ? body[rowsAt] : undefined;
	return batch.map(({ itemIndex, value }, position) =>
		previewItem(
			{
				...request,
				batch: { number, items: batch.length },
				bodyPath: `${rowsAt ?? ''}[${position}]`,
				bodyPart: Array.isArray(rows) ? (rows[position] as IDataObject) : undefined,
			},
			itemIndex,
			describe(value),
		),
	);
}
