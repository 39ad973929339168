// Injected by esbuild into the bundled libraries (zod, papaparse): their timers and console go
// through n8n-workflow's helpers, as n8n asks of community nodes (no global timers, no console).
// Only papaparse uses them: a 3 ms retry while a paused parse resumes, and a warning about
// renamed duplicate headers, which goes to n8n's log instead of the process's stdout.
import { LoggerProxy, sleep } from 'n8n-workflow';

export function setTimeout(callback, ms, ...args) {
	void sleep(Number(ms) || 0).then(() => callback(...args));
	return 0;
}

const text = (parts) =>
	parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' ');

export const console = {
	log: (...parts) => LoggerProxy.debug(text(parts)),
	debug: (...parts) => LoggerProxy.debug(text(parts)),
	info: (...parts) => LoggerProxy.info(text(parts)),
	warn: (...parts) => LoggerProxy.warn(text(parts)),
	error: (...parts) => LoggerProxy.error(text(parts)),
};
