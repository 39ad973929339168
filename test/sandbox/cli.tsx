/**
 * Runs the sandbox as its own process:
 * node --import tsx test/sandbox/cli.tsx [--port 5678] [--api-key xyz] [--host 127.0.0.1]
 * [--csv-max-bytes N]
 * [--templates wallet-templates.json] [--quota-exceeded reject|status] [--callback-statuses
 * QUEUE,DEQUEUED,SENT]
 * [--callback-delay-ms N] [--callback-max-attempts N] [--callback-retry-delay-ms N]
 * [--callback-timeout-ms N]
 *     [--rate-limit-window second|sliding|tokenBucket] [--rate-limit-burst N] [--media-fetch]
 *     [--latency-ms N]
 * Env fallbacks: SANDBOX_PORT, SANDBOX_API_KEY, SANDBOX_HOST, SANDBOX_CSV_MAX_BYTES,
 * SANDBOX_TEMPLATES,
 * SANDBOX_QUOTA_EXCEEDED, SANDBOX_CALLBACK_STATUSES, SANDBOX_CALLBACK_DELAY_MS,
 * SANDBOX_CALLBACK_MAX_ATTEMPTS,
 * SANDBOX_CALLBACK_RETRY_DELAY_MS, SANDBOX_CALLBACK_TIMEOUT_MS, SANDBOX_RATE_LIMIT_WINDOW,
 * SANDBOX_RATE_LIMIT_BURST,
 *   SANDBOX_MEDIA_FETCH (1 or true; 0, false or empty: off), SANDBOX_LATENCY_MS.
 * --templates: a JSON file holding an array of wallet templates; it replaces the default ones.
 * The chat-app flags are the startSandbox options of the same name (all optional).
 * Prints one JSON line with the URLs once listening; SIGINT/SIGTERM close it and exit 0.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startSandbox } from './server';
import type { QuotaExceededMode } from './chatapp-messages';
import type { RateLimitWindow } from './rate-limit';
import type { WalletTemplateInput } from './wallet-templates';

function toNumber(value: string | undefined, name: string): number | undefined {
	if (value === undefined || value === '') return undefined;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0)
		throw new Error(`${name} must be a non-negative integer (got "${value}")`);
	return n;
}

function readTemplates(file: string | undefined): WalletTemplateInput[] | undefined {
	if (!file) return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		throw new Error(`cannot read templates file ${file}: ${(error as Error).message}`);
	}
	if (!Array.isArray(parsed))
		throw new Error(`templates file ${file} must hold a JSON array of wallet templates`);
	return parsed as WalletTemplateInput[];
}

/** The --media-fetch flag, else SANDBOX_MEDIA_FETCH: 1/true on, 0/false/empty off. */
function mediaFetch(flag: boolean | undefined, env: string | undefined): boolean | undefined {
	if (flag) return true;
	const value = env?.trim().toLowerCase();
	if (value === undefined || value === '') return undefined;
	if (value === '1' || value === 'true') return true;
	if (value === '0' || value === 'false') return false;
	throw new Error(`SANDBOX_MEDIA_FETCH must be 1, true, 0 or false (got "${env}")`);
}

/** `QUEUE, SENT` → ['QUEUE', 'SENT']; empty → undefined. */
function list(value: string | undefined): string[] | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	return value.split(',').map((item) => item.trim());
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			port: { type: 'string' },
			'api-key': { type: 'string' },
			host: { type: 'string' },
			'csv-max-bytes': { type: 'string' },
			templates: { type: 'string' },
			'quota-exceeded': { type: 'string' },
			'callback-statuses': { type: 'string' },
			'callback-delay-ms': { type: 'string' },
			'callback-max-attempts': { type: 'string' },
			'callback-retry-delay-ms': { type: 'string' },
			'callback-timeout-ms': { type: 'string' },
			'rate-limit-window': { type: 'string' },
			'rate-limit-burst': { type: 'string' },
			'media-fetch': { type: 'boolean' },
			'latency-ms': { type: 'string' },
		},
	});
	const env = process.env;
	const sandbox = await startSandbox({
		port: toNumber(values.port ?? env.SANDBOX_PORT, 'port'),
		apiKey: (values['api-key'] ?? env.SANDBOX_API_KEY) || undefined,
		host: (values.host ?? env.SANDBOX_HOST) || undefined,
		csvMaxBytes: toNumber(values['csv-max-bytes'] ?? env.SANDBOX_CSV_MAX_BYTES, 'csv-max-bytes'),
		templates: readTemplates(values.templates ?? env.SANDBOX_TEMPLATES),
		quotaExceeded: ((values['quota-exceeded'] ?? env.SANDBOX_QUOTA_EXCEEDED) || undefined) as
			| QuotaExceededMode
			| undefined,
		callbackStatuses: list(values['callback-statuses'] ?? env.SANDBOX_CALLBACK_STATUSES),
		callbackDelayMs: toNumber(
			values['callback-delay-ms'] ?? env.SANDBOX_CALLBACK_DELAY_MS,
			'callback-delay-ms',
		),
		callbackMaxAttempts: toNumber(
			values['callback-max-attempts'] ?? env.SANDBOX_CALLBACK_MAX_ATTEMPTS,
			'callback-max-attempts',
		),
		callbackRetryDelayMs: toNumber(
			values['callback-retry-delay-ms'] ?? env.SANDBOX_CALLBACK_RETRY_DELAY_MS,
			'callback-retry-delay-ms',
		),
		callbackTimeoutMs: toNumber(
			values['callback-timeout-ms'] ?? env.SANDBOX_CALLBACK_TIMEOUT_MS,
			'callback-timeout-ms',
		),
		rateLimitWindow: ((values['rate-limit-window'] ?? env.SANDBOX_RATE_LIMIT_WINDOW) ||
			undefined) as RateLimitWindow | undefined,
		rateLimitBurst: toNumber(
			values['rate-limit-burst'] ?? env.SANDBOX_RATE_LIMIT_BURST,
			'rate-limit-burst',
		),
		mediaFetch: mediaFetch(values['media-fetch'], env.SANDBOX_MEDIA_FETCH),
		latencyMs: toNumber(values['latency-ms'] ?? env.SANDBOX_LATENCY_MS, 'latency-ms'),
	});
	const { url, listsBaseUrl, walletBaseUrl, baseUrl } = sandbox;
	process.stdout.write(`${JSON.stringify({ url, listsBaseUrl, walletBaseUrl, baseUrl })}\n`);

	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`sandbox failed to start: ${(error as Error).message}\n`);
	process.exit(1);
});
