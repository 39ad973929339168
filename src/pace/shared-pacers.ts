/** The pacers runs of one process share per sender, kept while a run uses them. */
import { Pacer } from './pacer';
import type { Pace } from './pace';

const sharedPacers = new Map<string, { pacer: Pacer; runs: number }>();

/**
 * The pacer every run of this n8n process pacing by the same sender's rate shares (`key`: the
 * platform's address and the sender), for as long as one of them runs: the sender's limit is one
 * for all of them, and one pacer spaces their requests together (regular mode runs every execution
 * in one process; in queue mode, those on one worker). Runs that pace separately learn their shares
 * only from refusals. Call `release` when the run ends.
 */
export function sharedPacer(key: string, pace: Pace): { pacer: Pacer; release: () => void } {
	const id = `${key}\u0000${pace.perSecond}\u0000${pace.floor ?? ''}`;
	let entry = sharedPacers.get(id);
	if (!entry) sharedPacers.set(id, (entry = { pacer: new Pacer(pace), runs: 0 }));
	entry.runs++;
	const shared = entry;
	let released = false;
	return {
		pacer: shared.pacer,
		release: () => {
			if (released) return;
			released = true;
			if (--shared.runs === 0 && sharedPacers.get(id) === shared) sharedPacers.delete(id);
		},
	};
}

/** How many shared pacers are held now (for tests: none once every run has released its own). */
export const sharedPacerCount = () => sharedPacers.size;
