/**
 * Runs sharing one sender's limit, simulated in virtual time (test/helpers/virtual-time.tsx): each
 * run paces its requests with the node's RateGate and backs off on 429 as the node does, against a
 * platform counting accepted messages per second of its clock, 80–90 ms away, Retry-After 1 s.
 * Seeds vary the runs' start offsets (within 400 ms) and the latency. Prints, per case, the share
 * of the limit the runs reached together (accepted per second from the first start to the last
 * acceptance), the 429s, and the most 429s one message got; the queue-mode bench measures the
 * first two cases in a real n8n. Deterministic, a second or two.
 *
 * Run: npx tsx test/bench/shared-sender.bench.tsx [--seeds 8]
 */
import { senderPace } from '../../src/pacing';
import type { Pace } from '../../src/pacing';
import { simulateSharedLimit } from '../helpers/virtual-time';

const index = process.argv.indexOf('--seeds');
const SEEDS = index > 0 ? Number(process.argv[index + 1]) : 8;

const cases: Array<{ name: string; pace: Pace | number; limit: number; runs: number; messagesPerRun: number }> = [
	{ name: "4 runs at the sender's rateLimit (10/s)", pace: senderPace(10, undefined) as Pace, limit: 10, runs: 4, messagesPerRun: 100 },
	{ name: '4 runs at 10/4 = 2.5/s of a 10/s sender', pace: 2.5, limit: 10, runs: 4, messagesPerRun: 100 },
	{ name: '4 runs at 10/4 rounded down = 2/s of a 10/s sender', pace: 2, limit: 10, runs: 4, messagesPerRun: 100 },
	{ name: '4 runs at 12/4 = 3/s of a 12/s sender', pace: 3, limit: 12, runs: 4, messagesPerRun: 100 },
	{ name: "2 runs at the sender's rateLimit (10/s)", pace: senderPace(10, undefined) as Pace, limit: 10, runs: 2, messagesPerRun: 200 },
	{ name: "8 runs at the sender's rateLimit (10/s)", pace: senderPace(10, undefined) as Pace, limit: 10, runs: 8, messagesPerRun: 50 },
	{ name: "16 runs at the sender's rateLimit (10/s)", pace: senderPace(10, undefined) as Pace, limit: 10, runs: 16, messagesPerRun: 25 },
	{ name: "1 run at the sender's rateLimit (50/s)", pace: senderPace(50, undefined) as Pace, limit: 50, runs: 1, messagesPerRun: 1000 },
	{ name: '1 run at Messages per Second 50, the platform allowing 30/s', pace: 50, limit: 30, runs: 1, messagesPerRun: 600 },
	{ name: '1 run at Messages per Second 50, the platform allowing 5/s', pace: 50, limit: 5, runs: 1, messagesPerRun: 100 },
];

async function main() {
	console.log(`runs sharing one sender, simulated (virtual time, ${SEEDS} seeds, Parallel Requests 10 each):`);
	for (const { name, pace, limit, runs, messagesPerRun } of cases) {
		const results = [];
		for (let seed = 1; seed <= SEEDS; seed++) results.push(await simulateSharedLimit({ pace, runs, messagesPerRun, parallel: 10, limit, seed: seed * 7919 }));
		const shares = results.map((result) => result.utilization).sort((a, b) => a - b);
		const lost = results.reduce((sum, result) => sum + runs * messagesPerRun - result.accepted + result.duplicates, 0);
		const percent = (share: number) => `${(share * 100).toFixed(0)} %`;
		console.log(
			`  ${name}: median ${percent(shares[Math.floor(shares.length / 2)])} of the limit (${percent(shares[0])}–${percent(shares[shares.length - 1])}); 429s ${Math.min(...results.map((r) => r.refused))}–${Math.max(...results.map((r) => r.refused))} per ${runs * messagesPerRun} messages, at most ${Math.max(...results.map((r) => r.mostRefusalsOfOne))} for one message; lost or sent twice: ${lost}`,
		);
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
