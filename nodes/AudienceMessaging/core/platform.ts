/** The core library's platform (src/platform/), as this node's files use it. */
export * from '../../../src/platform';
