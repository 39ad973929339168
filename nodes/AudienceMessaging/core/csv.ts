/** The core library's csv (src/csv/), as this node's files use it. */
export * from '../../../src/csv';
