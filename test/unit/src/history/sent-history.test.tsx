/**
 * The sent history's rules (src/history/sent-history.ts), on n8n's store as the node harness models
 * it (test/helpers/processed-data.tsx: n8n's own rules for `entries`, one row per node, no lock).
 */
import { HISTORY_MAX_VALUES, MAX_CLAIM_AHEAD, SentHistory } from '../../../../src/history';
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
	options: { preview?: boolean; claimAhead?: number; maxEntries?: number; now?: () => number } = {},
) =>
	new SentHistory(storeOf(data, options.maxEntries), {
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
	options: { resend?: boolean; claimAhead?: number; maxEntries?: number } = {},
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
		const dying = historyOf();
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
		const dying = historyOf({ claimAhead: 4, now: () => clock });
		const all = keys(20);
		await dying.lookUp(all);
		dying.plan(all);
		for (const key of all.slice(0, 5)) {
			expect(await dying.claim(key)).toBe(true);
			clock += 1000;
			dying.settle(key, 'sent');
		}
		// The run dies after five: the confirmations written with the next window's claims count.
		const { found } = await runOnce(all);
		const states = Object.values(found);
		// Sent and confirmed: the first two (written with the second window). Claimed, unconfirmed: the
		// rest of the two windows (4, then 5 s of pace: 5). Never claimed: the other eleven.
		expect(states).toEqual([
			...Array(2).fill('sent'),
			...Array(7).fill('unconfirmed'),
			...Array(11).fill('new'),
		]);
	});

	it('a run sending again what a stopped run left takes nothing back from the store (no search per message)', async () => {
		// Stopped after 3 of 10, its window of 4 claimed: the 4th is taken back at its end.
		await runOnce(keys(10), (key) => (Number(key.slice(1)) < 3 ? 'sent' : 'never'), {
			claimAhead: 4,
		});
		const removals = data.calls.removeProcessed ?? 0;
		const { found } = await runOnce(keys(10));
		expect(Object.values(found)).toEqual([...Array(3).fill('sent'), ...Array(7).fill('new')]);
		expect(data.calls.removeProcessed ?? 0).toBe(removals);
		expect(Object.values((await runOnce(keys(10))).found)).toEqual(Array(10).fill('sent'));
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
		await preview.forget();
		await preview.close();
		expect([...data.rows.values()][0].join()).toBe(row);
	});

	it('a preview of a node with no history writes nothing at all', async () => {
		const preview = historyOf({ preview: true });
		await preview.lookUp(['a']);
		expect(data.rows.size).toBe(0);
		expect(data.calls.checkProcessedAndRecord).toBeUndefined();
	});

	it('forgetting the history makes every message new again', async () => {
		await runOnce(['a', 'b']);
		const history = historyOf();
		await history.forget();
		expect(Object.fromEntries(await history.lookUp(['a', 'b']))).toEqual({ a: 'new', b: 'new' });
	});

	it('claims and confirms in batches: 10,000 messages take a handful of writes, not one per message', async () => {
		const all = keys(10_000);
		const { history } = await runOnce(all, () => 'sent', { claimAhead: 1000 });
		// One lookup, ten windows of claims (each carrying the confirmations before it), one close.
		expect(history.calls).toBeLessThanOrEqual(13);
		expect((await runOnce(all.slice(0, 3))).found).toEqual({ k0: 'sent', k1: 'sent', k2: 'sent' });
		// Three values per message at most.
		expect(data.size('wf-1', 'node-1')).toBe(30_000);
	});

	it('claims about five seconds of the measured pace at once, longer while the store is slow to write, up to MAX_CLAIM_AHEAD', async () => {
		let clock = 0;
		const store = storeOf(data);
		const sizes: number[] = [];
		/** A run of `count` messages, each taking `sendMs`, against a store whose writes take `writeMs`. */
		const windows = async (count: number, sendMs: number, writeMs: number) => {
			sizes.length = 0;
			const timed: HistoryStore = {
				...store,
				record: async (values, bounded) => {
					clock += writeMs;
					const attempts = values.filter((value) => value.startsWith('am1a:')).length;
					if (attempts) sizes.push(attempts);
					return await store.record(values, bounded);
				},
			};
			const history = new SentHistory(timed, { claimAhead: 10, now: () => clock });
			const all = keys(count, `${sendMs}-${writeMs}-`);
			await history.lookUp(all);
			history.plan(all);
			for (const key of all) {
				expect(await history.claim(key)).toBe(true);
				clock += sendMs;
				history.settle(key, 'sent');
			}
			await history.close();
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
		// The second lookup found the key given but never attempted and claimed it: the first lost it.
		expect(claims).toEqual([false, true]);
		second.settle('a', 'sent');
		await first.close();
		await second.close();
		expect((await runOnce(['a'])).found).toEqual({ a: 'sent' });
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
});
