import { runAsTool } from '../helpers/n8n';
import { node, outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

const SENDER = '15550100100';
const USER = '+33612345678';

const send = (extra: Record<string, unknown>) => ({
	resource: 'message',
	operation: 'send',
	from: '+1 555 010 0100',
	to: '+33 6 12 34 56 78',
	...extra,
});
const buttonsAsJson = (buttonsJson: unknown) =>
	send({
		messageType: 'interactive',
		bodyText: 'Keep the newsletter?',
		buttonsInput: 'json',
		buttonsJson,
	});
const contactsAsJson = (contactsJson: unknown) =>
	send({ messageType: 'contacts', contactsInput: 'json', contactsJson });

beforeEach(() => {
	ctx.sandbox.seedSender(
		{ providerId: 'prov-1', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	ctx.sandbox.simulateInbound(USER, SENDER);
});

describe('Message › Send: contacts and reply buttons given as one JSON value', () => {
	it('sends buttons given as JSON, in either shape, as reply buttons', async () => {
		const json = JSON.stringify([
			{ id: 'yes', title: 'Yes please' },
			{ type: 'reply', reply: { id: 'no', title: 'No' } },
		]);
		const [item] = outputOf(await run(ctx.credentials, buttonsAsJson(json)));
		expect(item.json).toMatchObject({ to: USER, type: 'interactive' });
		expect(ctx.sandbox.messages()[0].request).toMatchObject({
			interactive: {
				type: 'button',
				body: { text: 'Keep the newsletter?' },
				action: {
					buttons: [
						{ type: 'reply', reply: { id: 'yes', title: 'Yes please' } },
						{ type: 'reply', reply: { id: 'no', title: 'No' } },
					],
				},
			},
		});
	});

	it('sends contacts given as JSON in the API shape as they are', async () => {
		const contacts = [
			{
				name: { formatted_name: 'Ada Lovelace', first_name: 'Ada' },
				phones: [{ phone: '+44 20 7946 0000', type: 'WORK' }],
				urls: [{ url: 'https://example.com', type: 'WORK' }],
			},
		];
		outputOf(await run(ctx.credentials, contactsAsJson(JSON.stringify(contacts))));
		expect((ctx.sandbox.messages()[0].request as { contacts: unknown }).contacts).toEqual(contacts);
	});

	it.each([
		[
			'not JSON',
			buttonsAsJson('[{"id": "yes",'),
			/^Invalid "Buttons \(JSON\)" in item 0: it is not valid JSON/,
		],
		[
			'a title too long',
			buttonsAsJson([{ id: 'yes', title: 'x'.repeat(21) }]),
			/^Invalid "Buttons \(JSON\) #1 › title" in item 0: /,
		],
		[
			'no button',
			buttonsAsJson('[]'),
			/^Invalid "Buttons \(JSON\)" in item 0: an interactive message needs at least one reply button/,
		],
		[
			'a contact without first or last name',
			contactsAsJson([{ name: { formatted_name: 'Ada' } }]),
			/^Invalid "Contacts \(JSON\) #1 › name\.first_name" in item 0: /,
		],
	])('refuses %s before any request, naming the JSON field', async (_case, parameters, message) => {
		const result = await run(ctx.credentials, parameters);
		expect(result.error?.message).toMatch(message);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});

	it('takes the buttons an AI agent gives as one $fromAI() JSON argument', async () => {
		const { calls } = await runAsTool({
			nodeType: node,
			credentials: ctx.credentials,
			parameters: {
				...buttonsAsJson(
					"={{ $fromAI('buttons', 'the reply buttons, an array of {id, title}', 'json') }}",
				),
				to: USER,
			},
			calls: [
				{
					buttons: [
						{ id: 'a', title: 'Morning' },
						{ id: 'b', title: 'Evening' },
					],
				},
				{ buttons: [{ id: 'a' }] },
			],
		});
		expect(JSON.parse(calls[0].result!)[0]).toMatchObject({ type: 'interactive' });
		const buttons = (
			ctx.sandbox.messages()[0].request as {
				interactive: { action: { buttons: Array<{ reply: { title: string } }> } };
			}
		).interactive.action.buttons;
		expect(buttons.map((button) => button.reply.title)).toEqual(['Morning', 'Evening']);
		expect(JSON.parse(calls[1].result!)[0].error).toMatch(/^Invalid argument "buttons": /);
		expect(ctx.sandbox.messages()).toHaveLength(1);
	});
});
