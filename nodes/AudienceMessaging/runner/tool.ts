/** The node as an AI agent's tool: detecting it, and errors worded for the calling model. */
import type { INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { FieldLabels } from '../../../src/base';
import { fieldName } from '../../../src/base';
import { fieldAt } from './labels';

/** As a tool (AI Agent, MCP Server Trigger), n8n runs a `usableAsTool` node as its `<name>Tool`. */
export function runsAsTool(node: Pick<INode, 'type'>): boolean {
	return /Tool$/.test(node.type);
}

const FROM_AI = /\$fromAI\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

/** The argument names of the `$fromAI()` calls in a raw value (nested too), in order, once each. */
export function fromAiKeys(value: unknown): string[] {
	const keys = new Set<string>();
	const visit = (entry: unknown) => {
		if (typeof entry === 'string')
			for (const match of entry.matchAll(FROM_AI)) keys.add(match[2].replace(/\\(.)/g, '$1'));
		else if (Array.isArray(entry)) entry.forEach(visit);
		else if (entry && typeof entry === 'object') Object.values(entry).forEach(visit);
	};
	visit(value);
	return [...keys];
}

/** What a field takes, for a model: its description's first sentence, choices or range, example. */
export function expectedFormat(field: INodeProperties): string | undefined {
	const parts: string[] = [];
	const sentence = field.description?.split(/(?<=[a-z0-9)"])\.\s/)[0].replace(/\.$/, '');
	if (sentence) parts.push(sentence);
	if (field.type === 'options' && Array.isArray(field.options)) {
		const values = field.options
			.map((option) => ('value' in option ? JSON.stringify(option.value) : undefined))
			.filter(Boolean);
		if (values.length) parts.push(`one of ${values.join(', ')}`);
	}
	if (field.type === 'boolean') parts.push('true or false');
	if (field.type === 'number') {
		const { minValue, maxValue } = field.typeOptions ?? {};
		if (minValue !== undefined && maxValue !== undefined)
			parts.push(`a number from ${minValue} to ${maxValue}`);
		else if (minValue !== undefined) parts.push(`a number of at least ${minValue}`);
		else parts.push('a number');
	}
	if (field.placeholder && /^e\.g\. /.test(field.placeholder)) parts.push(field.placeholder);
	return parts.length ? parts.join('; ') : undefined;
}

/**
 * A bad value worded for the calling model: its argument (the field's `$fromAI()` name) and what it
 * takes, no item numbers; a field without `$fromAI()` is a setting the model cannot change.
 */
export function toolArgumentError(
	node: INode,
	itemIndex: number,
	labels: FieldLabels,
	path: string[],
	problem: string,
): NodeOperationError {
	const found = fieldAt(labels, path);
	const keys = found ? fromAiKeys(node.parameters[found.parameter]) : [];
	const expected = found && expectedFormat(found.field);
	const because = problem.replace(/\.$/, '');
	const [message, description] = keys.length
		? [
				`Invalid argument ${keys.map((key) => `"${key}"`).join(' or ')}: ${because}${expected ? `. Expected: ${expected}` : ''}.`,
				'Nothing was sent. Call the tool again with a corrected value.',
			]
		: [
				`The tool's setting "${fieldName(path, labels)}" is invalid: ${because}.`,
				"Nothing was sent. The setting is part of the workflow, not an argument: the workflow's owner must fix it.",
			];
	const error = new NodeOperationError(node, message, { itemIndex, description });
	return Object.assign(error, { forAgent: true });
}
