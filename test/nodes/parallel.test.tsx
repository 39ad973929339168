import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
import { API_KEY, credentialsFor, outputOf, run } from './context';

/**
 * Parallel requests against a platform 300 ms away: several are in flight at once (a request
 * arrives before the previous one was answered, which one-at-a-time sending can never do), and
 * the output keeps the input order and pairing.
 */
let sandbox: Sandbox;
const LATENCY_MS = 300;
beforeAll(async () => {
	sandbox = await startSandbox({ apiKey: API_KEY, latencyMs: LATENCY_MS });
});
beforeEach(() => sandbox.reset());
afterAll(async () => await sandbox.close());

/**
 * Whether a request reached the sandbox before an earlier one was answered (no timing assumption: a
 * busy machine cannot fake or hide it).
 */
const overlapped = () => {
	const requests = [...sandbox.requests].sort((a, b) => a.receivedAt - b.receivedAt);
	let latestAnswer = -Infinity;
	return requests.some((request) => {
		const overlaps = request.receivedAt < latestAnswer;
		latestAnswer = Math.max(latestAnswer, request.answeredAt ?? Infinity);
		return overlaps;
	});
};
const recipients = (count: number): INodeExecutionData[] =>
	Array.from({ length: count }, (_, i) => ({
		json: { to: `+3361234${String(i).padStart(4, '0')}` },
	}));
const check = (options: INodeParameters): INodeParameters => ({
	resource: 'blacklist',
	operation: 'check',
	channel: 'SMS',
	from: 'ACME',
	to: '={{ $json.to }}',
	options,
});

it('Blacklist › Check sends several lookups at once and keeps the order', async () => {
	sandbox.seedBlacklist({ from: 'ACME', type: 'SMS', to: '+33612340003', reason: 'UNSUBSCRIBED' });
	const output = outputOf(
		await run(credentialsFor(sandbox, API_KEY), check({ parallelRequests: 5 }), recipients(10)),
	);
	expect(output.map((item) => [item.json.to, item.json.blacklisted])).toEqual(
		recipients(10).map((item) => [item.json.to, item.json.to === '+33612340003']),
	);
	expect(output.map((item) => item.pairedItem)).toEqual(
		Array.from({ length: 10 }, (_, item) => ({ item })),
	);
	expect(sandbox.requests).toHaveLength(10);
	expect(overlapped()).toBe(true);
});

it('Parallel Requests 1 sends one lookup after the other', async () => {
	outputOf(
		await run(credentialsFor(sandbox, API_KEY), check({ parallelRequests: 1 }), recipients(3)),
	);
	expect(sandbox.requests).toHaveLength(3);
	expect(overlapped()).toBe(false);
});

it('Wallet Pass › Create sends several batches at once and matches every pass to its item', async () => {
	const members = Array.from(
		{ length: 6 },
		(_, i): INodeExecutionData => ({ json: { email: `m${i}@x.io` } }),
	);
	const output = outputOf(
		await run(
			credentialsFor(sandbox, API_KEY),
			{
				resource: 'walletPass',
				operation: 'create',
				templateSerial: { __rl: true, mode: 'id', value: 'tpl-gold-member' },
				recipientId: '={{ $json.email }}',
				options: { batchSize: 2, parallelRequests: 3 },
			},
			members,
		),
	);
	expect(output.map((item) => [item.json.recipientId, item.pairedItem])).toEqual(
		members.map((member, item) => [member.json.email, { item }]),
	);
	expect(output.every((item) => typeof item.json.url === 'string')).toBe(true);
	expect(sandbox.requests).toHaveLength(3);
	expect(overlapped()).toBe(true);
});

/** Most requests the sandbox held at once (received, not yet answered). */
const mostInFlight = () =>
	Math.max(
		...sandbox.requests.map(
			(request) =>
				sandbox.requests.filter(
					(other) =>
						other.receivedAt <= request.receivedAt &&
						request.receivedAt < (other.answeredAt ?? Infinity),
				).length,
		),
	);

it('Message › Send keeps up to 10 messages in flight by default (enough for 50/s at 80 ms), never more', async () => {
	const sender = sandbox.seedSender(
		{ providerId: 'p', name: 'ACME', address: '+15550100100', accountTier: 1 },
		{ active: true },
	);
	const items = recipients(25);
	for (const item of items) sandbox.simulateInbound(String(item.json.to), sender.address);
	// A platform 1 s away: the first ten are all in flight long before the first answer, even on a
	// busy machine.
	sandbox.setLatency(1000);
	const result = await run(
		credentialsFor(sandbox, API_KEY),
		{
			resource: 'message',
			operation: 'send',
			messageType: 'text',
			from: '+1 555 010 0100',
			to: '={{ $json.to }}',
			text: 'Hi',
			options: { messagesPerSecond: 0 },
		},
		items,
	).finally(() => sandbox.setLatency(LATENCY_MS));
	const output = outputOf(result);
	expect(output.map((item) => [item.json.to, item.pairedItem])).toEqual(
		items.map((item, index) => [item.json.to, { item: index }]),
	);
	expect(sandbox.messages()).toHaveLength(25);
	expect(mostInFlight()).toBe(10);
});
