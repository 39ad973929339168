/** Check Media Before Sending: a HEAD request to the media URL, with no credential. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { outsideRequest } from '../../../../../src/http';
import { InputError } from '../../../../../src/base';
import { MEDIA, MEDIA_MAX_BYTES, mediaContentTypeFits } from '../../../../../src/platform';
import type { MediaType } from '../../../../../src/platform';

/**
 * HEAD of the media URL: refuses, before any message is sent, a content type or size that the
 * platform would refuse anyway. No credential is sent to it (the URL is not the platform's).
 */
export async function checkMedia(
	context: IExecuteFunctions,
	type: MediaType,
	url: string,
	timeoutMs: number,
): Promise<void> {
	// No credential (outside.ts); redirects followed, as a media URL's CDN answers with them. A
	// failure to reach the URL is the item's field error (named by the caller), not an API error.
	const response = await outsideRequest(context, {
		method: 'HEAD',
		url,
		timeoutMs,
		followRedirects: true,
	}).catch((error: Error) => error);
	if (response instanceof Error)
		throw new InputError('mediaUrl', `the media URL could not be reached (${response.message})`);
	if (response.statusCode >= 400)
		throw new InputError('mediaUrl', `the media URL answered HTTP ${response.statusCode}`);
	const contentType = String(response.headers['content-type'] ?? '');
	if (contentType && !mediaContentTypeFits(type, contentType)) {
		throw new InputError(
			'mediaUrl',
			`the file is ${contentType}; ${type} messages take ${MEDIA[type].contentTypes.join(', ')}`,
		);
	}
	const size = Number(response.headers['content-length']);
	if (Number.isFinite(size) && size > MEDIA_MAX_BYTES) {
		throw new InputError(
			'mediaUrl',
			`the file is ${(size / 1024 / 1024).toFixed(1)} MB; media messages take at most 5 MB`,
		);
	}
}
