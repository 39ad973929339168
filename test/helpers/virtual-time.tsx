import { Pacer, RateGate } from '../../src/pace';
import { TurnBoard } from '../../src/pace/board';
import { rateLimitPauseMs } from '../../src/http/retry';
import { TurnsUnavailable } from '../../src/pace/turn-grant';
import type { TurnRequest } from '../../src/pace/board';
import type { Clock, Pace } from '../../src/pace';

/**
 * A clock whose time moves only when told, with sleepers woken in time order (ties in the order
 * they fell asleep).
 */
export class VirtualClock implements Clock {
	time = 0;
	private sleepers: Array<{ at: number; wake: () => void }> = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((wake) =>
			this.sleepers.push({ at: this.time + Math.max(0, ms), wake }),
		);
	}

	/** Runs until nobody sleeps any more (or the next wakes after `until`), each woken in time. */
	async runAll(until = Infinity): Promise<void> {
		for (;;) {
			await new Promise((resolve) => setImmediate(resolve));
			if (this.sleepers.length === 0) return;
			this.sleepers.sort((a, b) => a.at - b.at);
			if (this.sleepers[0].at > until) return;
			const next = this.sleepers.shift()!;
			this.time = Math.max(this.time, next.at);
			next.wake();
		}
	}
}

/**
 * How the platform counts a sender's limit (the spec does not show it):
 * - `second`: `limit` accepted per second of the platform's clock (a fixed window; the sandbox's
 *   default);
 * - `sliding`: `limit` accepted in any 1,000 ms;
 * - `tokenBucket`: a bucket of `bucket` tokens (default `limit`) refilled at `limit` per second,
 *   one per accepted message.
 */
export type LimitWindow = 'second' | 'sliding' | 'tokenBucket';

/** Several runs (executions on queue-mode workers) sending to one sender whose limit they share. */
export interface SharedLimitScenario {
	/** Each run's pace, as the node gives it to its RateGate. */
	pace: Pace | number;
	runs: number;
	messagesPerRun: number;
	/** Requests in flight per run (the node's Parallel Requests). */
	parallel: number;
	/**
	 * The platform's limit, in accepted messages per second, counted as `window` says; the rest
	 * answered 429.
	 */
	limit: number;
	/** How the platform counts its limit (default `second`). */
	window?: LimitWindow;
	/** The token bucket's size (default: `limit`). */
	bucket?: number;
	/**
	 * Seeds the runs' start offsets, each request's latency and the phase of the platform's seconds.
	 */
	seed: number;
	/** From a request's start to the platform counting it: this, plus up to `jitterMs` more. */
	latencyMs?: number;
	jitterMs?: number;
	/**
	 * The Retry-After of a 429 (whole seconds, as the header gives it); the run pauses as the node
	 * does (rateLimitPauseMs: up to 20 % more, at random).
	 */
	retryAfterMs?: number;
	/**
	 * The platform's answers carry a `Date` of its clock (the second they were counted in):
	 * `aligned` (default), a fixed window counting the same seconds; `unaligned`, a fixed window
	 * counting seconds that start elsewhere than the Date's; `none`, no Date header.
	 */
	date?: 'aligned' | 'unaligned' | 'none';
	/** The runs start within this long of each other (workers pick their jobs up one by one). */
	startSpreadMs?: number;
	/**
	 * The n8n processes the runs are spread over, round robin (default: one each). Runs in one
	 * process paced by an object pace (the sender's rateLimit) share one Pacer, as the node's
	 * sharedPacer does; each keeps its own RateGate (its wait budget).
	 */
	processes?: number;
	/**
	 * The runs take turns from one board (Share Pace Across Workers: the trigger's pace webhook in
	 * one n8n process), `rttMs` away from each run there and back (the way there give or take half). Needs an object pace. `boards`:
	 * that many webhook processes, each with its own board, behind a load balancer that sends each
	 * ask to the next in turn (`balancer`: `random`, each ask to one at random; `sticky`, each run's
	 * asks to one of them, by run). `downAfterMs`: from then on the trigger never answers (each ask
	 * waits out its timeout), or with `refusing`, its connections are refused at once. An ask not
	 * answered within its timeout fails as the node's does.
	 */
	sharedTurns?: {
		rttMs: number;
		boards?: number;
		balancer?: 'roundRobin' | 'random' | 'sticky';
		downAfterMs?: number;
		refusing?: boolean;
	};
	/** Each run's wait budget (Max Wait When Rate Limited), in ms (default: none). */
	waitBudgetMs?: number;
}

export interface SharedLimitResult {
	accepted: number;
	refused: number;
	/** Refused as a share of all requests sent. */
	refusedShare: number;
	/**
	 * Messages the platform accepted more than once (the node resends only refused ones: must be 0).
	 */
	duplicates: number;
	/** Accepted per second from the first start to the last acceptance, as a share of the limit. */
	utilization: number;
	/** Jain's fairness of the runs' rates (1: equal shares; 1/runs: one run took all). */
	fairness: number;
	/** The most the platform accepted in one of its seconds. */
	busiestSecond: number;
	/**
	 * The most 429s one message got before it was accepted (the node gives up on a message after Rate
	 * Limit Wait).
	 */
	mostRefusalsOfOne: number;
	/** Messages reported not sent: the run's wait budget was spent. */
	notSent: number;
	/** Runs that gave shared turns up and paced alone (with the reasons). */
	pacedAlone: string[];
}

/**
 * A platform's limit of `limit` per second, counted the way `window` says; `admit` says whether a
 * message arriving now is accepted.
 */
function platformLimit(window: LimitWindow, limit: number, bucket: number, phaseMs: number) {
	if (window === 'second') {
		const perSecond = new Map<number, number>();
		return (now: number) => {
			const second = Math.floor((now + phaseMs) / 1000);
			const count = perSecond.get(second) ?? 0;
			if (count >= limit) return false;
			perSecond.set(second, count + 1);
			return true;
		};
	}
	if (window === 'sliding') {
		const accepted: number[] = [];
		let oldest = 0;
		return (now: number) => {
			while (oldest < accepted.length && accepted[oldest] <= now - 1000) oldest++;
			if (accepted.length - oldest >= limit) return false;
			accepted.push(now);
			return true;
		};
	}
	let tokens = bucket;
	let at = 0;
	return (now: number) => {
		tokens = Math.min(bucket, tokens + ((now - at) * limit) / 1000);
		at = now;
		if (tokens < 1) return false;
		tokens -= 1;
		return true;
	};
}

/**
 * Simulates, in virtual time, runs that each pace their requests with a RateGate the way the
 * node's request helper does (acquire, send; a 429 backs the gate off with its ticket for the
 * node's pause, Retry-After plus its jitter, and the message waits for a new slot; a success lets
 * the gate learn), against a platform that counts
 * accepted messages as `window` says. Deterministic for a seed.
 */
export async function simulateSharedLimit(
	scenario: SharedLimitScenario,
): Promise<SharedLimitResult> {
	const {
		runs,
		messagesPerRun,
		parallel,
		limit,
		window = 'second',
		latencyMs = 80,
		jitterMs = 10,
		retryAfterMs = 1000,
		startSpreadMs = 400,
	} = scenario;
	let state = scenario.seed % 2147483647 || 1;
	const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
	const clock = new VirtualClock();
	const phaseMs = random() * 1000;
	const admit = platformLimit(
		window,
		limit,
		scenario.bucket ?? limit,
		scenario.date === 'unaligned' ? (phaseMs + 500) % 1000 : phaseMs,
	);
	const dateOf = (at: number) =>
		scenario.date === 'none' ? undefined : Math.floor((at + phaseMs) / 1000);
	const perSecond = new Map<number, number>();
	const acceptedIds = new Map<string, number>();
	const runSpans: Array<{ first: number; last: number }> = [];
	let refused = 0;
	let notSent = 0;
	const pacedAlone: string[] = [];
	let mostRefusalsOfOne = 0;
	let lastAccepted = 0;

	const pacers: Pacer[] = [];
	const boards = Array.from(
		{ length: scenario.sharedTurns?.boards ?? 1 },
		() => new TurnBoard(() => clock.now()),
	);
	let asks = 0;
	const run = async (runIndex: number, offsetMs: number) => {
		await clock.sleep(offsetMs);
		const span = (runSpans[runIndex] = { first: clock.now(), last: clock.now() });
		const { pace } = scenario;
		const processes = scenario.processes ?? runs;
		const gate =
			typeof pace === 'object' && processes < runs
				? new RateGate({
						shared: {
							pacer: (pacers[runIndex % processes] ??= new Pacer(pace, clock, random)),
							release: () => undefined,
						},
					})
				: new RateGate(pace, clock, random);
		// Unless told, the simulations measure pacing, not the run's wait budget: no run gives up.
		gate.waitBudgetMs = scenario.waitBudgetMs ?? Infinity;
		if (scenario.sharedTurns && typeof pace === 'object') {
			const { rttMs, balancer, downAfterMs = Infinity, refusing } = scenario.sharedTurns;
			// Half the round trip each way; the way there give or take half of that (a busy n8n takes its
			// time before it runs the webhook; the answer, once written, comes back as fast as ever).
			const answer = async (request: TurnRequest) => {
				await clock.sleep((rttMs / 2) * (0.5 + random()));
				if (clock.now() >= downAfterMs && refusing)
					throw new TurnsUnavailable('the trigger could not be reached (ECONNREFUSED)', true);
				if (clock.now() >= downAfterMs) return await new Promise<never>(() => undefined);
				const to =
					balancer === 'sticky'
						? runIndex
						: balancer === 'random'
							? Math.floor(random() * boards.length)
							: asks++;
				const grant = boards[to % boards.length].take(request);
				await clock.sleep(rttMs / 2);
				return grant;
			};
			const ask = async (request: TurnRequest, timeoutMs: number) =>
				await Promise.race([
					answer(request),
					clock.sleep(timeoutMs).then(() => {
						throw new TurnsUnavailable('the trigger could not be reached (timeout)', true);
					}),
				]);
			gate.shareTurns(
				ask,
				'sender',
				pace.perSecond,
				(reason) => pacedAlone.push(reason),
				() => messagesPerRun,
				random,
			);
		}
		let next = 0;
		const worker = async () => {
			while (next < messagesPerRun) {
				const id = `${runIndex}:${next++}`;
				for (let refusals = 0; ; refusals++) {
					const ticket = await gate.acquire();
					if (ticket === undefined) {
						notSent++;
						break;
					}
					const sentAt = clock.now();
					// There and back: the platform counts the message on arrival (and dates its answer then),
					// the answer takes as long again.
					const there = latencyMs / 2 + random() * jitterMs;
					await clock.sleep(there);
					const ok = admit(clock.now());
					const answer = { sentAt, second: dateOf(clock.now()) };
					await clock.sleep(latencyMs / 2);
					if (!ok) {
						refused++;
						mostRefusalsOfOne = Math.max(mostRefusalsOfOne, refusals + 1);
						const pauseMs = rateLimitPauseMs(String(retryAfterMs / 1000), clock.now(), random);
						const resendAt = clock.now() + pauseMs;
						if (!gate.backOff(pauseMs, ticket, answer)) {
							notSent++;
							break;
						}
						if (gate.ownWaitMs(resendAt) > 0) await clock.sleep(resendAt - clock.now());
						continue;
					}
					const second = Math.floor(clock.now() / 1000);
					perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
					acceptedIds.set(id, (acceptedIds.get(id) ?? 0) + 1);
					lastAccepted = span.last = clock.now();
					gate.succeeded(answer);
					break;
				}
			}
		};
		await Promise.all(Array.from({ length: parallel }, worker));
	};

	const offsets = Array.from({ length: runs }, () => random() * startSpreadMs);
	const all = Promise.all(offsets.map(async (offset, runIndex) => await run(runIndex, offset)));
	await clock.runAll();
	await all;
	const accepted = [...acceptedIds.values()].reduce((sum, times) => sum + times, 0);
	const seconds = (lastAccepted - Math.min(...offsets)) / 1000;
	const rates = runSpans.map(({ first, last }) => messagesPerRun / Math.max(1, last - first));
	const fairness =
		rates.reduce((sum, rate) => sum + rate, 0) ** 2 /
		(runs * rates.reduce((sum, rate) => sum + rate * rate, 0));
	return {
		accepted,
		refused,
		refusedShare: refused / (accepted + refused),
		duplicates: accepted - acceptedIds.size,
		utilization: accepted / seconds / limit,
		fairness,
		busiestSecond: Math.max(...perSecond.values()),
		mostRefusalsOfOne,
		notSent,
		pacedAlone,
	};
}
