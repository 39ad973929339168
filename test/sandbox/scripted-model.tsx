/**
 * A scripted stand-in for an OpenAI-compatible chat model, so the AI agent demo runs without an
 * API key or the internet: `POST /__sandbox/model/v1/chat/completions` (an OpenAI credential's
 * Base URL `<sandbox>/__sandbox/model/v1`). Not part of the platform, and nothing the nodes use.
 *
 * The script is the conversation's system message: each JSON object in it gives the arguments of
 * one call to the first tool the agent offers, in order. When they are used up, the model answers
 * with the tool's answers, in order, as it received them.
 */
import { isPlainObject } from './http';

interface ChatMessage {
	role: string;
	content?: unknown;
}

/** The JSON objects written in a text, in order (balanced braces outside strings). */
export function jsonObjectsIn(text: string): Array<Record<string, unknown>> {
	const found: Array<Record<string, unknown>> = [];
	let depth = 0;
	let start = -1;
	let quote = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quote) {
			if (char === '\\') i++;
			else if (char === '"') quote = false;
		} else if (char === '"' && depth > 0) quote = true;
		else if (char === '{') {
			if (depth++ === 0) start = i;
		} else if (char === '}' && depth > 0 && --depth === 0) {
			try {
				const value = JSON.parse(text.slice(start, i + 1)) as unknown;
				if (isPlainObject(value)) found.push(value);
			} catch {
				// Not JSON: not a step of the script.
			}
		}
	}
	return found;
}

const textOf = (content: unknown): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part) => (isPlainObject(part) ? String(part.text ?? '') : '')).join('')
			: '';

/** The chat completion the script gives for a request body of POST /chat/completions. */
export function scriptedCompletion(body: unknown): Record<string, unknown> {
	const request: Record<string, unknown> = isPlainObject(body) ? body : {};
	const messages = (Array.isArray(request.messages) ? request.messages : []) as ChatMessage[];
	const tools = (Array.isArray(request.tools) ? request.tools : []) as Array<{
		function?: { name?: string };
	}>;
	const script = jsonObjectsIn(
		messages
			.filter((message) => message.role === 'system')
			.map((message) => textOf(message.content))
			.join('\n'),
	);
	const answers = messages.filter((message) => message.role === 'tool');
	const tool = tools[0]?.function?.name;
	const next = script[answers.length];
	const message =
		next && tool
			? {
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: `call_${answers.length + 1}`,
							type: 'function',
							function: { name: tool, arguments: JSON.stringify(next) },
						},
					],
				}
			: {
					role: 'assistant',
					content: answers.length
						? `The tool answered: ${answers.map((answer) => textOf(answer.content).slice(0, 1000)).join(', then: ')}`
						: 'No tool was called.',
				};
	return {
		id: `chatcmpl-scripted-${answers.length + 1}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: typeof request.model === 'string' ? request.model : 'scripted',
		choices: [
			{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' },
		],
		usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
	};
}
