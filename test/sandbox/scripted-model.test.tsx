import { startSandbox } from '.';
import type { Sandbox } from '.';
import { jsonObjectsIn } from './scripted-model';

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ apiKey: 'k' });
});
afterAll(async () => await sandbox.close());

const complete = async (body: unknown) => {
	const response = await fetch(`${sandbox.url}/__sandbox/model/v1/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(200);
	return (await response.json()) as {
		choices: Array<{
			message: {
				content: string | null;
				tool_calls?: Array<{ function: { name: string; arguments: string } }>;
			};
			finish_reason: string;
		}>;
	};
};

describe('the scripted chat model of the AI agent demo (not the platform)', () => {
	it('reads the JSON objects of its script in order, strings with braces included', () => {
		expect(
			jsonObjectsIn(
				'first {"to": "tomorrow"}, then {"to": "+33 7", "note": "a } b"} and {not json}',
			),
		).toEqual([{ to: 'tomorrow' }, { to: '+33 7', note: 'a } b' }]);
	});

	it('calls the first tool with each step of the script, then answers with the tool answers it received, in order', async () => {
		const system = {
			role: 'system',
			content: 'Call with {"to": "tomorrow"}, then with {"to": "+33700000009"}.',
		};
		const tools = [{ type: 'function', function: { name: 'Check_blacklist', parameters: {} } }];
		const first = await complete({
			model: 'gpt-4o-mini',
			messages: [system, { role: 'user', content: 'Is it listed?' }],
			tools,
		});
		expect(first.choices[0].message.tool_calls?.[0].function).toEqual({
			name: 'Check_blacklist',
			arguments: '{"to":"tomorrow"}',
		});
		const second = await complete({
			messages: [system, { role: 'tool', content: '[{"error":"Invalid argument"}]' }],
			tools,
		});
		expect(JSON.parse(second.choices[0].message.tool_calls![0].function.arguments)).toEqual({
			to: '+33700000009',
		});
		const last = await complete({
			messages: [
				system,
				{ role: 'tool', content: 'x' },
				{ role: 'tool', content: '[{"blacklisted":true}]' },
			],
			tools,
		});
		expect(last.choices[0]).toMatchObject({
			message: { content: 'The tool answered: x, then: [{"blacklisted":true}]' },
			finish_reason: 'stop',
		});
	});
});
