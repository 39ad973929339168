/**
 * Quiet Hours in a real n8n (the package installed from its tarball), against the sandbox, with
 * the recipes as shipped (demo/workflows/r4 and r5) and a window placed around the current time:
 * recipients in Dhaka (UTC+6) inside it, recipients in Kolkata (UTC+5:30) whose window opens a
 * minute or two later. Recipe 4 run twice (before and after the opening) and Recipe 5 once (its
 * Wait node until `sendAfter`) must each message every recipient exactly once, inside the window.
 */

import { executeWorkflow, importWorkflows, nodeOutput, runN8n } from './n8n-harness';
import type { RunData } from './n8n-harness';
import { CREDENTIAL, shippedRecipe, usePackageInN8n } from './package-setup';

jest.setTimeout(600_000);

const SENDER = { id: 'snd_quiet_hours1', address: '+447700900001' };
const ZONES = { 'Asia/Dhaka': 6 * 60, 'Asia/Kolkata': 5.5 * 60 } as const;
type Zone = keyof typeof ZONES;
/** Recipe 4's list and Recipe 5's, each two people per zone. */
const PEOPLE = {
	r4: [
		['+8801711000001', 'Asia/Dhaka'],
		['+8801711000002', 'Asia/Dhaka'],
		['+919812300001', 'Asia/Kolkata'],
		['+919812300002', 'Asia/Kolkata'],
	],
	r5: [
		['+8801711000003', 'Asia/Dhaka'],
		['+919812300003', 'Asia/Kolkata'],
		['+919812300004', 'Asia/Kolkata'],
	],
} as Record<'r4' | 'r5', Array<[string, Zone]>>;

const MINUTE = 60_000;

/**
 * Recipe 4 again, with a history and list of its own and On Error at Continue: a person in New
 * York (held: the window is Dhaka's hour around now, and New York is 10 or 11 hours behind) and
 * one in Dhaka.
 */
const KILLED = {
	id: 'amRecipeKilled01',
	listId: '',
	people: [
		['+12125550101', 'America/New_York'],
		['+8801711000009', 'Asia/Dhaka'],
	] as Array<[string, string]>,
};
/** The time in `zone` at `at` (HH:MM). */
const localClock = (at: number, zone: string) =>
	new Intl.DateTimeFormat('en-GB', {
		timeZone: zone,
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	}).format(at);
/** KILLED's workflow, its window the hour around now in `zone`'s time. */
function killedRecipe(zone: string): Workflow {
	const workflow = recipe('r4-daytime-campaign.json', KILLED.listId, {
		campaign: 'e2e-killed',
		sendFrom: localClock(Date.now() - 60 * MINUTE, zone),
		sendUntil: localClock(Date.now() + 60 * MINUTE, zone),
	});
	for (const node of workflow.nodes)
		if (node.name === 'Send Message') node.onError = 'continueRegularOutput';
	return { ...workflow, id: KILLED.id };
}
/**
 * When Kolkata's window opens: the first whole minute at least 75 s after the workflows are
 * made (imports and Recipe 4's first run fit before it on a busy machine), so at most 135 s.
 */
let opens = 0;
const clock = (at: number, zone: Zone) => {
	const minutes = Math.floor(at / MINUTE + ZONES[zone]) % (24 * 60);
	return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
};

type Workflow = ReturnType<typeof shippedRecipe>;
/**
 * A recipe as shipped, its Settings given this run's list and window (or `settings`), and the e2e
 * credential.
 */
const recipe = (file: string, listId: string, settings: Record<string, string> = {}): Workflow =>
	shippedRecipe(file, CREDENTIAL, {
		listId,
		senderPhone: SENDER.address,
		senderId: SENDER.id,
		campaign: 'e2e-quiet',
		sendFrom: clock(opens, 'Asia/Kolkata'),
		sendUntil: clock(opens + 60 * MINUTE, 'Asia/Kolkata'),
		...settings,
	});

const n8n = usePackageInN8n('n8n-e2e-quiet-', () => {
	const { sandbox } = n8n;
	sandbox.seedSender(
		{ providerId: 'prov-1', name: 'ACME', address: SENDER.address, accountTier: 1 },
		{
			active: true,
			id: SENDER.id,
		},
	);
	const lists = Object.fromEntries(
		(['r4', 'r5'] as const).map((key) => {
			for (const [mobile] of PEOPLE[key]) sandbox.simulateInbound(mobile, SENDER.address.slice(1));
			const list = sandbox.seedList({
				name: `quiet hours ${key}`,
				columns: [
					{ name: 'mobile', type: 'STRING' },
					{ name: 'first_name', type: 'STRING' },
					{ name: 'timezone', type: 'STRING' },
				],
				rows: PEOPLE[key].map(([mobile, timezone], index) => ({
					mobile,
					first_name: `P${index}`,
					timezone,
				})),
			});
			return [key, String(list.id)];
		}),
	);
	opens = Math.ceil((Date.now() + 75_000) / MINUTE) * MINUTE;
	for (const [mobile] of KILLED.people) sandbox.simulateInbound(mobile, SENDER.address.slice(1));
	KILLED.listId = String(
		sandbox.seedList({
			name: 'quiet hours, n8n killed',
			columns: [
				{ name: 'mobile', type: 'STRING' },
				{ name: 'first_name', type: 'STRING' },
				{ name: 'timezone', type: 'STRING' },
			],
			rows: KILLED.people.map(([mobile, timezone], index) => ({
				mobile,
				first_name: `K${index}`,
				timezone,
			})),
		}).id,
	);
	return [
		recipe('r4-daytime-campaign.json', lists.r4),
		recipe('r5-wait-for-daytime.json', lists.r5),
		killedRecipe('Asia/Dhaka'),
	];
});

/** The messages the sandbox accepted, by recipient: when each arrived. */
function received(people: Array<[string, Zone]>): Record<string, number[]> {
	const numbers = new Set(people.map(([mobile]) => mobile));
	const times: Record<string, number[]> = Object.fromEntries(
		people.map(([mobile]) => [mobile, []]),
	);
	for (const request of n8n.sandbox.requests)
		if (
			request.method === 'POST' &&
			request.path.endsWith('/chatapp/messages') &&
			request.status < 300
		) {
			const to = (request.body as { to: string }).to;
			if (numbers.has(to)) times[to].push(request.receivedAt);
		}
	return times;
}

/** Each item a node of the run output: its recipient and status. */
const outcomes = (result: { runData: RunData }, node: string) =>
	nodeOutput(result.runData, node).map((item) => [item.to, item.status]);

const sleepUntil = async (at: number) =>
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/** Each person once, while the window was open for them (Kolkata from `opens`, Dhaka 30 min before). */
function expectOnceEachInWindow(people: Array<[string, Zone]>) {
	const times = received(people);
	for (const [mobile, zone] of people) {
		const from = zone === 'Asia/Kolkata' ? opens : opens - 30 * MINUTE;
		expect({ mobile, messages: times[mobile].length }).toEqual({ mobile, messages: 1 });
		expect({
			mobile,
			inWindow: times[mobile][0] >= from && times[mobile][0] < from + 60 * MINUTE,
		}).toEqual({
			mobile,
			inWindow: true,
		});
	}
}

it('Recipe 4 run before and after the window opens: Dhaka at the first run, Kolkata at the second, each once', async () => {
	const first = await executeWorkflow(n8n.folder, 'amRecipeHourly01');
	expect(first.status).toBe('success');
	const sendAfter = new Date(opens).toISOString();
	expect(
		nodeOutput(first.runData, 'Send Message').map((item) => [item.to, item.status, item.sendAfter]),
	).toEqual([
		['+8801711000001', 'QUEUE', undefined],
		['+8801711000002', 'QUEUE', undefined],
		['+919812300001', 'held', sendAfter],
		['+919812300002', 'held', sendAfter],
	]);

	// Recipe 5 meanwhile, started under a minute before the opening so that n8n's Wait node
	// waits in its process (n8n keeps waits over 65 s in its database, resumed once a minute), and
	// early enough that its Kolkata people are held.
	await sleepUntil(opens - 55_000);
	expect(opens - Date.now()).toBeGreaterThan(10_000);
	const waited = await executeWorkflow(n8n.folder, 'amRecipeWaitOpen');
	expect(waited.status).toBe('success');
	expect(outcomes(waited, 'Send Message')).toEqual([
		['+8801711000003', 'QUEUE'],
		['+919812300003', 'held'],
		['+919812300004', 'held'],
	]);
	expect(outcomes(waited, 'Send When Open')).toEqual([
		['+919812300003', 'QUEUE'],
		['+919812300004', 'QUEUE'],
	]);
	expectOnceEachInWindow(PEOPLE.r5);

	await sleepUntil(opens);
	const second = await executeWorkflow(n8n.folder, 'amRecipeHourly01');
	expect(second.status).toBe('success');
	expect(outcomes(second, 'Send Message')).toEqual([
		['+8801711000001', 'sentBefore'],
		['+8801711000002', 'sentBefore'],
		['+919812300001', 'QUEUE'],
		['+919812300002', 'QUEUE'],
	]);
	expectOnceEachInWindow(PEOPLE.r4);
});

it('a person held in two runs, n8n killed (SIGKILL) in the second while it sent to another, is sent by the next run in their window', async () => {
	const [held, other] = KILLED.people.map(([mobile]) => mobile);
	// This test's requests only: the recipes' runs before it sent too.
	const earlier = n8n.sandbox.requests.length;
	const sends = () =>
		n8n.sandbox.requests
			.slice(earlier)
			.filter((request) => request.method === 'POST' && request.path.endsWith('/chatapp/messages'));
	// A request the sandbox holds open has no body read.
	const posts = (to: string) =>
		sends().filter((request) => (request.body as { to?: string } | undefined)?.to === to);
	// Run 1: New York held; Dhaka's message refused (400), so both are known, neither sent.
	n8n.sandbox.addFault({
		kind: 'status',
		status: 400,
		body: { message: 'Invalid recipient' },
		method: 'POST',
		path: '/chatapp/messages',
		times: 1,
	});
	const first = await executeWorkflow(n8n.folder, KILLED.id);
	const firstItems = nodeOutput(first.runData, 'Send Message');
	expect([firstItems[0].to, firstItems[0].status]).toEqual([held, 'held']);
	expect(firstItems[1].error).toMatch(/Invalid recipient/);
	expect(posts(other).map((request) => request.status)).toEqual([400]);
	n8n.sandbox.clearFaults();

	// Run 2: New York held again; Dhaka's request hangs, and n8n is killed while it waits.
	n8n.sandbox.addFault({ kind: 'hang', method: 'POST', path: '/chatapp/messages' });
	let kill: ((signal: NodeJS.Signals) => void) | undefined;
	const killed = runN8n(n8n.folder, ['execute', `--id=${KILLED.id}`, '--rawOutput'], {
		onStart: (stop) => (kill = stop),
	});
	const deadline = Date.now() + 180_000;
	while (sends().length < 2 && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 100));
	expect(sends()).toHaveLength(2);
	kill!('SIGKILL');
	expect((await killed).signal).toBe('SIGKILL');
	n8n.sandbox.clearFaults();

	// Run 3, the window now open in New York: the held person is sent; the message n8n was
	// sending when killed may have arrived: unknown, not sent again.
	await importWorkflows(n8n.folder, [killedRecipe('America/New_York')]);
	const third = await executeWorkflow(n8n.folder, KILLED.id);
	expect(outcomes(third, 'Send Message')).toEqual([
		[held, 'QUEUE'],
		[other, 'unknown'],
	]);
	expect(posts(held).map((request) => request.status)).toEqual([200]);
	expect(sends()).toHaveLength(3);
});
