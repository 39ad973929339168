/**
 * Jest runs three test files at once (jest.config.js `maxWorkers`) on the 2-core machine:
 * end-to-end files spend much of their time waiting on n8n, the sandbox or a clock, and a third
 * file uses what they leave. Every file holds a share of the machine while it runs (this setup
 * file's beforeAll and afterAll); a share weighs one of the CAPACITY slots, so nothing waits in
 * the usual case. Two kinds of file need more:
 * - The browser test keeps chromium and n8n's editor in time with one file beside it, not two
 *   (three files at once, its pages took over a minute): its share weighs two slots
 *   (`atMostOneFileBeside()`). While it waits for them, no file starts that would delay it.
 * - A few tests need the machine to themselves: what they assert depends on n8n keeping pace, and
 *   the n8n processes of queue mode fill both cores. Such a test runs inside `alone()`: it waits
 *   until the files running beside it have ended, and no other file starts until it has ended
 *   (aloneInThisDescribe: the tests of a describe, together).
 *
 * The marks live in the run's e2e template folder (test/e2e/global-setup.tsx): without e2e files
 * in the run, nothing waits. A mark left by a process that died is ignored.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';

/** Longest a file waits for its turn. */
const WAIT_MS = 30 * 60_000;
const POLL_MS = 250;
/** Slots of the machine: jest.config.js `maxWorkers`, one a file. */
const CAPACITY = 3;

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

/** Live marks `<kind>-<pid>-<slots>` (this file's among them): their pids and slots. */
const marks = (dir: string, kind: 'share' | 'want') =>
	readdirSync(dir)
		.filter((name) => name.startsWith(`${kind}-`))
		.map((name) => name.split('-').map(Number).slice(1))
		.filter(([pid]) => alive(pid));

/** Files running beside: their shares. */
const shares = (dir: string) => marks(dir, 'share');

/**
 * Slots taken by the files running, and those files waiting with a wish will take (a file that
 * wishes itself counts shares only: wishes wait for shares, not for each other).
 */
const taken = (dir: string, wishing: boolean) =>
	[...shares(dir), ...(wishing ? [] : marks(dir, 'want'))]
		.filter(([pid], index, all) => all.findIndex(([other]) => other === pid) === index)
		.reduce((sum, [, slots]) => sum + slots, 0);

async function until(what: string, done: () => boolean): Promise<void> {
	const deadline = Date.now() + WAIT_MS;
	while (!done()) {
		if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS / 60_000} min ${what}`);
		await sleep(POLL_MS);
	}
}

/** This file's slots: 1, or CAPACITY - 1 after atMostOneFileBeside(). */
let slots = 1;

/**
 * Takes a share of the machine (waits while a whole-machine file runs, and while the slots are
 * taken); returns its mark. A file of more than one slot first marks its wish, so that files
 * starting meanwhile wait behind it.
 */
async function takeShare(dir: string): Promise<string> {
	const mark = join(dir, `share-${process.pid}-${slots}`);
	const wish = slots > 1 ? join(dir, `want-${process.pid}-${slots}`) : undefined;
	if (wish) writeFileSync(wish, '');
	try {
		for (;;) {
			const fits = () => !wholeTaken(dir) && taken(dir, wish !== undefined) <= CAPACITY;
			await until('for a slot of the machine', () => {
				writeFileSync(mark, '');
				if (fits()) return true;
				rmSync(mark, { force: true });
				return false;
			});
			// Another file may have taken a slot between: both see it, one goes back.
			await sleep(Math.random() * 50);
			if (fits()) return mark;
			rmSync(mark, { force: true });
		}
	} finally {
		if (wish) rmSync(wish, { force: true });
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

/**
 * Called at a file's top level: its share weighs CAPACITY - 1 slots, so at most one other file
 * runs beside it (and none starts while it waits for its slots).
 */
export function atMostOneFileBeside(): void {
	slots = CAPACITY - 1;
}

/** Gives this file's share back and takes the whole machine (the files beside end first). */
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
 * taken (the files beside end first), then given back and the share taken again.
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
