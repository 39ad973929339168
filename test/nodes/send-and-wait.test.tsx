/**
 * Message › Send and Wait for Response in n8n's own execution engine, against the sandbox: checked
 * before anything is sent; one message, to the first item's recipient, holding n8n's signed links;
 * the execution put to wait until the limit; no wait after a preview or a message not sent.
 */
import { outputOf, run, useSandbox } from './context';

const ctx = useSandbox();

const SENDER = '15550100100';
const recipients = ['+33612340001', '+33612340002', '+33612340003'];

beforeEach(() => {
	ctx.sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: `+${SENDER}`, accountTier: 1 },
		{ active: true },
	);
	for (const to of recipients) ctx.sandbox.simulateInbound(to, SENDER);
});

const ask = (extra: Record<string, unknown> = {}) => ({
	resource: 'message',
	operation: 'sendAndWait',
	from: `+${SENDER}`,
	to: '={{ $json.to }}',
	message: '=Publish {{ $json.campaign }}?',
	...extra,
});
const items = recipients.map((to, i) => ({ json: { to, campaign: `C${i}` } }));
const sent = () => ctx.sandbox.messages();
const linksOf = (body: string) => [...body.matchAll(/https?:\/\/\S+/g)].map((m) => new URL(m[0]));

it('sends one message, to the first item, with signed approve and decline links, and waits until the limit', async () => {
	const before = Date.now();
	const result = await run(
		ctx.credentials,
		ask({
			approvalOptions: {
				values: { approvalType: 'double', approveLabel: 'Yes', disapproveLabel: 'No' },
			},
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' },
				},
				appendAttribution: false,
				externalId: 'campaignC0',
			},
		}),
		items,
	);
	expect(result.error).toBeUndefined();
	// While it waits, the node's output is its input.
	expect(outputOf(result).map((item) => item.json)).toEqual(items.map((item) => item.json));
	expect(result.hints).toEqual([
		expect.objectContaining({ message: expect.stringMatching(/one message.*other 2 items/) }),
	]);
	expect(result.waitTill!.getTime()).toBeGreaterThanOrEqual(before + 7_200_000);
	expect(result.waitTill!.getTime()).toBeLessThan(Date.now() + 7_200_000 + 1000);
	expect(sent()).toHaveLength(1);
	const { request } = sent()[0];
	expect(request).toMatchObject({
		from: SENDER,
		to: recipients[0],
		type: 'text',
		externalId: 'campaignC0',
	});
	const body = (request as { body: string }).body;
	// Decline first, as n8n's own chat nodes list them (a checker opening only the first declines).
	expect(body).toMatch(/^Publish C0\?\n\nNo:\nhttp\S+\n\nYes:\nhttp\S+$/);
	const [decline, approve] = linksOf(body);
	expect(approve.pathname).toMatch(/\/webhook-waiting\/[^/]+\/[^/]+$/);
	expect(approve.pathname).toBe(decline.pathname);
	expect(approve.searchParams.get('approved')).toBe('true');
	expect(decline.searchParams.get('approved')).toBe('false');
	expect(approve.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
	expect(approve.searchParams.get('signature')).not.toBe(decline.searchParams.get('signature'));
});

it("each wait has a value of its own, kept in the node's context and carried by its links", async () => {
	const waitOf = (result: Awaited<ReturnType<typeof run>>) =>
		JSON.parse(String(result.nodeContext?.audienceMessagingWait)) as {
			id: string;
			message: string;
			labels: Record<string, string>;
		};
	const parameters = ask({
		approvalOptions: { values: { approvalType: 'double', approveLabel: 'Yes' } },
	});
	const first = await run(ctx.credentials, parameters, items.slice(0, 1));
	const second = await run(ctx.credentials, parameters, items.slice(0, 1));
	const [firstWait, secondWait] = [waitOf(first), waitOf(second)];
	expect(firstWait).toEqual({
		id: expect.stringMatching(/^[\w-]{16}$/),
		message: 'Publish C0?',
		labels: { true: 'Yes', false: '✗ Decline' },
	});
	expect(secondWait.id).not.toBe(firstWait.id);
	const bodies = sent().map((message) => (message.request as { body: string }).body);
	expect(bodies).toHaveLength(2);
	for (const [index, wait] of [firstWait, secondWait].entries()) {
		const links = linksOf(bodies[index]);
		expect(links.map((link) => link.searchParams.get('wait'))).toEqual([wait.id, wait.id]);
	}
});

it("approve only by default, with n8n's attribution; without a limit it waits indefinitely", async () => {
	const result = await run(ctx.credentials, ask(), items.slice(0, 1));
	expect(result.error).toBeUndefined();
	expect(result.hints).toEqual([]);
	expect(result.waitTill).toEqual(new Date('3000-01-01T00:00:00.000Z'));
	const body = (sent()[0].request as { body: string }).body;
	expect(body).toMatch(
		/^Publish C0\?\n\n✓ Approve:\nhttp\S+\n\nThis message was sent automatically with n8n$/,
	);
	expect(linksOf(body)).toHaveLength(1);
});

it('free text: one link to the form, labelled as set', async () => {
	const result = await run(
		ctx.credentials,
		ask({ responseType: 'freeText', options: { messageButtonLabel: 'Answer here' } }),
		items.slice(0, 1),
	);
	expect(result.error).toBeUndefined();
	const body = (sent()[0].request as { body: string }).body;
	expect(body).toMatch(/\n\nAnswer here:\nhttp\S+approved=true\S*\n\nThis message/);
});

it('a custom form whose fields do not hold is refused before the message goes', async () => {
	const result = await run(
		ctx.credentials,
		ask({
			responseType: 'customForm',
			defineForm: 'json',
			jsonOutput: '[{"fieldLabel": "A"}, {"fieldLabel": "A"}]',
		}),
		items.slice(0, 1),
	);
	expect(result.error?.message).toMatch(/Form Fields/);
	expect(result.error?.message).toMatch(/used twice/);
	expect(sent()).toHaveLength(0);
	const fine = await run(
		ctx.credentials,
		ask({ responseType: 'customForm', defineForm: 'json', jsonOutput: '[{"fieldLabel": "A"}]' }),
		items.slice(0, 1),
	);
	expect(fine.error).toBeUndefined();
	expect((sent()[0].request as { body: string }).body).toMatch(/\n\nRespond:\nhttp/);
});

it.each<[string, Record<string, unknown>, RegExp]>([
	['an empty message', { message: '={{ "" }}' }, /Message/],
	['a recipient that is no phone number', { to: 'someone' }, /Recipient/],
	[
		'a limit date that is not one',
		{
			options: {
				limitWaitTime: { values: { limitType: 'atSpecifiedTime', maxDateAndTime: 'soon' } },
			},
		},
		/Limit Wait Time/,
	],
	[
		'an approve label as an object',
		{ approvalOptions: { values: { approveLabel: '={{ {} }}' } } },
		/Approve Button Label/,
	],
])(
	'refuses %s before anything is sent, naming the item and the field',
	async (_name, extra, field) => {
		const result = await run(ctx.credentials, ask(extra), items.slice(0, 1));
		expect(result.error?.message).toMatch(field);
		expect(result.error?.message).toMatch(/item 0|first item|item 1/i);
		expect(result.waitTill).toBeUndefined();
		expect(sent()).toHaveLength(0);
	},
);

it('a preview sends nothing and does not wait', async () => {
	const result = await run(ctx.credentials, ask({ options: { preview: true } }), items.slice(0, 1));
	const [item] = outputOf(result);
	expect(item.json).toMatchObject({ status: 'preview', to: recipients[0], type: 'text' });
	expect((item.json.request as { body: { body: string } }).body.body).toMatch(/approved=true/);
	expect(result.waitTill).toBeUndefined();
	expect(sent()).toHaveLength(0);
});

it('a message the platform refuses fails the node, or with On Error: Continue comes out as an error item, and nothing waits', async () => {
	const stranger = '+33699999999';
	const failed = await run(ctx.credentials, ask({ to: stranger }), items.slice(0, 1));
	expect(failed.error?.message).toBeDefined();
	expect(failed.waitTill).toBeUndefined();
	const continued = await run(ctx.credentials, ask({ to: stranger }), items.slice(0, 1), true);
	expect(outputOf(continued)[0].json.error).toBeDefined();
	expect(continued.waitTill).toBeUndefined();
});
