/** The clock pacing reads and sleeps on; tests and simulations pass their own. */
import { sleep as n8nSleep } from 'n8n-workflow';

export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: async (ms) => await n8nSleep(ms) };
