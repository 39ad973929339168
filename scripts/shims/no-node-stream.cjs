// Stands in for Node's `stream` module inside the bundled papaparse. papaparse reads
// `require('stream').Duplex` only for `Papa.parse(Papa.NODE_STREAM_INPUT)`, which this package
// never uses (it parses strings: the CSV header), and n8n Cloud allows community nodes no Node
// module imports. Anything reaching for it fails loudly instead of running half-supported.
'use strict';
module.exports = new Proxy(
	{},
	{
		get(_target, name) {
			throw new Error(
				`Node's stream module (${String(name)}) is not available inside n8n-nodes-audience-messaging`,
			);
		},
	},
);
