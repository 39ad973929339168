/** Item errors: when a failed item continues, and errors that name the item and field. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { ZodError } from 'zod';

import { fieldError, fieldName, InputError, itemLabel, schemaError } from '../../../src/base';
import type { FieldLabels } from '../../../src/base';
import { runsAsTool, toolArgumentError } from './tool';

type NodeContext = Pick<IExecuteFunctions, 'getNode'>;

/**
 * Whether a failed item becomes an error item: On Error: Continue, and always as an AI agent's
 * tool, where it is what the model reads (n8n's AI Agent, 2.40.7, answers a throw with nothing).
 */
export function continuesOnFail(
	context: Pick<IExecuteFunctions, 'continueOnFail' | 'getNode'>,
): boolean {
	return context.continueOnFail() || runsAsTool(context.getNode());
}

/**
 * A problem reading an item, as an n8n error naming the item: InputError and ZodError name the
 * field (its label), n8n's errors pass, anything else is wrapped rather than a bare TypeError.
 */
export function asFieldError(
	context: NodeContext,
	itemIndex: number,
	labels: FieldLabels,
	error: unknown,
): Error {
	const node = context.getNode();
	// A model called the tool: the error names its argument (see toolArgumentError).
	const asTool = runsAsTool(node);
	if (error instanceof ZodError) {
		const [issue] = error.issues;
		return asTool
			? toolArgumentError(node, itemIndex, labels, issue.path.map(String), issue.message)
			: schemaError(node, itemIndex, error, labels);
	}
	if (error instanceof InputError) {
		const path = error.field.split('.');
		return asTool
			? toolArgumentError(node, itemIndex, labels, path, error.message)
			: fieldError(node, itemIndex, fieldName(path, labels), error.message, error.details);
	}
	if (error instanceof NodeOperationError || error instanceof NodeApiError) return error;
	return new NodeOperationError(
		node,
		`Could not read the parameters of ${itemLabel(itemIndex)}: ${(error as Error)?.message ?? String(error)}`,
		{ itemIndex },
	);
}

/** Reads a setting (Batch Size) before any request: a problem is a field error, nothing sent. */
export function validated<T>(
	context: NodeContext,
	itemIndex: number,
	labels: FieldLabels,
	build: () => T,
): T {
	try {
		return build();
	} catch (error) {
		throw withNothingSent(asFieldError(context, itemIndex, labels, error));
	}
}

const NOTHING_SENT =
	'No item of this run was sent to the platform: every item is checked before the first request.';

export function withNothingSent(error: Error): Error {
	const withDescription = error as Error & { description?: string | null; forAgent?: boolean };
	// An error for a model already says that nothing was sent, without items.
	if (withDescription.forAgent) return error;
	withDescription.description = [
		withDescription.description?.replace(/ ?This item was not sent to the platform\.$/, ''),
		NOTHING_SENT,
	]
		.filter(Boolean)
		.join(' ');
	return error;
}
