/** The pacers runs of one process share per sender, kept while a run uses them. */
import { Pacer } from './pacer';
import type { Pace } from './pace';

const sharedPacers = new Map<string, { pacer: Pacer; runs: number }>();

/** The pacer of this process's runs by one sender (`key`): they share its limit. Release at end. */
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
