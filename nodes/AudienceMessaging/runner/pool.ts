/**
 * The runners' one worker pool: jobs 0 … count − 1 in order, up to `concurrency` (at least one).
 *
 * A job starts only while none has failed the run; resolves once the started ones are done, with
 * the lowest failed job's failure.
 */
export async function inPool(
	count: number,
	concurrency: number | undefined,
	run: (job: number, fail: (error: unknown) => void) => Promise<void>,
): Promise<{ failure?: unknown }> {
	const stop: { job?: number; error?: unknown } = {};
	let next = 0;
	const worker = async () => {
		while (stop.job === undefined && next < count) {
			const job = next++;
			await run(job, (error) => {
				if (stop.job === undefined || job < stop.job) Object.assign(stop, { job, error });
			});
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency ?? 1, count)) }, worker));
	return stop.job === undefined ? {} : { failure: stop.error };
}
