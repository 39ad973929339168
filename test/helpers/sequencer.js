/**
 * The order jest starts test files in (jest.config.js `testSequencer`):
 * 1. the end-to-end files of a minute or more, longest first by the seconds each took in a
 *    reference run (below). They wait minutes on n8n and on clocks: started first, short files
 *    fill the cores at the end instead of a long file starting last. Jest's own order says less
 *    here: on a machine without its record of the previous run (a fresh CI machine) it starts
 *    the largest files first, and its record counts a file's waits for its slots of the machine;
 * 2. the files with tests that need the machine alone (`aloneInThisDescribe()` of
 *    test/helpers/machine-share.tsx: queue mode). They take the whole machine once the files
 *    beside have ended: started after the long files, the files beside are then short ones (a
 *    file waiting on a clock beside them left the machine idle for two minutes), and short files
 *    are left to run beside their other tests (started last, their tests alone were the run's
 *    last two minutes);
 * 3. the other end-to-end files, the same way (a file not listed last, largest first);
 * 4. the files that take more than one slot of the machine (`atMostOneFileBeside()`): started
 *    while short files run beside, they wait seconds for their slots;
 * 5. the rest, in jest's own order (the longest in the previous run first, or the largest).
 */
const { readFileSync } = require('fs');
const { basename } = require('path');
const Sequencer = require('@jest/test-sequencer').default;

/** Seconds of each end-to-end file in 676d16f's clean clone (docs/ci.md), two files at once. */
const REFERENCE_SECONDS = {
	'send-and-wait.e2e.test.tsx': 145,
	'quiet-hours.e2e.test.tsx': 124,
	'demo.e2e.test.tsx': 122,
	'harness.test.tsx': 103,
	'media-binary.e2e.test.tsx': 87,
	'send-once.e2e.test.tsx': 58,
	'package.e2e.test.tsx': 33,
	'trigger.e2e.test.tsx': 27,
	'chatapp.e2e.test.tsx': 27,
	'smoke.e2e.test.tsx': 25,
	'http-request-credential.e2e.test.tsx': 21,
	'csv-check.e2e.test.tsx': 21,
	'mcp.e2e.test.tsx': 19,
	'human-review.e2e.test.tsx': 16,
	'trigger-body-limit.e2e.test.tsx': 13,
	'credential.e2e.test.tsx': 12,
	'lists.e2e.test.tsx': 11,
	'wallet.e2e.test.tsx': 9,
	'blacklist.e2e.test.tsx': 8,
	'agent.e2e.test.tsx': 8,
};

const isEndToEnd = (test) => /[\\/]test[\\/]e2e[\\/]/.test(test.path);
const calls = (test, call) => readFileSync(test.path, 'utf8').includes(call);
const referenceSeconds = (test) => REFERENCE_SECONDS[basename(test.path)] ?? -1;

class EndToEndFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const alone = sorted.filter((test) => calls(test, 'aloneInThisDescribe()'));
		const wide = sorted.filter((test) => calls(test, 'atMostOneFileBeside()'));
		const rest = sorted.filter((test) => !alone.includes(test) && !wide.includes(test));
		const endToEnd = rest.filter(isEndToEnd);
		// Stable: files without a reference keep jest's order among themselves.
		endToEnd.sort((a, b) => referenceSeconds(b) - referenceSeconds(a));
		const long = endToEnd.filter((test) => referenceSeconds(test) >= 60);
		const short = endToEnd.filter((test) => !long.includes(test));
		return [...long, ...alone, ...short, ...wide, ...rest.filter((test) => !isEndToEnd(test))];
	}
}

module.exports = EndToEndFirst;
