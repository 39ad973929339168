/**
 * Message › Send › Skip Messages Sent Before in n8n's queue mode, run by queue.e2e.test.tsx on its
 * stack (main + two workers + one webhook process, Redis and PostgreSQL; one stack for both saves
 * a start-up of it), the history in PostgreSQL. The scenarios of send-once-scenarios.tsx: the
 * workflows start on the webhook process and run on the workers; n8n's Retry, asked of the main
 * process, runs on a worker too. Then a paced campaign whose worker is killed (SIGKILL) mid-run,
 * run again: the last test of the stack (one worker is gone after it).
 */
import { listExecutions, setUpOwner } from './n8n-harness';
import type { RecordedExecution } from './n8n-harness';
import type { PackageInN8n } from './package-setup';
import type { QueueStack } from './queue-harness';
import { whenReady } from './when-ready';
import {
	SEND_ONCE_PATHS,
	acceptedBy,
	recipient,
	seedSendOnce,
	sendOnceScenarios,
	sendOnceWorkflow,
	sendOnceWorkflows,
	statuses,
} from './send-once-scenarios';

/** The campaign whose worker is killed: 1,000 messages at 50 per second, 10 in flight. */
const CAMPAIGN = { count: 1000, prefix: '60', perSecond: 50, parallel: 10 };
const campaign = sendOnceWorkflow(
	'amE2eOnceKill01',
	'once-killed',
	{},
	{
		messagesPerSecond: CAMPAIGN.perSecond,
	},
);

/** The workflows to import, and the webhook paths to wait for once the stack runs. */
export const sendOnceQueueWorkflows = () => [...sendOnceWorkflows(), campaign];
export const SEND_ONCE_QUEUE_PATHS = [...SEND_ONCE_PATHS, 'once-killed'];

/**
 * The stack's settings for the killed worker. n8n looks for executions whose job is gone every 180
 * minutes by default: every minute here. A killed worker's job is failed once its lock lapses and
 * the queue's next stalled-job check sees it: 60 s and every 30 s by default (the test waited 60 to
 * 90 s for it), 20 s and every 5 s here, the lock renewed every 5 s.
 */
export const KILLED_WORKER_ENV = {
	N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '1',
	QUEUE_WORKER_LOCK_DURATION: '20000',
	QUEUE_WORKER_LOCK_RENEW_TIME: '5000',
	QUEUE_WORKER_STALLED_INTERVAL: '5000',
};

/** The sandbox's senders and the campaign's recipients (before the stack starts). */
export function seedSendOnceQueue(ctx: PackageInN8n): void {
	seedSendOnce(ctx);
	for (let index = 0; index < CAMPAIGN.count; index++)
		ctx.sandbox.simulateInbound(recipient(CAMPAIGN.prefix, index), '15550100100');
}

/** The scenarios, as a describe of the calling file, on its stack. */
export function sendOnceInQueueMode(ctx: PackageInN8n, stack: () => QueueStack): void {
	let cookie: string;
	beforeAll(async () => {
		cookie = await setUpOwner(stack().main.url);
	});

	describe('Skip Messages Sent Before in queue mode', () => {
		sendOnceScenarios(ctx, () => ({
			webhookUrl: stack().webhook.url,
			mainUrl: stack().main.url,
			cookie,
			processes: stack().workers.length,
		}));
	});
}

/**
 * The killed worker, as a test of the calling describe, which runs its tests alone on the machine
 * (aloneInThisDescribe): what may come out unknown is bounded by what the worker sent in time.
 * The stack's last test: one worker is gone after it.
 */
export function killedWorkerTest(ctx: PackageInN8n, stack: () => QueueStack): void {
	/** Polls until `done` gives a value, or fails after `timeoutMs`. */
	async function until<T>(what: string, done: () => Promise<T | undefined>, timeoutMs = 240_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const value = await done();
			if (value !== undefined) return value;
			if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
	}

	async function post(body: Record<string, unknown>): Promise<void> {
		const response = await whenReady()(`${stack().webhook.url}/webhook/once-killed`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		expect(response.status).toBe(200);
	}

	/** The campaign's `n`-th execution (1: the first), once n8n has ended it. */
	const ended = (n: number) =>
		until(`execution ${n} of the campaign ended`, async () => {
			const run = (await listExecutions(ctx.folder, campaign.id))[n - 1] as
				| RecordedExecution
				| undefined;
			return run && !['new', 'running', 'waiting'].includes(run.status) ? run : undefined;
		});

	it('a 1,000-message paced campaign, its worker killed (SIGKILL) at about 300 sent: n8n ends the execution as failed; run again, no recipient gets a second message, the claimed but unconfirmed come out unknown, and Resend Unconfirmed sends them', async () => {
		const counts = () => acceptedBy(ctx, CAMPAIGN.prefix, CAMPAIGN.count);
		const logsBefore = stack().workers.map((worker) => worker.logs().length);
		await post({ count: CAMPAIGN.count, prefix: CAMPAIGN.prefix });
		await until('300 messages accepted', async () =>
			counts().filter((count) => count > 0).length >= 300 ? true : undefined,
		);
		const worker = stack().workers.find((w, i) =>
			w.logs().slice(logsBefore[i]).includes('Worker started execution'),
		);
		expect(worker).toBeDefined();
		process.kill(-worker!.process.pid!, 'SIGKILL');
		const killedAt = Date.now();
		// The platform has what went out before the kill; nothing more arrives.
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const atKill = counts();
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(counts()).toEqual(atKill);
		const sentBeforeKill = atKill.filter((count) => count === 1).length;
		expect(Math.max(...atKill)).toBe(1);
		expect(sentBeforeKill).toBeLessThan(CAMPAIGN.count);

		// What n8n does: the job is given up (n8n 2.x: never re-run) and the execution ended as failed.
		const crashed = await ended(1);
		expect(['error', 'crashed']).toContain(crashed.status);
		const crashedAfterS = (Date.now() - killedAt) / 1000;

		// Run again with the same items: nobody is messaged twice.
		await post({ count: CAMPAIGN.count, prefix: CAMPAIGN.prefix });
		const again = await ended(2);
		expect(again.status).toBe('success');
		const output = statuses(again);
		expect(output).toHaveLength(CAMPAIGN.count);
		const afterAgain = counts();
		expect(afterAgain.filter((count) => count > 1)).toHaveLength(0);
		const unknown = output.flatMap((status, index) => (status === 'unknown' ? [index] : []));
		// Every other message has exactly one: confirmed before the kill (sentBefore), or sent now.
		for (const [index, status] of output.entries())
			if (status !== 'unknown')
				expect([index, status, afterAgain[index]]).toEqual([
					index,
					expect.stringMatching(/^(sent|sentBefore)$/),
					1,
				]);
		// The in-flight window: the claims of the window being sent and of the one after it (5 s of
		// the pace each) at most.
		expect(unknown.length).toBeGreaterThan(0);
		expect(unknown.length).toBeLessThanOrEqual(CAMPAIGN.perSecond * 10);
		// Of those, the ones the platform had accepted: only the confirmations not yet written (half a
		// second of the pace, and the messages in flight; a second allowed on a busy machine).
		const acceptedUnknown = unknown.filter((index) => afterAgain[index] === 1).length;
		expect(acceptedUnknown).toBeLessThanOrEqual(CAMPAIGN.perSecond + CAMPAIGN.parallel);

		// Resend Unconfirmed: every unknown one is sent, nothing else.
		await post({ count: CAMPAIGN.count, prefix: CAMPAIGN.prefix, resend: true });
		const resent = await ended(3);
		expect(resent.status).toBe('success');
		const final = counts();
		expect(final.filter((count) => count === 0)).toHaveLength(0);
		expect(final.filter((count) => count === 2)).toHaveLength(acceptedUnknown);
		for (const index of unknown) expect([index, statuses(resent)[index]]).toEqual([index, 'sent']);
		console.log(
			`killed worker: ${sentBeforeKill} accepted before the kill; n8n marked the execution ${crashed.status} ${crashedAfterS.toFixed(0)} s after it; run again: ${output.filter((s) => s === 'sentBefore').length} sentBefore, ${unknown.length} unknown (${acceptedUnknown} of them accepted before the kill), ${output.filter((s) => s === 'sent').length} sent; Resend Unconfirmed: ${unknown.length} sent, ${acceptedUnknown} recipients with two messages`,
		);
	});
}
