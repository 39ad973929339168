/**
 * The WebAssembly module compiled from piece-index.wat (its source: read that), as base64.
 * Written by `npm run wasm` (scripts/wasm.mjs); a unit test checks it is that file compiled.
 */
export const PIECE_INDEX_WASM =
	'AGFzbQEAAAABCgFgBn9/f39/fwADAgEABQMBAAEHEgIGbWVtb3J5AgAFaW5kZXgAAAqaAQGXAQEFeyAE/Q8hBiAF/Q8hB0Ei' +
	'/Q8hCAJAA0AgACABTw0BIAD9AAQAIQkgAP0ABBAhCiACIAkgBv0j/WQgCiAG/SP9ZEEQdHI2AgAgAiADaiAJIAf9I/1kIAog' +
	'B/0j/WRBEHRyNgIAIAIgA0EBdGogCSAI/SP9ZCAKIAj9I/1kQRB0cjYCACAAQSBqIQAgAkEEaiECDAALCws=';
