/** Input errors that name a field by its UI label, and the n8n errors they become. */
import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import type { ZodError } from 'zod';

/** Labels shown to users for request fields, keyed by the dotted path zod reports. */
export type FieldLabels = Record<string, string>;

/** How a validation message names an item: n8n's itemIndex, from 0 as in the editor's list. */
export function itemLabel(itemIndex: number): string {
	return `item ${itemIndex}`;
}

/** A user's value in a message: a text quoted, cut to its first 100 characters and its length. */
export function quoted(value: unknown, quote = (text: string) => `"${text}"`): string {
	if (typeof value !== 'string') return JSON.stringify(value);
	const cut = value.length > 100 ? ` (${value.length} characters)` : '';
	return `${quote(cut ? `${value.slice(0, 100)}…` : value)}${cut}`;
}

/** A problem with one field of one input item, raised before any request is sent. */
export function fieldError(
	node: INode,
	itemIndex: number,
	field: string,
	problem: string,
	details?: string,
): NodeOperationError {
	return new NodeOperationError(node, `Invalid "${field}" in ${itemLabel(itemIndex)}: ${problem}`, {
		itemIndex,
		description: `${details ? `${details}\n` : ''}Fix the "${field}" value of ${itemLabel(itemIndex)} and run the node again. This item was not sent to the platform.`,
	});
}

/** The first zod issue as a fieldError, naming the field by its UI label where one is known. */
export function schemaError(
	node: INode,
	itemIndex: number,
	error: ZodError,
	labels: FieldLabels = {},
): NodeOperationError {
	const issue = error.issues[0];
	const path = issue.path.map(String);
	return fieldError(node, itemIndex, fieldName(path, labels), issue.message);
}

/** The UI name of a field from its dotted path ("columns.1.type" -> "Columns › Type #2"). */
export function fieldName(path: string[], labels: FieldLabels): string {
	// Try the full path, then the path without array indexes, then the longest labelled prefix.
	const dotted = path.join('.');
	if (labels[dotted]) return labels[dotted];
	const generic = path.filter((p) => !/^\d+$/.test(p)).join('.');
	const indexes = path.filter((p) => /^\d+$/.test(p));
	const suffix = indexes.length ? ` #${Number(indexes[0]) + 1}` : '';
	if (labels[generic]) return `${labels[generic]}${suffix}`;
	for (let i = path.length - 1; i > 0; i--) {
		const prefix = path
			.slice(0, i)
			.filter((p) => !/^\d+$/.test(p))
			.join('.');
		if (labels[prefix])
			return `${labels[prefix]}${suffix} › ${path
				.slice(i)
				.map((part) => part || '(empty name)')
				.join('.')}`;
	}
	return dotted || 'input';
}

/** Raised by the pure mapping functions of src/ when a parameter cannot become a request. */
export class InputError extends Error {
	constructor(
		readonly field: string,
		message: string,
		/** Starts the error's description: more than the message holds (a CSV's problems). */
		readonly details?: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}
