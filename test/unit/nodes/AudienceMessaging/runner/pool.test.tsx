import { inPool } from '../../../../../nodes/AudienceMessaging/runner/pool';

/** A job that finishes when told to, so the test decides the order of completion (no timers). */
function deferred() {
	let resolve!: () => void;
	const promise = new Promise<void>((done) => (resolve = done));
	return { promise, resolve };
}

const tick = async () => await new Promise((resolve) => setImmediate(resolve));

describe('inPool: the one worker pool of the runners', () => {
	it('starts jobs in order, never more than `concurrency` at once, and runs every job', async () => {
		const gates = Array.from({ length: 7 }, deferred);
		const started: number[] = [];
		let running = 0;
		let most = 0;
		const done = inPool(7, 3, async (job) => {
			started.push(job);
			most = Math.max(most, ++running);
			await gates[job].promise;
			running--;
		});
		await tick();
		expect(started).toEqual([0, 1, 2]);
		gates[1].resolve();
		await tick();
		expect(started).toEqual([0, 1, 2, 3]);
		for (const gate of gates) gate.resolve();
		expect(await done).toEqual({});
		expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
		expect(most).toBe(3);
	});

	it('at least one worker, at most one per job', async () => {
		const seen: number[] = [];
		expect(await inPool(2, 0, async (job) => void seen.push(job))).toEqual({});
		expect(await inPool(0, 5, async (job) => void seen.push(job))).toEqual({});
		expect(seen).toEqual([0, 1]);
	});

	it('after a failure starts nothing new, lets the started jobs finish, and reports the lowest failed job', async () => {
		const gates = Array.from({ length: 6 }, deferred);
		const started: number[] = [];
		const finished: number[] = [];
		const done = inPool(6, 3, async (job, fail) => {
			started.push(job);
			await gates[job].promise;
			if (job === 1 || job === 2) fail(new Error(`job ${job}`));
			finished.push(job);
		});
		await tick();
		gates[2].resolve();
		await tick();
		gates[1].resolve();
		gates[0].resolve();
		const result = await done;
		expect(started).toEqual([0, 1, 2]);
		expect(finished.sort()).toEqual([0, 1, 2]);
		expect(result).toEqual({ failure: new Error('job 1') });
		expect((result.failure as Error).message).toBe('job 1');
	});
});
