/** The core library's pace (src/pace/), as this node's files use it. */
export * from '../../../src/pace';
