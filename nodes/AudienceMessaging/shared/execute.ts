import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** An item that failed under "Continue On Fail": the error message, paired to its input item. */
export function errorItem(error: Error, itemIndex: number): INodeExecutionData {
	const description = (error as { description?: string }).description;
	const httpCode = (error as { httpCode?: string | null }).httpCode;
	return {
		json: {
			error: error.message,
			...(description ? { description } : {}),
			...(httpCode ? { httpCode } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}

/**
 * Per-item custom operations: every item is prepared (read and validated) before any request
 * is sent, then each is sent in turn. With Continue On Fail every input item yields exactly
 * one output item; without it the first error stops the node.
 */
export async function runPerItem<P>(
	context: IExecuteFunctions,
	prepare: (itemIndex: number) => Promise<P>,
	send: (prepared: P, itemIndex: number) => Promise<IDataObject>,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const continueOnFail = context.continueOnFail();
	const prepared: Array<{ ok: true; value: P } | { ok: false; error: Error }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared.push({ ok: true, value: await prepare(itemIndex) });
		} catch (error) {
			if (!continueOnFail) throw error;
			prepared.push({ ok: false, error: error as Error });
		}
	}
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const entry = prepared[itemIndex];
		if (!entry.ok) {
			output.push(errorItem(entry.error, itemIndex));
			continue;
		}
		try {
			output.push({ json: await send(entry.value, itemIndex), pairedItem: { item: itemIndex } });
		} catch (error) {
			if (!continueOnFail) throw error;
			output.push(errorItem(error as Error, itemIndex));
		}
	}
	return [output];
}
