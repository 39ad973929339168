/** The core library's history (src/history/), as this node's files use it. */
export * from '../../../src/history';
