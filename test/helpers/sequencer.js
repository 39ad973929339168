/**
 * The order jest starts test files in (jest.config.js `testSequencer`). Jest's own order runs the
 * files that took longest in the previous run first, and on a machine without that record (a
 * fresh CI machine) the largest files first. File size says little here: the end-to-end files,
 * which wait minutes on n8n and on clocks, are mid-sized, and a short unit file can be the largest.
 * Without a record, end-to-end files start first (largest first among them), so that the short
 * files fill the cores at the end instead of a long file starting last.
 */
const Sequencer = require('@jest/test-sequencer').default;

const isEndToEnd = (test) => /[\\/]test[\\/]e2e[\\/]/.test(test.path);

class EndToEndFirst extends Sequencer {
	sort(tests) {
		const sorted = super.sort(tests);
		if (sorted.some((test) => test.duration != null)) return sorted;
		return [...sorted.filter(isEndToEnd), ...sorted.filter((test) => !isEndToEnd(test))];
	}
}

module.exports = EndToEndFirst;
