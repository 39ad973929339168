/** Add Many's bulk request (POST /lists/{listId}/subscribers/bulk) and its answer. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, objectResponse } from '../../../../../src/http';
import type { StreamedBody } from '../../../../../src/http';
import { bulkSubscribersResultSchema } from '../../../../../src/platform';
import type { BulkSubscribersResult } from '../../../../../src/platform';

/** A 2xx answer, read leniently: what cannot be read leaves the outcome unknown, with a warning. */
function bulkResult(body: unknown): { result: BulkSubscribersResult; warning?: string } {
	const data = objectResponse.safeParse(body);
	const result = data.success ? bulkSubscribersResultSchema.safeParse(data.data) : undefined;
	if (
		result?.success &&
		result.data.subscriberAdded !== undefined &&
		result.data.subscriberUpdated !== undefined
	)
		return { result: result.data };
	const problem = !data.success
		? data.error.issues[0].message
		: 'subscriberAdded or subscriberUpdated is missing';
	return {
		result: result?.success ? result.data : { subscribersError: [] },
		warning: `The platform accepted the request but its answer could not be read (${problem}); check the list before sending these rows again.`,
	};
}

/** The one bulk request, whatever the input: the rows (JSON) or the CSV file (multipart). */
export async function postBulk(
	context: IExecuteFunctions,
	listId: string,
	send: {
		body: IDataObject[] | Buffer | StreamedBody;
		headers?: Record<string, string>;
		preview?: IDataObject;
		itemIndex: number;
		/** The rows in the body, when the node knows them (not for a file). */
		rows?: number;
	},
): Promise<{ result: BulkSubscribersResult; warning?: string }> {
	const response = await apiRequest(context, {
		base: 'lists',
		method: 'POST',
		path: `/lists/${encodeURIComponent(listId)}/subscribers/bulk`,
		body: send.body,
		headers: send.headers ?? {},
		...(send.preview ? { preview: send.preview } : {}),
		itemIndex: send.itemIndex,
		action: `add ${send.rows === undefined ? '' : `${send.rows} `}subscribers to list ${listId}`,
		reconcile: `look for these subscribers in list ${listId} (Subscriber › Get Many)`,
	});
	return bulkResult(response.body);
}
