import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import { z } from 'zod';

import { fieldError, schemaError } from '../../../../src/base/input-errors';
import { apiError, transportError } from '../../../../src/http/errors';
import { platformMessage } from '../../../../src/platform/error-message';

const node: INode = {
	id: '1',
	name: 'Audience Messaging',
	type: 'n8n-nodes-audience-messaging.audienceMessaging',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

describe('platformMessage', () => {
	it.each([
		[
			{ meta: {}, error: { status: 404, code: 'NOT_FOUND', message: 'List 42 not found' } },
			'List 42 not found',
		],
		[{ errors: [{ detail: 'Bad column' }] }, 'Bad column'],
		[{ message: 'Top level' }, 'Top level'],
		[{ error: 'Plain string error' }, 'Plain string error'],
		['Gateway exploded', 'Gateway exploded'],
		[{ meta: {} }, undefined],
		[null, undefined],
	])('finds the message in %j', (body, expected) => {
		expect(platformMessage(body)).toBe(expected);
	});
});

describe('apiError', () => {
	it('carries the HTTP status and the platform message', () => {
		const error = apiError(
			node,
			{ statusCode: 404, body: { error: { message: 'List 42 not found' } } },
			{ itemIndex: 3, action: 'get list 42' },
		);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe('List 42 not found [HTTP 404]');
		expect(error.description).toContain('get list 42');
		expect(error.context.itemIndex).toBe(3);
	});

	it('explains a refused key', () => {
		const error = apiError(node, {
			statusCode: 401,
			body: { error: { message: 'Invalid API key' } },
		});
		expect(error.httpCode).toBe('401');
		expect(error.message).toContain('Invalid API key');
		expect(error.description).toMatch(/API key/);
	});

	it('falls back to the status when the body has no message', () => {
		expect(apiError(node, { statusCode: 502, body: '' }).message).toBe(
			'The platform answered HTTP 502 [HTTP 502]',
		);
	});
});

describe('transportError', () => {
	it('never copies request configuration, so the key cannot leak', () => {
		const cause = Object.assign(
			new Error('connect ECONNREFUSED 127.0.0.1:9 (Authorization: Bearer secret-key-123)'),
			{
				code: 'ECONNREFUSED',
				config: { headers: { Authorization: 'Bearer secret-key-123' } },
			},
		);
		const error = transportError(node, cause, 'http://127.0.0.1:9/lists');
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toContain('Could not reach the platform at http://127.0.0.1:9/lists');
		expect(
			JSON.stringify({ ...error, message: error.message, description: error.description }),
		).not.toContain('secret-key-123');
	});
});

describe('field errors', () => {
	it('name the item and the field', () => {
		const error = fieldError(node, 2, 'Columns › Name', 'every column needs a name');
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('Invalid "Columns › Name" in item 2: every column needs a name');
		expect(error.context.itemIndex).toBe(2);
	});

	it('label zod paths with the editor labels and the position in a list', () => {
		const schema = z.object({
			columns: z.array(z.object({ name: z.string().min(1, 'every column needs a name') })),
		});
		const result = schema.safeParse({ columns: [{ name: 'a' }, { name: '' }] });
		if (result.success) throw new Error('expected a failure');
		const error = schemaError(node, 0, result.error, { 'columns.name': 'Columns › Name' });
		expect(error.message).toBe('Invalid "Columns › Name #2" in item 0: every column needs a name');
	});
});
