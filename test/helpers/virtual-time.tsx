import { RateGate } from '../../src/pacing';
import type { Clock, Pace } from '../../src/pacing';

/** A clock whose time moves only when told, with sleepers woken in time order (ties in the order they fell asleep). */
export class VirtualClock implements Clock {
	time = 0;
	private sleepers: Array<{ at: number; wake: () => void }> = [];

	now(): number {
		return this.time;
	}

	async sleep(ms: number): Promise<void> {
		await new Promise<void>((wake) => this.sleepers.push({ at: this.time + Math.max(0, ms), wake }));
	}

	/** Runs until nobody sleeps any more, waking each sleeper at its time. */
	async runAll(): Promise<void> {
		for (;;) {
			await new Promise((resolve) => setImmediate(resolve));
			if (this.sleepers.length === 0) return;
			this.sleepers.sort((a, b) => a.at - b.at);
			const next = this.sleepers.shift()!;
			this.time = Math.max(this.time, next.at);
			next.wake();
		}
	}
}

/** Several runs (executions on queue-mode workers) sending to one sender whose limit they share. */
export interface SharedLimitScenario {
	/** Each run's pace, as the node gives it to its RateGate. */
	pace: Pace | number;
	runs: number;
	messagesPerRun: number;
	/** Requests in flight per run (the node's Parallel Requests). */
	parallel: number;
	/** The platform's limit: this many accepted in each of its clock's seconds, the rest answered 429. */
	limit: number;
	/** Seeds the runs' start offsets and each request's latency. */
	seed: number;
	/** From a request's start to the platform counting it: this, plus up to `jitterMs` more. */
	latencyMs?: number;
	jitterMs?: number;
	/** The Retry-After of a 429. */
	retryAfterMs?: number;
	/** The runs start within this long of each other (workers pick their jobs up one by one). */
	startSpreadMs?: number;
}

export interface SharedLimitResult {
	accepted: number;
	refused: number;
	/** Messages the platform accepted more than once (the node resends only refused ones: must be 0). */
	duplicates: number;
	/** Accepted per second from the first start to the last acceptance, as a share of the limit. */
	utilization: number;
	/** The most the platform accepted in one of its seconds. */
	busiestSecond: number;
	/** The most 429s one message got before it was accepted (the node gives up on a message after Rate Limit Wait). */
	mostRefusalsOfOne: number;
}

/**
 * Simulates, in virtual time, runs that each pace their requests with a RateGate the way the
 * node's request helper does (acquire, send; a 429 backs the gate off with its ticket and the
 * message waits for a new slot; a success lets the gate recover), against a platform that counts
 * accepted messages per second of its own clock, as the sandbox does. Deterministic for a seed.
 */
export async function simulateSharedLimit(scenario: SharedLimitScenario): Promise<SharedLimitResult> {
	const { runs, messagesPerRun, parallel, limit, latencyMs = 80, jitterMs = 10, retryAfterMs = 1000, startSpreadMs = 400 } = scenario;
	let state = scenario.seed % 2147483647 || 1;
	const random = () => (state = (state * 16807) % 2147483647) / 2147483647;
	const clock = new VirtualClock();
	const perSecond = new Map<number, number>();
	const acceptedIds = new Map<string, number>();
	let refused = 0;
	let mostRefusalsOfOne = 0;
	let lastAccepted = 0;

	const run = async (runIndex: number, offsetMs: number) => {
		await clock.sleep(offsetMs);
		const gate = new RateGate(scenario.pace, clock);
		// The simulations measure pacing, not the run's wait budget: no run gives up.
		gate.waitBudgetMs = Infinity;
		let next = 0;
		const worker = async () => {
			while (next < messagesPerRun) {
				const id = `${runIndex}:${next++}`;
				for (let refusals = 0; ; refusals++) {
					const ticket = await gate.acquire();
					await clock.sleep(latencyMs + random() * jitterMs);
					const second = Math.floor(clock.now() / 1000);
					const count = perSecond.get(second) ?? 0;
					if (count >= limit) {
						refused++;
						mostRefusalsOfOne = Math.max(mostRefusalsOfOne, refusals + 1);
						gate.backOff(retryAfterMs, ticket);
						continue;
					}
					perSecond.set(second, count + 1);
					acceptedIds.set(id, (acceptedIds.get(id) ?? 0) + 1);
					lastAccepted = clock.now();
					gate.succeeded();
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
	return {
		accepted,
		refused,
		duplicates: accepted - acceptedIds.size,
		utilization: accepted / seconds / limit,
		busiestSecond: Math.max(...perSecond.values()),
		mostRefusalsOfOne,
	};
}
