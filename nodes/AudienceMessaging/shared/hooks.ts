import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
	PreSendAction,
} from 'n8n-workflow';
import { ZodError } from 'zod';
import type { ZodType } from 'zod';

import { InputError, apiError, fieldError, schemaError } from '../../../src/errors';
import type { FieldLabels } from '../../../src/errors';
import { listIdSchema, subscriberIdSchema } from '../../../src/schemas/lists';

/** First postReceive of every declarative operation: a platform error becomes a NodeApiError with status and message. */
export async function throwOnPlatformError(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	if (response.statusCode >= 400) {
		throw apiError(this.getNode(), response, { itemIndex: this.getItemIndex() });
	}
	return items;
}

type NodeContext = { getNode: IExecuteSingleFunctions['getNode'] };

/** InputError and ZodError from src/ become an error naming the item and the field; other errors pass through. */
export function asFieldError(context: NodeContext, itemIndex: number, labels: FieldLabels, error: unknown): unknown {
	const node = context.getNode();
	if (error instanceof ZodError) return schemaError(node, itemIndex, error, labels);
	if (error instanceof InputError) return fieldError(node, itemIndex, labels[error.field] ?? error.field, error.message);
	return error;
}

/** Runs a mapping and its schema for one item; a problem is reported with the item and the field. */
export function validated<T>(context: NodeContext, itemIndex: number, labels: FieldLabels, build: () => unknown, schema: ZodType<T>): T {
	try {
		return schema.parse(build());
	} catch (error) {
		throw asFieldError(context, itemIndex, labels, error);
	}
}

/** A preSend hook that sets the JSON body from a mapping validated by a zod schema. */
export function jsonBodyFrom<T>(
	labels: FieldLabels,
	schema: ZodType<T>,
	build: (context: IExecuteSingleFunctions) => unknown,
): PreSendAction {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions) {
		requestOptions.body = validated(this, this.getItemIndex(), labels, () => build(this), schema) as IDataObject;
		return requestOptions;
	};
}

/** Output of operations whose response body is empty or not shown: a confirmation item. */
export function confirmation(fields: (context: IExecuteSingleFunctions) => IDataObject): PostReceiveAction {
	return async function (this: IExecuteSingleFunctions, _items, response) {
		const data =
			response.body && typeof response.body === 'object' && 'data' in (response.body as IDataObject)
				? ((response.body as IDataObject).data as IDataObject)
				: {};
		return [{ json: { ...fields(this), ...(data && typeof data === 'object' ? data : {}) } }];
	};
}

/** The list picked in the resource locator, as the text that goes into the path. */
export function listIdOf(context: IExecuteSingleFunctions): string {
	return String(context.getNodeParameter('listId', undefined, { extractValue: true }) ?? '').trim();
}

/** preSend: the list picked in the resource locator must be a numeric list ID (an expression may yield anything). */
export const validListId: PreSendAction = async function (this: IExecuteSingleFunctions, requestOptions) {
	validated(this, this.getItemIndex(), { '': 'List' }, () => this.getNodeParameter('listId', undefined, { extractValue: true }), listIdSchema);
	return requestOptions;
};

/** preSend of subscriber operations: a numeric list ID and a non-empty subscriber ID. */
export const validListAndSubscriberId: PreSendAction = async function (this: IExecuteSingleFunctions, requestOptions) {
	await validListId.call(this, requestOptions);
	validated(this, this.getItemIndex(), { '': 'Subscriber ID' }, () => this.getNodeParameter('subscriberId', ''), subscriberIdSchema);
	return requestOptions;
};
