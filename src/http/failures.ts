/** Which failures apiRequest sends again, and which may hide a write the platform applied. */

import type { IHttpRequestMethods } from 'n8n-workflow';

/** Resends of an idempotent request (GET, HEAD, DELETE) after a 5xx or a dropped connection. */
export const IDEMPOTENT_RETRIES = 2;

export const IDEMPOTENT: IHttpRequestMethods[] = ['GET', 'HEAD', 'DELETE'];
/** Connection failures worth another try; not a timeout, which already took the whole timeout. */
export const RETRIABLE_CODES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'EAI_AGAIN'];
/** Failures before a request can reach the platform; any other, for a write, leaves it unknown. */
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
/** A write's answers that leave open whether it was applied: the platform's 500, a gateway's. */
export const MAYBE_APPLIED_STATUSES = [500, 502, 503, 504];

/** Writes: a lost answer may hide an applied request, and a 2xx means the platform accepted it. */
export function isWrite(method: IHttpRequestMethods): boolean {
	return method === 'POST' || method === 'PUT' || method === 'PATCH';
}

/** Whether a request that got no answer is sent again (an idempotent one, a passing failure). */
export function resendsAfter(idempotent: boolean, retries: number, error: unknown): boolean {
	return idempotent && retries < IDEMPOTENT_RETRIES && RETRIABLE_CODES.includes(errorCode(error));
}

export function errorCode(error: unknown): string {
	const err = (error ?? {}) as { code?: string; cause?: { code?: string } };
	return String(err.code ?? err.cause?.code ?? '');
}

/** A request that got no answer: its code (REQUEST_FAILED if none), message, whether it timed out. */
export function noAnswer(error: unknown): { code: string; message?: string; timedOut: boolean } {
	const err = (error ?? {}) as { code?: string; message?: string; cause?: { code?: string } };
	const code = err.code ?? err.cause?.code ?? 'REQUEST_FAILED';
	const timedOut =
		code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(String(err.message));
	return { code, message: err.message, timedOut };
}
