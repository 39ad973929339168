/**
 * Which failures of a request apiRequest sends again, and which may hide a write the platform
 * applied.
 */

import type { IHttpRequestMethods } from 'n8n-workflow';

/** Resends of an idempotent request (GET, HEAD, DELETE) after a 5xx or a dropped connection. */
export const IDEMPOTENT_RETRIES = 2;

export const IDEMPOTENT: IHttpRequestMethods[] = ['GET', 'HEAD', 'DELETE'];
/**
 * Connection failures worth one more try; a timeout is not one (it already took the whole timeout).
 */
export const RETRIABLE_CODES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN'];
/**
 * Failures that happen before a request can reach the platform: nothing was sent. Any other
 * failure of a write (a reset, a timeout, a socket closed early) may have come after the platform
 * received it and acted: its outcome is unknown.
 */
export const NEVER_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EAI_NONAME',
	'EAI_FAIL',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EADDRNOTAVAIL',
	'ERR_INVALID_URL',
	'ERR_INVALID_PROTOCOL',
	'ERR_UNESCAPED_CHARACTERS',
	'CERT_HAS_EXPIRED',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'ERR_TLS_CERT_ALTNAME_INVALID',
	'EPROTO',
]);
/**
 * Answers to a write that do not say whether it was applied: the platform's own internal error
 * (500) or a gateway's (502, 503, 504); the platform may have acted on it before failing.
 */
export const MAYBE_APPLIED_STATUSES = [500, 502, 503, 504];

/** Writes: a lost answer may hide an applied request, and a 2xx means the platform accepted it. */
export function isWrite(method: IHttpRequestMethods): boolean {
	return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

/** The code of a failed request's error (or of its cause), '' when it has none. */
export function errorCode(error: unknown): string {
	const err = (error ?? {}) as { code?: string; cause?: { code?: string } };
	return String(err.code ?? err.cause?.code ?? '');
}
