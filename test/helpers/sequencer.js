/**
 * The order jest starts test files in (jest.config.js `testSequencer`), in three groups:
 * 1. the end-to-end files, longest first by the seconds each took in a reference run (below; a
 *    file not listed comes after, largest first). They wait minutes on n8n and on clocks: started
 *    first, short files fill the cores at the end instead of a long file starting last, and the
 *    files that wait on clocks (Quiet Hours, Send and Wait's time limit) have ended when queue
 *    mode's tests that need the machine alone begin. Jest's own order says less here: on a
 *    machine without its record of the previous run (a fresh CI machine) it starts the largest
 *    files first, and its record counts a file's waits for its slots of the machine;
 * 2. the files that take more than one slot of the machine (`atMostOneFileBeside()` of
 *    test/helpers/machine-share.tsx): started while short files run beside, they wait seconds
 *    for their slots, not the minutes of an end-to-end file;
 * 3. the rest, in jest's own order (the longest in the previous run first, or the largest).
 */
const { readFileSync } = require('fs');
const { basename } = require('path');
const Sequencer = require('@jest/test-sequencer').default;

/** Seconds of each end-to-end file in a clean clone's run (docs/ci.md), two files at once. */
const REFERENCE_SECONDS = {
	'queue.e2e.test.tsx': 309,
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
const takesMoreThanOneSlot = (test) =>
	readFileSync(test.path, 'utf8').includes('atMostOneFileBeside()');
const referenceSeconds = (test) => REFERENCE_SECONDS[basename(test.path)] ?? -1;

class EndToEndFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const wide = sorted.filter(takesMoreThanOneSlot);
		const rest = sorted.filter((test) => !wide.includes(test));
		const endToEnd = rest.filter(isEndToEnd);
		// Stable: files without a reference keep jest's order among themselves.
		endToEnd.sort((a, b) => referenceSeconds(b) - referenceSeconds(a));
		return [...endToEnd, ...wide, ...rest.filter((test) => !isEndToEnd(test))];
	}
}

module.exports = EndToEndFirst;
