/**
 * The sent history's rules (src/history/sent-history.ts), on n8n's store as the node harness models
 * it (test/helpers/processed-data.tsx: n8n's own rules for `entries`, one row per node, no lock).
 */
import {
	HISTORY_MAX_VALUES,
	MAX_CLAIM_AHEAD,
	REMOVALS_PER_CALL,
	SentHistory,
} from '../../../../src/history';
import type { HistoryStore } from '../../../../src/history';
import { MemoryProcessedData } from '../../../helpers/processed-data';

const context = { workflow: { id: 'wf-1', active: false }, node: { id: 'node-1' } } as never;

/** One node's history in a store, as the node reaches it (scope `node`, mode `entries`). */
function storeOf(data: MemoryProcessedData, maxEntries = HISTORY_MAX_VALUES): HistoryStore {
	const entries = { mode: 'entries' } as const;
	return {
		record: async (values, bounded) => {
			const { processed } = await data.checkProcessedAndRecord(
				values,
				'node',
				context,
				bounded ? { ...entries, maxEntries } : entries,
			);
			return { processed: processed.map(String) };
		},
		remove: async (values) => await data.removeProcessed(values, 'node', context),
		clear: async () => await data.clearAllProcessedItems('node', context),
		count: async () => await data.getProcessedDataCount('node', context),
	};
}

let data: MemoryProcessedData;
beforeEach(() => (data = new MemoryProcessedData()));

const historyOf = (
	options: {
		preview?: boolean;
		claimAhead?: number;
		maxEntries?: number;
		now?: () => number;
		row?: string;
	} = {},
) =>
	new SentHistory(storeOf(data, options.maxEntries), {
		row: options.row ?? 'wf-1 node-1',
		claimAhead: options.claimAhead ?? 100,
		preview: options.preview,
		now: options.now,
	});

/**
 * One run: looks the keys up, sends the new ones (each settled as `outcome` says, default sent),
 * closes; returns what the lookup found.
 */
async function runOnce(
	keys: string[],
	outcome: (key: string) => 'sent' | 'notSent' | 'unknown' | 'never' = () => 'sent',
	options: Parameters<typeof historyOf>[0] & { resend?: boolean } = {},
) {
	const history = historyOf(options);
	const found = await history.lookUp(keys);
	const send = keys.filter(
		(key) => found.get(key) === 'new' || (options.resend && found.get(key) === 'unconfirmed'),
	);
	history.plan(
		send,
		send.filter((key) => found.get(key) === 'unconfirmed'),
	);
	for (const key of send) {
		const settlement = outcome(key);
		if (settlement === 'never') continue;
		expect(await history.claim(key)).toBe(true);
		history.settle(key, settlement);
	}
	await history.close();
	return { found: Object.fromEntries(found), history };
}

/**
 * The row as a process n8n then killed names it: the claims its runs had in memory went with it
 * (runs of one process see each other's: see 'runs at once').
 */
let processes = 0;
const killed = () => `wf-1 node-1, in process ${++processes}, which n8n killed`;

/** Plans the keys, claims each (every claim the run's) and settles it sent. */
async function sendEach(history: SentHistory, send: string[]) {
	history.plan(send);
	for (const key of send) {
		expect(await history.claim(key)).toBe(true);
		history.settle(key, 'sent');
	}
}

const keys = (count: number, prefix = 'k') =>
	Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('a sent history: exactly the messages that went out are remembered', () => {
	it('remembers a message the platform accepted: the next run finds it sent', async () => {
		expect((await runOnce(['a', 'b'])).found).toEqual({ a: 'new', b: 'new' });
		expect((await runOnce(['a', 'b', 'c'])).found).toEqual({ a: 'sent', b: 'sent', c: 'new' });
	});

	it('releases a message the platform refused or the run did not send: the next run sends it', async () => {
		await runOnce(['a', 'b', 'c'], (key) => (key === 'b' ? 'notSent' : 'sent'));
		expect((await runOnce(['a', 'b', 'c'])).found).toEqual({ a: 'sent', b: 'new', c: 'sent' });
	});

	it('releases messages claimed ahead but never started (the run stopped on an error)', async () => {
		// Claimed in one window of 10; the run stops after the third.
		await runOnce(keys(10), (key) => (Number(key.slice(1)) < 3 ? 'sent' : 'never'), {
			claimAhead: 10,
		});
		const { found } = await runOnce(keys(10));
		expect(Object.values(found)).toEqual([...Array(3).fill('sent'), ...Array(7).fill('new')]);
	});

	it('keeps a message whose answer was lost claimed: the next run finds it unconfirmed, and one that resends it confirms it', async () => {
		await runOnce(['a', 'b'], (key) => (key === 'b' ? 'unknown' : 'sent'));
		expect((await runOnce(['a', 'b'])).found).toEqual({ a: 'sent', b: 'unconfirmed' });
		// Still unconfirmed: the lookup changed nothing.
		expect((await runOnce(['a', 'b'])).found).toEqual({ a: 'sent', b: 'unconfirmed' });
		await runOnce(['a', 'b'], () => 'sent', { resend: true });
		expect((await runOnce(['a', 'b'])).found).toEqual({ a: 'sent', b: 'sent' });
	});

	it('a resent unconfirmed message that is refused again stays unconfirmed (the earlier run may have sent it)', async () => {
		await runOnce(['a'], () => 'unknown');
		await runOnce(['a'], () => 'notSent', { resend: true });
		expect((await runOnce(['a'])).found).toEqual({ a: 'unconfirmed' });
	});

	it('a message claimed but never confirmed, because the process died in between, is unconfirmed for the next run', async () => {
		const dying = historyOf({ row: killed() });
		await dying.lookUp(['a', 'b', 'c']);
		dying.plan(['a', 'b', 'c']);
		for (const key of ['a', 'b', 'c']) expect(await dying.claim(key)).toBe(true);
		dying.settle('a', 'sent');
		// n8n stops here: no close(), the confirmation of a is never written.
		const { found } = await runOnce(['a', 'b', 'c', 'd']);
		expect(found).toEqual({ a: 'unconfirmed', b: 'unconfirmed', c: 'unconfirmed', d: 'new' });
	});

	it('a claim of the window ahead is what the next run finds unconfirmed after a crash, not the whole run', async () => {
		// A message a second, writes at once: windows of about 5 s of pace.
		let clock = 0;
		let alive = true;
		const store = storeOf(data);
		const dying = new SentHistory(
			{
				...store,
				record: async (values, bounded) => {
					if (!alive) throw new Error('the process is gone');
					return await store.record(values, bounded);
				},
			},
			{ row: killed(), claimAhead: 4, now: () => clock },
		);
		const all = keys(20);
		await dying.lookUp(all);
		dying.plan(all);
		for (const key of all.slice(0, 5)) {
			expect(await dying.claim(key)).toBe(true);
			clock += 1000;
			dying.settle(key, 'sent');
		}
		// The run dies after five (its writes not yet made never are): the confirmations written with
		// the next window's claims count.
		alive = false;
		const { found } = await runOnce(all);
		const states = Object.values(found);
		// Sent and confirmed: the first four (each pair written by the settle half a second or more
		// after the first of it; with 2 s, only the first two, written with the second window).
		// Claimed, unconfirmed: the rest of the two windows (4, then 5 s of pace: 5). Never claimed:
		// the other eleven.
		expect(states).toEqual([
			...Array(4).fill('sent'),
			...Array(5).fill('unconfirmed'),
			...Array(11).fill('new'),
		]);
	});

	it('a run given again what a stopped run never attempted takes back the attempts it asked and writes their claims anew, a few per call', async () => {
		// Stopped after 3 of 100, its window of 4 claimed: the 4th is taken back at its end.
		await runOnce(keys(100), (key) => (Number(key.slice(1)) < 3 ? 'sent' : 'never'), {
			claimAhead: 4,
		});
		const removals = data.calls.removeProcessed ?? 0;
		const { found } = await runOnce(keys(100));
		expect(Object.values(found)).toEqual([...Array(3).fill('sent'), ...Array(97).fill('new')]);
		// The 97 attempts asked, and the 97 claims written anew (see the bound's tests), REMOVALS_PER_CALL
		// to a call.
		expect((data.calls.removeProcessed ?? 0) - removals).toBe(
			2 * Math.ceil(97 / REMOVALS_PER_CALL),
		);
		expect(Object.values((await runOnce(keys(100))).found)).toEqual(Array(100).fill('sent'));
	});

	it('a run that sends again what a stopped run left, and stops too, releases what it did not send', async () => {
		await runOnce(keys(6), (key) => (key === 'k0' ? 'sent' : 'never'), { claimAhead: 1 });
		// The second run is given them again, sends k1, and stops.
		await runOnce(keys(6), (key) => (key === 'k1' ? 'sent' : 'never'), { claimAhead: 1 });
		const { found } = await runOnce(keys(6), () => 'never');
		expect(Object.values(found)).toEqual(['sent', 'sent', 'new', 'new', 'new', 'new']);
	});

	it('a preview looks keys up and leaves the store as it was', async () => {
		await runOnce(['a', 'b'], (key) => (key === 'b' ? 'unknown' : 'sent'));
		const row = [...data.rows.values()][0].join();
		const preview = historyOf({ preview: true });
		expect(Object.fromEntries(await preview.lookUp(['a', 'b', 'c']))).toEqual({
			a: 'sent',
			b: 'unconfirmed',
			c: 'new',
		});
		preview.plan(['c']);
		expect(await preview.claim('c')).toBe(true);
		preview.settle('c', 'sent');
		expect(await preview.forget('spring')).toBe(true);
		await preview.close();
		expect([...data.rows.values()][0].join()).toBe(row);
	});

	it('a preview of a node with no history writes nothing at all', async () => {
		const preview = historyOf({ preview: true });
		await preview.lookUp(['a']);
		expect(data.rows.size).toBe(0);
		expect(data.calls.checkProcessedAndRecord).toBeUndefined();
	});

	it('forgetting the history makes every message new again, once per label', async () => {
		await runOnce(['a', 'b']);
		const history = historyOf();
		expect(await history.forget('spring')).toBe(true);
		expect(Object.fromEntries(await history.lookUp(['a', 'b']))).toEqual({ a: 'new', b: 'new' });
		await runOnce(['a', 'b']);
		// A retry of that run, or another run given the same label, forgets nothing.
		expect(await historyOf({ preview: true }).forget('spring')).toBe(false);
		expect(await historyOf().forget('spring')).toBe(false);
		expect((await runOnce(['a', 'b'])).found).toEqual({ a: 'sent', b: 'sent' });
		// A new label forgets again; a preview says it would, and leaves the history as it was.
		expect(await historyOf({ preview: true }).forget('summer')).toBe(true);
		expect((await runOnce(['a'])).found).toEqual({ a: 'sent' });
		expect(await historyOf().forget('summer')).toBe(true);
		expect((await runOnce(['a'])).found).toEqual({ a: 'new' });
	});

	it('claims and confirms in batches: 10,000 messages take a handful of writes, not one per message', async () => {
		const all = keys(10_000);
		// The clock stands still: a busy machine's slow loop would add the half-second confirmations.
		const { history } = await runOnce(all, () => 'sent', { claimAhead: 1000, now: () => 0 });
		// The lookup, the windows of claims (each carrying the confirmations before it), the close.
		expect(history.row.calls).toBeLessThanOrEqual(13);
		expect((await runOnce(all.slice(0, 3))).found).toEqual({ k0: 'sent', k1: 'sent', k2: 'sent' });
		// Three values per message at most.
		expect(data.size('wf-1', 'node-1')).toBe(30_000);
	});

	it('claims about five seconds of the measured pace at once, longer while the store is slow to write, up to MAX_CLAIM_AHEAD', async () => {
		let clock = 0;
		const store = storeOf(data);
		const sizes: number[] = [];
		let closing = false;
		/** A run of `count` messages, each taking `sendMs`, against a store whose writes take `writeMs`. */
		const windows = async (count: number, sendMs: number, writeMs: number) => {
			sizes.length = 0;
			const timed: HistoryStore = {
				...store,
				record: async (values, bounded) => {
					clock += writeMs;
					// New claims: attempts written without their confirmation (a sent key's go together).
					const written = new Set(values);
					const attempts = values.filter(
						(value) => value.startsWith('am1a:') && !written.has(`am1s:${value.slice(5)}`),
					).length;
					if (attempts && !closing) sizes.push(attempts);
					return await store.record(values, bounded);
				},
			};
			const history = new SentHistory(timed, {
				row: 'wf-1 node-1',
				claimAhead: 10,
				now: () => clock,
			});
			const all = keys(count, `${sendMs}-${writeMs}-`);
			await history.lookUp(all);
			history.plan(all);
			for (const key of all) {
				expect(await history.claim(key)).toBe(true);
				clock += sendMs;
				history.settle(key, 'sent');
			}
			// The windows are the run's: close's last check records everything again.
			closing = true;
			await history.close();
			closing = false;
			return [...sizes];
		};
		// 100 messages a second, a fast store: 10 first, then about 5 s of pace (500) at once.
		const paced = await windows(2000, 10, 1);
		expect(paced[0]).toBe(10);
		expect(Math.max(...paced.slice(1))).toBeGreaterThanOrEqual(450);
		expect(Math.max(...paced.slice(1))).toBeLessThanOrEqual(550);
		// The same pace, a store taking 1 s a write: windows of 10 s of pace (1,000).
		const slow = await windows(3000, 10, 1000);
		expect(Math.max(...slow.slice(1))).toBeGreaterThanOrEqual(900);
		// No time to send at all: the most there is.
		const instant = await windows(30_000, 0, 1);
		expect(Math.max(...instant)).toBe(MAX_CLAIM_AHEAD);
		expect(MAX_CLAIM_AHEAD).toBe(10_000);
	});

	it('of two runs given the same key at once, one claims it: the other is told another run has it', async () => {
		const first = historyOf();
		const second = historyOf();
		await first.lookUp(['a']);
		await second.lookUp(['a']);
		first.plan(['a']);
		second.plan(['a']);
		const claims = [await first.claim('a'), await second.claim('a')];
		// Neither lookup claimed it (the second found it given, never attempted): the first claim wins.
		expect(claims).toEqual([true, false]);
		first.settle('a', 'sent');
		await first.close();
		await second.close();
		expect((await runOnce(['a'])).found).toEqual({ a: 'sent' });
	});
});

/**
 * One run of a campaign that other runs may overlap: looks its keys up, sends the new ones (a tick
 * of the event loop each, so that runs interleave), each claim refused to it counted; `row` is the
 * process's name for the node's row (runs of one process share its turns).
 */
async function overlapping(keys: string[], row = 'wf-1 node-1') {
	const history = new SentHistory(storeOf(data), { row, claimAhead: 5 });
	const found = await history.lookUp(keys);
	const send = keys.filter((key) => found.get(key) === 'new');
	history.plan(send);
	const sent: string[] = [];
	for (const key of send) {
		if (!(await history.claim(key))) continue;
		await new Promise((resolve) => setImmediate(resolve));
		sent.push(key);
		history.settle(key, 'sent');
	}
	await history.close();
	return { sent, rewritten: history.row.rewritten };
}

describe('runs at once', () => {
	const campaigns = (count: number) =>
		Array.from({ length: count }, (_, run) => keys(20, `r${run}-`));
	const lookUpAll = async (all: string[]) =>
		Object.values(Object.fromEntries(await historyOf({ preview: true }).lookUp(all)));

	it('ten runs of one process at once, each its own keys: every message sent once, every record kept', async () => {
		const runs = await Promise.all(campaigns(10).map((run) => overlapping(run)));
		const all = campaigns(10).flat();
		expect(runs.flatMap((run) => run.sent).sort()).toEqual([...all].sort());
		expect(await lookUpAll(all)).toEqual(Array(all.length).fill('sent'));
	});

	it('ten runs of one process at once, all given the same keys: each message sent by exactly one of them', async () => {
		const same = keys(20, 'same-');
		const runs = await Promise.all(Array.from({ length: 10 }, () => overlapping(same)));
		expect(runs.flatMap((run) => run.sent).sort()).toEqual([...same].sort());
		expect(await lookUpAll(same)).toEqual(Array(20).fill('sent'));
	});

	/**
	 * A run of ten keys, every message sent, on a store whose record calls go through `hook` first
	 * (another process's write landing); `crash`: the run stops before close.
	 */
	async function sendTen(
		hook: (values: string[]) => void,
		options: { claimAhead: number; crash?: boolean },
	) {
		const store = storeOf(data);
		const record: HistoryStore['record'] = async (values, bounded) => {
			const answer = await store.record(values, bounded);
			hook(values);
			return answer;
		};
		const history = new SentHistory(
			{ ...store, record },
			{ row: options.crash ? killed() : 'wf-1 node-1', claimAhead: options.claimAhead },
		);
		const all = keys(10);
		await history.lookUp(all);
		history.plan(all);
		for (const key of all) {
			expect(await history.claim(key)).toBe(true);
			history.settle(key, 'sent');
		}
		if (!options.crash) await history.close();
		return history;
	}

	it("a write of the run that another process's write then drops is written back at once, and counted", async () => {
		const dropped: string[] = [];
		const history = await sendTen(
			(values) => {
				// The first window of claims: another process's write lands on it.
				if (dropped.length === 0 && values.some((value) => value.startsWith('am1a:'))) {
					dropped.push(...values);
					data.drop('wf-1', 'node-1', values);
				}
			},
			{ claimAhead: 5 },
		);
		expect(dropped).toEqual(keys(5).map((key) => `am1a:${key}`));
		expect(history.row.rewritten).toBe(5);
		expect(await lookUpAll(keys(10))).toEqual(Array(10).fill('sent'));
	});

	it("a sent message's claim and attempt, dropped by another process after the run's checks, come back with its confirmation (n8n stopped before the run's end)", async () => {
		const first = keys(5).map((key) => `am1a:${key}`);
		let seen = 0;
		await sendTen(
			(values) => {
				// The first window's write, then its check: another process's write then drops the five
				// keys' claims and attempts. The second window's write carries the first confirmations.
				if (values.join() !== first.join() || ++seen !== 2) return;
				data.drop('wf-1', 'node-1', [...first, ...keys(5).map((key) => `am1c:${key}`)]);
			},
			{ claimAhead: 5, crash: true },
		);
		expect(seen).toBe(2);
		const found = await lookUpAll(keys(3));
		expect(found).toEqual(Array(3).fill('sent'));
	});
});

describe('the size bound', () => {
	it('keeps HISTORY_MAX_VALUES values: 100,000 messages at three values each', () => {
		expect(HISTORY_MAX_VALUES).toBe(300_000);
	});

	it('remembers a message while its run and the runs after it were given at most the bound; past it, the first given are forgotten first', async () => {
		// A bound of 30 values: 10 messages.
		const maxEntries = 30;
		const [a, b, c] = [keys(4, 'a'), keys(6, 'b'), keys(3, 'c')];
		await runOnce(a, () => 'sent', { maxEntries });
		await runOnce(b, () => 'sent', { maxEntries });
		// 4 + 6 messages: all remembered. A preview reads without changing anything.
		const look = async () => {
			const preview = historyOf({ preview: true, maxEntries });
			return Object.fromEntries(await preview.lookUp([...a, ...b, ...c]));
		};
		expect(Object.values(await look()).slice(0, 10)).toEqual(Array(10).fill('sent'));
		await runOnce(c, () => 'sent', { maxEntries });
		expect(data.size('wf-1', 'node-1')).toBe(30);
		const found = await look();
		// 4 + 6 + 3 > 10: the run given first is forgotten; 6 + 3 are remembered.
		expect(a.map((key) => found[key])).toEqual(Array(4).fill('new'));
		expect([...b, ...c].map((key) => found[key])).toEqual(Array(9).fill('sent'));
	});

	it('a key given in an earlier run and sent in a later one is remembered from the run that sent it', async () => {
		const maxEntries = 30;
		// Run 1 is given x and the platform refuses it; run 2 sends six others.
		await runOnce(['x'], () => 'notSent', { maxEntries });
		await runOnce(keys(6, 'b'), () => 'sent', { maxEntries });
		// Run 3 sends x; runs 3 and 4 are given 1 + 9 messages: the bound.
		await runOnce(['x'], () => 'sent', { maxEntries });
		await runOnce(keys(9, 'd'), () => 'sent', { maxEntries });
		const preview = historyOf({ preview: true, maxEntries });
		const found = Object.fromEntries(await preview.lookUp(['x', ...keys(6, 'b')]));
		expect(found.x).toBe('sent');
		// Run 2's messages, older than the bound, are forgotten.
		expect(keys(6, 'b').map((key) => found[key])).toEqual(Array(6).fill('new'));
	});
});

describe('what a run leaves when n8n stops it, and what it keeps for the runs after it', () => {
	it('a message a run holds or does not reach leaves nothing a later run reads as unconfirmed, though n8n killed the run', async () => {
		// Run 1 sends k0 and k1 and holds the rest (Quiet Hours, the daily quota).
		const all = keys(12);
		const first = historyOf();
		await first.lookUp(all);
		await sendEach(first, ['k0', 'k1']);
		await first.close();
		// Run 2 is given them again, holds k11, sends k2 (a window of two claimed) and is killed.
		const stopped = historyOf({ row: killed(), claimAhead: 2 });
		const found = await stopped.lookUp(all);
		expect(all.map((key) => found.get(key))).toEqual([
			...Array(2).fill('sent'),
			...Array(10).fill('new'),
		]);
		stopped.plan(all.slice(2, 11));
		expect(await stopped.claim('k2')).toBe(true);
		stopped.settle('k2', 'sent');
		// n8n is killed here: no close().
		const { found: after } = await runOnce(all);
		// Only the window being sent may have gone; the held k11 and the unreached k4..k10 are new.
		expect(Object.values(after)).toEqual([
			...Array(2).fill('sent'),
			...Array(2).fill('unconfirmed'),
			...Array(8).fill('new'),
		]);
	});

	it('a fixed Forget label forgets once: 24 hourly runs, each given the last two hours, on a history of 10 messages', async () => {
		const maxEntries = 30;
		const messaged = new Map<string, number>();
		let forgotten = 0;
		for (let hour = 0; hour < 24; hour++) {
			const given = [...(hour > 0 ? keys(3, `h${hour - 1}-`) : []), ...keys(3, `h${hour}-`)];
			const history = historyOf({ maxEntries });
			if (await history.forget('spring')) forgotten++;
			const found = await history.lookUp(given);
			const send = given.filter((key) => found.get(key) === 'new');
			await sendEach(history, send);
			for (const key of send) messaged.set(key, (messaged.get(key) ?? 0) + 1);
			await history.close();
		}
		expect(forgotten).toBe(1);
		expect(messaged.size).toBe(72);
		expect([...messaged.values()].filter((times) => times > 1)).toEqual([]);
	});

	it('a Forget label whose run is given more than the history holds still forgets once', async () => {
		const maxEntries = 30;
		const history = historyOf({ maxEntries });
		expect(await history.forget('spring')).toBe(true);
		await history.lookUp(keys(15));
		await sendEach(history, keys(15));
		await history.close();
		expect(await historyOf({ maxEntries }).forget('spring')).toBe(false);
	});
});

/**
 * One run with Resend Unconfirmed among others of its process: sends (a tick of the event loop
 * each) the new keys and those left unconfirmed; returns those it sent.
 */
async function resending(given: string[], ready?: (sent: string[]) => void) {
	const history = historyOf({ claimAhead: 5 });
	const found = await history.lookUp(given);
	const send = given.filter((key) => found.get(key) === 'new' || found.get(key) === 'unconfirmed');
	history.plan(
		send,
		send.filter((key) => found.get(key) === 'unconfirmed'),
	);
	const sent: string[] = [];
	for (const key of send) {
		if (!(await history.claim(key))) continue;
		await new Promise((resolve) => setImmediate(resolve));
		sent.push(key);
		ready?.(sent);
		history.settle(key, 'sent');
	}
	await history.close();
	return { sent, found };
}

describe('Resend Unconfirmed in runs at once in one process', () => {
	it('two runs given the same unconfirmed keys at once: each message sent again by one of them only', async () => {
		const same = keys(20, 'u');
		// A killed process left all twenty sent, unconfirmed.
		const stopped = historyOf({ row: killed() });
		await stopped.lookUp(same);
		stopped.plan(same);
		for (const key of same) expect(await stopped.claim(key)).toBe(true);
		const runs = await Promise.all([resending(same), resending(same)]);
		expect(runs.flatMap((run) => run.sent).sort()).toEqual([...same].sort());
	});

	it("a run started while another is sending leaves that run's messages alone: those in flight or not yet confirmed come out claimed", async () => {
		const all = keys(40, 'm');
		let second: ReturnType<typeof resending> | undefined;
		const first = resending(all, (sent) => {
			if (sent.length === 20) second = resending(all);
		});
		const [a, b] = [await first, await second!];
		expect([...a.sent, ...b.sent].sort()).toEqual([...all].sort());
		expect(b.sent.filter((key) => a.sent.includes(key))).toEqual([]);
		expect([...b.found.values()]).toContain('claimed');
	});
});
