/** A file's bytes as they stream (n8n's binary store, a CSV being rewritten): pieces in order. */
export type ByteSource = AsyncIterable<Uint8Array | string>;
