/**
 * Jest runs two test files at once (one per core: jest.config.js `maxWorkers`). A few tests need
 * the machine to themselves: what they assert depends on n8n keeping pace, and the n8n processes
 * of queue mode fill both cores. Such a test runs inside `alone()`: it waits until the file running
 * beside it has ended, and no other file starts until it has ended (aloneInThisDescribe: the tests
 * of a describe, together). Every file holds a share of the machine while it runs (this setup
 * file's beforeAll and afterAll), which only waits while such a test runs.
 *
 * The marks live in the run's e2e template folder (test/e2e/global-setup.tsx): without e2e files
 * in the run, nothing waits. A mark left by a process that died is ignored.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';

/** Longest a file waits for its turn. */
const WAIT_MS = 30 * 60_000;
const POLL_MS = 250;

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process holding the whole-machine mark (a folder holding its pid), if any. */
function holder(dir: string): number | undefined {
	try {
		return Number(readFileSync(join(dir, 'whole', 'pid'), 'utf8'));
	} catch {
		return undefined;
	}
}
const wholeTaken = (dir: string) => {
	const pid = holder(dir);
	return pid !== undefined && alive(pid);
};

/** Files running beside: their marks `share-<pid>`, of live processes. */
const shares = (dir: string) =>
	readdirSync(dir).filter(
		(name) => name.startsWith('share-') && alive(Number(name.slice('share-'.length))),
	);

async function until(what: string, done: () => boolean): Promise<void> {
	const deadline = Date.now() + WAIT_MS;
	while (!done()) {
		if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS / 60_000} min ${what}`);
		await sleep(POLL_MS);
	}
}

/** Takes a share of the machine (waits while a whole-machine file runs); returns its mark. */
async function takeShare(dir: string): Promise<string> {
	const mark = join(dir, `share-${process.pid}`);
	for (;;) {
		await until('for a file that needs the whole machine', () => !wholeTaken(dir));
		writeFileSync(mark, '');
		if (!wholeTaken(dir)) return mark;
		rmSync(mark, { force: true });
	}
}

/** Takes the whole machine: the mark first (no file starts beside), then waits for the others. */
async function takeWhole(dir: string): Promise<string> {
	const mark = join(dir, 'whole');
	// Made aside and renamed into place: the mark never exists without its pid.
	const mine = join(dir, `whole-${process.pid}`);
	mkdirSync(mine, { recursive: true });
	writeFileSync(join(mine, 'pid'), String(process.pid));
	await until('for the whole machine', () => {
		const pid = holder(dir);
		if (pid !== undefined && alive(pid)) return false;
		if (pid !== undefined) rmSync(mark, { recursive: true, force: true }); // a dead process's
		try {
			renameSync(mine, mark);
			return true;
		} catch {
			return false;
		}
	});
	await until('for the files running beside to end', () => shares(dir).length === 0);
	return mark;
}

const template = process.env.AM_E2E_TEMPLATE;
const dir = template && process.env.JEST_WORKER_ID ? join(template, 'machine') : undefined;
/** This file's share of the machine while it runs. */
let share: string | undefined;
if (dir) {
	mkdirSync(dir, { recursive: true });
	beforeAll(async () => {
		share = await takeShare(dir);
	}, WAIT_MS + 60_000);
	afterAll(() => {
		if (share) rmSync(share, { force: true });
		share = undefined;
	});
}

/** Gives this file's share back and takes the whole machine (the file beside ends first). */
async function enterAlone(): Promise<string | undefined> {
	if (!dir || !share) return undefined;
	rmSync(share, { force: true });
	share = undefined;
	return await takeWhole(dir);
}

/** Gives the whole machine back and takes this file's share again. */
async function leaveAlone(whole: string | undefined): Promise<void> {
	if (!dir || !whole) return;
	rmSync(whole, { recursive: true, force: true });
	share = await takeShare(dir);
}

/**
 * Runs `fn` with the machine to itself: this file's share given back, then the whole machine
 * taken (the file beside ends first), then given back and the share taken again.
 */
export async function alone<T>(fn: () => Promise<T>): Promise<T> {
	const whole = await enterAlone();
	try {
		return await fn();
	} finally {
		await leaveAlone(whole);
	}
}

/**
 * Called in a describe: its tests run with the machine to themselves, as inside alone(), taken
 * once for all of them (tests that each took it waited each time for the file beside to end).
 */
export function aloneInThisDescribe(): void {
	let whole: string | undefined;
	beforeAll(async () => {
		whole = await enterAlone();
	}, WAIT_MS + 60_000);
	afterAll(async () => {
		await leaveAlone(whole);
		whole = undefined;
	}, WAIT_MS + 60_000);
}
