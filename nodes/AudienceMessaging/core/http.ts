/** The core library's http (src/http/), as this node's files use it. */
export * from '../../../src/http';
