/**
 * The order jest starts test files in (jest.config.js `testSequencer`), in three groups, each in
 * jest's own order (the files that took longest in the previous run first, or on a machine
 * without that record, such as a fresh CI machine, the largest files first):
 * 1. the end-to-end files, which wait minutes on n8n and on clocks: started first, the short
 *    files fill the cores at the end instead of a long file starting last (file size says little
 *    here: a short unit file can be the largest);
 * 2. the files that take more than one slot of the machine (`atMostOneFileBeside()` of
 *    test/helpers/machine-share.tsx): started while short files run beside, they wait seconds
 *    for their slots, not the minutes of an end-to-end file;
 * 3. the rest.
 */
const { readFileSync } = require('fs');
const Sequencer = require('@jest/test-sequencer').default;

const isEndToEnd = (test) => /[\\/]test[\\/]e2e[\\/]/.test(test.path);
const takesMoreThanOneSlot = (test) =>
	readFileSync(test.path, 'utf8').includes('atMostOneFileBeside()');

class EndToEndFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		const wide = sorted.filter(takesMoreThanOneSlot);
		const rest = sorted.filter((test) => !wide.includes(test));
		return [...rest.filter(isEndToEnd), ...wide, ...rest.filter((test) => !isEndToEnd(test))];
	}
}

module.exports = EndToEndFirst;
