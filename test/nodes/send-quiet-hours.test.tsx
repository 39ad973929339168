/**
 * Message › Send › Quiet Hours: runs of the node through n8n-core's engine against the sandbox at
 * a simulated time (Date.now moved, the rest real): who is messaged in which run, and what each
 * held item says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import { SentHistory } from '../../src/history';
import { processedData } from '../helpers/processed-data';
import { openConversation, outputOf, run, textMessage, useSandbox } from './context';

const ctx = useSandbox();
const realNow = Date.now.bind(Date);
/** Date.now reads `at` (UTC, ISO without the Z) plus the real time since this call. */
function clockAt(at: string): void {
	const offset = Date.parse(`${at}Z`) - realNow();
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
}
beforeEach(() => processedData.reset());
afterEach(() => jest.restoreAllMocks());

const SENDER = '15550100100';
/** Two recipients in each of six zones: one with its zone given, one with it from the number. */
const RECIPIENTS = [
	{ to: '+33612345678', timezone: 'Europe/Paris' },
	{ to: '+33612345679', timezone: '' },
	{ to: '+447911123456', timezone: 'Europe/London' },
	{ to: '+447911123457', timezone: '' },
	{ to: '+919812345678', timezone: 'Asia/Kolkata' },
	{ to: '+919812345679', timezone: '' },
	{ to: '+12125551234', timezone: 'America/New_York' },
	{ to: '+12125551235', timezone: '' },
	{ to: '+819012345678', timezone: 'Asia/Tokyo' },
	{ to: '+819012345679', timezone: '' },
	{ to: '+64211234567', timezone: 'Pacific/Auckland' },
	{ to: '+64211234568', timezone: '' },
];
const items = RECIPIENTS.map((json) => ({ json }));

function openConversations(): void {
	openConversation(ctx.sandbox);
	for (const { to } of RECIPIENTS) ctx.sandbox.simulateInbound(to, SENDER);
}

const send = (quietHours: Record<string, unknown> = {}, options: Record<string, unknown> = {}) =>
	textMessage({
		to: '={{ $json.to }}',
		options: {
			messagesPerSecond: 0,
			skipSentBefore: true,
			quietHours: { window: { timeZone: '={{ $json.timezone }}', ...quietHours } },
			...options,
		},
	});

const posted = () =>
	ctx.sandbox.requests
		.filter((request) => request.method === 'POST' && request.path.endsWith('/chatapp/messages'))
		.map((request) => (request.body as { to: string }).to);

/** Each item as recipient: status (sent, held at sendAfter, sentBefore). */
const outcomes = (output: INodeExecutionData[]) =>
	output.map(({ json }) =>
		[
			json.to,
			json.status === 'QUEUE' ? 'sent' : json.status,
			...(json.sendAfter ? [json.sendAfter] : []),
		].join(' '),
	);

describe('Message › Send › Quiet Hours', () => {
	it('sends only to those in their daytime, holds the others until their window opens, and an hour later sends the next ones, none twice', async () => {
		// Monday 08:30 UTC: 09:30 in Paris, 14:00 in Kolkata, 17:30 in Tokyo (open); 08:30 in London,
		// 03:30 in New York, 21:30 in Auckland (closed). A number with no zone given is in its
		// prefix's (Google's libphonenumber data: +1 212 New York, +64 21 Auckland).
		clockAt('2026-11-30T08:30');
		openConversations();
		const first = outputOf(await run(ctx.credentials, send(), items));
		expect(outcomes(first)).toEqual([
			'+33612345678 sent',
			'+33612345679 sent',
			'+447911123456 held 2026-11-30T09:00:00.000Z',
			'+447911123457 held 2026-11-30T09:00:00.000Z',
			'+919812345678 sent',
			'+919812345679 sent',
			'+12125551234 held 2026-11-30T14:00:00.000Z',
			'+12125551235 held 2026-11-30T14:00:00.000Z',
			'+819012345678 sent',
			'+819012345679 sent',
			'+64211234567 held 2026-11-30T20:00:00.000Z',
			'+64211234568 held 2026-11-30T20:00:00.000Z',
		]);
		expect(first.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(first[2].json).toMatchObject({
			from: SENDER,
			type: 'text',
			messageKey: expect.any(String),
		});
		// docs/operations.md's example of a held item has exactly the fields one has.
		const example = /```json\n(\{[^`]*"status": "held"[^`]*\})\n```/.exec(
			readFileSync(join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8'),
		);
		expect(Object.keys(first[2].json).sort()).toEqual(
			Object.keys(JSON.parse(example?.[1] ?? '{}') as object).sort(),
		);
		expect(posted()).toEqual([
			'+33612345678',
			'+33612345679',
			'+919812345678',
			'+919812345679',
			'+819012345678',
			'+819012345679',
		]);

		// An hour later London's window is open; the held were not recorded, so they go now.
		clockAt('2026-11-30T09:30');
		const second = outputOf(await run(ctx.credentials, send(), items));
		expect(outcomes(second)).toEqual([
			'+33612345678 sentBefore',
			'+33612345679 sentBefore',
			'+447911123456 sent',
			'+447911123457 sent',
			'+919812345678 sentBefore',
			'+919812345679 sentBefore',
			'+12125551234 held 2026-11-30T14:00:00.000Z',
			'+12125551235 held 2026-11-30T14:00:00.000Z',
			'+819012345678 sentBefore',
			'+819012345679 sentBefore',
			'+64211234567 held 2026-11-30T20:00:00.000Z',
			'+64211234568 held 2026-11-30T20:00:00.000Z',
		]);
		expect(posted().slice(6)).toEqual(['+447911123456', '+447911123457']);
		expect(new Set(posted()).size).toBe(posted().length);
	});

	it('sends a US number with no zone given at 10:00 in New York, and holds a Hawaii one', async () => {
		// Monday 15:00 UTC: 10:00 in New York, 05:00 in Honolulu (its 09:00 is 19:00 UTC).
		clockAt('2026-11-30T15:00');
		openConversations();
		ctx.sandbox.simulateInbound('+18085551234', SENDER);
		const output = outputOf(
			await run(ctx.credentials, send(), [
				{ json: RECIPIENTS[7] },
				{ json: { to: '+18085551234', timezone: '' } },
			]),
		);
		expect(outcomes(output)).toEqual([
			'+12125551235 sent',
			'+18085551234 held 2026-11-30T19:00:00.000Z',
		]);
		expect(posted()).toEqual(['+12125551235']);
	});

	it('holds the same items in a preview, and sends nothing', async () => {
		clockAt('2026-11-30T08:30');
		openConversations();
		const output = outputOf(await run(ctx.credentials, send({}, { preview: true }), items));
		expect(
			output.map(({ json }) => (json.status === 'held' ? `held ${json.sendAfter}` : json.status)),
		).toEqual([
			'preview',
			'preview',
			'held 2026-11-30T09:00:00.000Z',
			'held 2026-11-30T09:00:00.000Z',
			'preview',
			'preview',
			'held 2026-11-30T14:00:00.000Z',
			'held 2026-11-30T14:00:00.000Z',
			'preview',
			'preview',
			'held 2026-11-30T20:00:00.000Z',
			'held 2026-11-30T20:00:00.000Z',
		]);
		expect(posted()).toEqual([]);
	});

	it("follows the chosen days and a window across midnight, in each recipient's calendar", async () => {
		// Monday 21:30 UTC: Tuesday 06:30 in Tokyo, 10:30 in Auckland; Monday 22:30 in Paris.
		clockAt('2026-11-30T21:30');
		openConversations();
		const night = { from: '22:00', until: '07:00', days: ['monday'] };
		const output = outputOf(
			await run(ctx.credentials, send(night), items.slice(0, 2).concat(items.slice(8))),
		);
		expect(outcomes(output)).toEqual([
			'+33612345678 sent',
			'+33612345679 sent',
			'+819012345678 sent',
			'+819012345679 sent',
			// Auckland's Monday night ended; the next is Monday 2026-12-07 22:00 NZDT (09:00 UTC).
			'+64211234567 held 2026-12-07T09:00:00.000Z',
			// +64 21 is Auckland's from its prefix: the same time.
			'+64211234568 held 2026-12-07T09:00:00.000Z',
		]);
	});

	it('refuses before any request a time zone that is not one, and a country whose zones never share the window', async () => {
		clockAt('2026-11-30T08:30');
		openConversations();
		const wrongZone = await run(ctx.credentials, send(), [
			{ json: RECIPIENTS[0] },
			{ json: { to: '+33612345679', timezone: 'Europe/Pariss' } },
		]);
		expect(wrongZone.error?.message).toBe(
			'Invalid "Options › Quiet Hours › Recipient Time Zone" in item 1: an IANA time zone name such as Europe/Paris was expected, got the string "Europe/Pariss"',
		);
		// An Alaska number is in Adak's zone or Anchorage's, an hour apart.
		const narrow = await run(ctx.credentials, send({ from: '09:00', until: '10:00' }), [
			{ json: RECIPIENTS[0] },
			{ json: { to: '+19075551234', timezone: '' } },
		]);
		expect(narrow.error?.message).toMatch(
			/^Invalid "Options › Quiet Hours › Recipient Time Zone" in item 1: no moment of the week is inside the window in every time zone \+19075551234 may be in \(2, America\/Adak to America\/Anchorage\) at once/,
		);
		const badTime = await run(ctx.credentials, send({ from: '9h' }), items.slice(0, 1));
		expect(badTime.error?.message).toBe(
			'Invalid "Options › Quiet Hours › Send From" in item 0: a time such as 09:00 was expected, got the string "9h"',
		);
		expect(posted()).toEqual([]);
	});

	it('checks each message again when its turn comes: a window that closed meanwhile holds it', async () => {
		// 18:59:58 in Paris, a window until 19:00; once the first message is out, an hour passes.
		const start = Date.parse('2026-11-30T17:59:58Z');
		jest.spyOn(Date, 'now').mockImplementation(() => (posted().length ? start + 3_600_000 : start));
		openConversations();
		const parisOnly = Array.from({ length: 4 }, () => ({ json: RECIPIENTS[0] }));
		const output = outputOf(
			await run(
				ctx.credentials,
				send({ until: '19:00' }, { parallelRequests: 1, skipSentBefore: false }),
				parisOnly,
			),
		);
		expect(outcomes(output)).toEqual([
			'+33612345678 sent',
			...Array(3).fill('+33612345678 held 2026-12-01T08:00:00.000Z'),
		]);
		expect(posted()).toEqual(['+33612345678']);
	});

	it("checks again before a 429's resend: a window that closed during the pause holds the message, and a run in the next window sends it", async () => {
		// 19:59:59.5 in Paris, a window until 20:00, until the first POST (refused, Retry-After 1);
		// from then the clock runs: the resend would go at 20:00:00.5 or later.
		const start = Date.parse('2026-11-30T18:59:59.500Z');
		let refusedAt: number | undefined;
		jest.spyOn(Date, 'now').mockImplementation(() => {
			if (refusedAt === undefined && posted().length) refusedAt = realNow();
			return start + (refusedAt === undefined ? 0 : realNow() - refusedAt);
		});
		openConversations();
		ctx.sandbox.addFault({
			kind: 'rateLimit',
			method: 'POST',
			path: '/chatapp/messages',
			retryAfter: '1',
			times: 1,
		});
		const paris = [{ json: RECIPIENTS[0] }];
		const held = outputOf(await run(ctx.credentials, send({ until: '20:00' }), paris));
		expect(outcomes(held)).toEqual(['+33612345678 held 2026-12-01T08:00:00.000Z']);
		expect(ctx.sandbox.requests.filter(({ method }) => method === 'POST')).toMatchObject([
			{ path: expect.stringMatching(/\/chatapp\/messages$/), status: 429 },
		]);

		// Skip Messages Sent Before did not record it: the next morning's run sends it.
		clockAt('2026-12-01T08:30');
		const next = outputOf(await run(ctx.credentials, send({ until: '20:00' }), paris));
		expect(outcomes(next)).toEqual(['+33612345678 sent']);
		expect(posted()).toEqual(['+33612345678', '+33612345678']);
	});

	it('a recipient held in two runs, n8n killed in the second before its end, is sent by the run in its window', async () => {
		// 08:30 UTC: London's window (from 09:00) is closed; run 1 holds its recipient.
		clockAt('2026-11-30T08:30');
		openConversations();
		const london = [{ json: RECIPIENTS[2] }];
		expect(outcomes(outputOf(await run(ctx.credentials, send(), london)))).toEqual([
			'+447911123456 held 2026-11-30T09:00:00.000Z',
		]);
		// Run 2 holds it again; n8n is killed before the run ends: nothing after it is written.
		clockAt('2026-11-30T08:45');
		const kill = jest.spyOn(SentHistory.prototype, 'close').mockResolvedValue(undefined);
		expect(outcomes(outputOf(await run(ctx.credentials, send(), london)))).toEqual([
			'+447911123456 held 2026-11-30T09:00:00.000Z',
		]);
		kill.mockRestore();
		// Inside its window, the next run sends it: the killed run left nothing unconfirmed.
		clockAt('2026-11-30T09:30');
		expect(outcomes(outputOf(await run(ctx.credentials, send(), london)))).toEqual([
			'+447911123456 sent',
		]);
		expect(posted()).toEqual(['+447911123456']);
	});
});
