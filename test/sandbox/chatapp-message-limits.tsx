/** What a chat-app message may hold: its types, media file extensions, lengths and counts. */

export const MESSAGE_TYPES = [
	'text',
	'image',
	'audio',
	'video',
	'document',
	'contacts',
	'location',
	'interactive',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export type MediaType = 'image' | 'audio' | 'video' | 'document';
export const isMediaType = (type: MessageType): type is MediaType =>
	type === 'image' || type === 'audio' || type === 'video' || type === 'document';

/**
 * Sandbox choice (spec: not shown): a media URL is judged by its file extension, one of these per
 * type (read from the spec's content types); a URL without one is accepted. The file is not
 * fetched to accept the message, so the 5 MB limit is not checked here (with the mediaFetch
 * setting the accepted message's URL is fetched afterwards: chatapp-media.tsx).
 */
export const MEDIA_EXTENSIONS: Readonly<Record<MediaType, readonly string[]>> = {
	image: ['jpg', 'jpeg', 'png'],
	audio: ['aac', 'm4a', 'mp4', 'amr', 'mp3', 'mpeg', 'ogg', 'opus'],
	video: ['mp4', '3gp', '3gpp'],
	document: ['pdf'],
};

/**
 * Sandbox choice (spec: not shown): every limit here. The spec gives none of them; all but
 * externalId follow the chat-app provider's published limits, and nodes must not take them for the
 * platform's.
 */
export const MESSAGE_LIMITS = {
	/** Characters of a text message. */
	textBody: 4096,
	/** Characters of externalId (the spec: alphanumeric, no length). */
	externalId: 64,
	/** Characters of interactive.body.text. */
	interactiveBody: 1024,
	/** Reply buttons per message: 1 to this. */
	buttons: 3,
	/** Characters of a button's reply.id. */
	buttonId: 256,
	/** Characters of a button's reply.title. */
	buttonTitle: 20,
} as const;

/**
 * Sandbox choice (spec: not shown): only the sub-item types seen in the spec are accepted, exactly
 * as written.
 */
export const CONTACT_SUB_ITEM_TYPES = ['HOME', 'WORK'] as const;
