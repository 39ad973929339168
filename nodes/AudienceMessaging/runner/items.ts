/** The output items of a run: errors, accepted writes, previews of an item or a batch. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isRecord, outcomeOf } from '../../../src/http';
import type { RequestPreview } from '../../../src/http';

/**
 * An item failed under Continue On Fail. An error with an outcome (`unknown`: a write maybe
 * applied; `notSent`: the wait budget spent) says it in `status`, beside its `context` identifiers.
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
 * A thrown send's item: Continue On Fail's error item, undefined: stop. A write accepted, its
 * answer unreadable, is not a failure: always an item, `accepted` with a warning.
 */
export function failedSendItem(
	error: Error,
	itemIndex: number,
	continueOnFail: boolean,
	describe: () => IDataObject,
): INodeExecutionData | undefined {
	const outcome = outcomeOf(error);
	const context = outcome ? describe() : {};
	if (outcome !== 'accepted')
		return continueOnFail ? errorItem(error, itemIndex, context) : undefined;
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

/** A write a preview did not send: what identifies it, `status: preview`, the request unsent. */
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
 * A previewed batch: each item its own part of the body and where it sits (`bodyPath`, `items[3]`),
 * with the batch's number and size; never the whole body on every item, a batch-size-fold copy.
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
