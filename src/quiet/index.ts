/** Quiet hours: when a recipient may be messaged, in their own time zone. */
export * from './window';
export * from './zones';
