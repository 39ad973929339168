/** The core library's values (src/values/), as this node's files use it. */
export * from '../../../src/values';
