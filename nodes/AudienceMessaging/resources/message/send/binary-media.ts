/** Source: Binary File: an item's file checked, kept where its link lasts, and signed by n8n. */
import { createHash } from 'node:crypto';

import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import { InputError, number, oneOf, quoted, text } from '../../../../../src/base';
import { MEDIA, MEDIA_MAX_BYTES, mediaContentTypeFits } from '../../../../../src/platform';
import type { MediaType, MessageType } from '../../../../../src/platform';
import { inputBinary } from '../../../runner/binary';
import { MEDIA_TYPES } from './fields';
import { LINK_MINUTES } from './fields/media';
import type { Reader } from '../../../runner/parameters';

const FIELD = 'binaryPropertyName';

/**
 * An item's file, checked for its message type and published by n8n: `sign()` gives a new signed
 * link to it (valid for the run's Link Valid For from then on), `content` what identifies the
 * file's bytes in a message key (its hash: a link changes each run, the bytes do not).
 */
export interface PublishedMedia {
	sign: () => { url: string; token: string };
	content: () => Promise<string>;
}

/** A file's message body until it is sent and its link signed (a URL, as the field must be). */
export const FILE_LINK_UNSIGNED = 'https://file-link.invalid/';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Bytes: as n8n wrote on the item, else its store's metadata, else the inline data's length. */
async function sizeOf(
	context: IExecuteFunctions,
	binary: IBinaryData,
): Promise<number | undefined> {
	if (typeof binary.bytes === 'number') return binary.bytes;
	if (binary.id) {
		const metadata = await context.helpers.getBinaryMetadata(binary.id).catch(() => undefined);
		const size = Number(metadata?.fileSize);
		return Number.isFinite(size) ? size : undefined;
	}
	return typeof binary.data === 'string' ? Buffer.byteLength(binary.data, 'base64') : undefined;
}

function checkType(type: MediaType, binary: IBinaryData, name: string): void {
	const mimeType = String(binary.mimeType ?? '').trim();
	if (mimeType && mediaContentTypeFits(type, mimeType)) return;
	const taken = MEDIA[type].contentTypes.join(', ');
	const opus =
		type === 'audio' && /^audio\/ogg\s*$/i.test(mimeType)
			? ' (plain audio/ogg is not taken: an Opus file needs its MIME type set to audio/ogg; codecs=opus)'
			: '';
	throw new InputError(
		FIELD,
		`the file ${name} is ${mimeType || 'of no known type'}; ${type} messages take ${taken}${opus}`,
	);
}

/**
 * Checks the item's binary file for a media message of `type` before any request (present, its MIME
 * type, at most MEDIA_MAX_BYTES, kept where n8n can publish it) and returns how to publish it
 * through n8n's signed links (`createBinarySignedUrl`, n8n's REST URL). An AI agent's tool has no
 * Source field (fields/media.ts): it sends a URL.
 */
async function binaryMedia(
	context: IExecuteFunctions,
	itemIndex: number,
	type: MediaType,
	propertyName: string,
	minutes: number,
	files: RunFiles,
): Promise<PublishedMedia> {
	const binary = inputBinary(context, itemIndex, propertyName, FIELD);
	const name = binary.fileName ? quoted(binary.fileName) : `in ${quoted(propertyName)}`;
	checkType(type, binary, name);
	const size = await sizeOf(context, binary);
	if (size !== undefined && size > MEDIA_MAX_BYTES)
		throw new InputError(
			FIELD,
			`the file ${name} is ${megabytes(size)}; media messages take at most 5 MB`,
		);
	const { helpers } = context;
	if (typeof helpers.createBinarySignedUrl !== 'function')
		throw new InputError(
			'mediaSource',
			'this n8n cannot give a file a link (it has no createBinarySignedUrl): choose Source: URL, or update n8n',
		);
	const stored = await files.lasting(binary);
	if (!stored.id)
		throw new InputError(
			FIELD,
			'n8n keeps this file in memory (N8N_DEFAULT_BINARY_DATA_MODE=default), where it cannot give it a link: set N8N_DEFAULT_BINARY_DATA_MODE to filesystem (or database, s3) and restart n8n, or choose Source: URL',
		);
	const sign = () => {
		const url = helpers.createBinarySignedUrl(stored, `${Math.round(minutes * 60)}s`);
		return { url, token: new URL(url).searchParams.get('token') ?? '' };
	};
	const id = stored.id;
	return { sign, content: async () => await files.hash(id) };
}

/** A file stored before its execution had an ID: in n8n's `temp` folder of the workflow. */
const TEMP_FILE = /^[^:]+:.*\/temp\//;

function once<T>(kept: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
	let value = kept.get(key);
	if (!value) kept.set(key, (value = make()));
	return value;
}

/**
 * A run's files, each stored where its link lasts and hashed at most once, however many items share
 * it (one upload sent to many people).
 */
export class RunFiles {
	private readonly stored = new Map<string, Promise<IBinaryData>>();
	private readonly hashes = new Map<string, Promise<string>>();

	constructor(private readonly context: IExecuteFunctions) {}

	/**
	 * The file as it stays where its link finds it:
	 * - a trigger's file (a webhook's or a form's upload) is stored before its execution has an ID,
	 *   and n8n moves it when the execution ends: a link to it would then answer 404. It is copied
	 *   into the execution's own storage, which lasts as long as the execution's data;
	 * - a file held in the item (a Code node's, or any in n8n's memory mode) is given to n8n's
	 *   store, which keeps it outside memory unless n8n runs in memory mode (then it has no ID).
	 */
	async lasting(binary: IBinaryData): Promise<IBinaryData> {
		if (binary.id && !TEMP_FILE.test(binary.id)) return binary;
		const { helpers } = this.context;
		return await once(
			this.stored,
			binary.id ?? binary.data,
			async () =>
				await helpers.prepareBinaryData(
					binary.id
						? await helpers.getBinaryStream(binary.id)
						: Buffer.from(binary.data, BINARY_ENCODING),
					binary.fileName,
					binary.mimeType,
				),
		);
	}

	async hash(id: string): Promise<string> {
		const { helpers } = this.context;
		return await once(this.hashes, id, async () => {
			const sha256 = createHash('sha256');
			for await (const chunk of await helpers.getBinaryStream(id))
				sha256.update(chunk as Uint8Array);
			return `sha256:${sha256.digest('hex')}`;
		});
	}
}

/** The item's file with Source: Binary File, checked; undefined for a media URL or other types. */
export async function itemMedia(
	context: IExecuteFunctions,
	read: Reader,
	itemIndex: number,
	type: MessageType,
	options: Record<string, unknown>,
	files: RunFiles,
): Promise<PublishedMedia | undefined> {
	if (!MEDIA_TYPES.includes(type as MediaType)) return undefined;
	const source = oneOf(read('mediaSource', itemIndex, 'url'), 'mediaSource', ['url', 'binary']);
	if (source === 'url') return undefined;
	const minutes =
		options.linkValidFor === undefined
			? LINK_MINUTES.default
			: number(options.linkValidFor, 'linkValidFor');
	if (minutes < LINK_MINUTES.min || minutes > LINK_MINUTES.max)
		throw new InputError(
			'linkValidFor',
			`it is ${minutes}; a link is valid for ${LINK_MINUTES.min} to ${LINK_MINUTES.max} minutes (a week)`,
		);
	const field = text(read(FIELD, itemIndex, 'data'), FIELD);
	if (!field) throw new InputError(FIELD, 'the name of the binary field is required');
	return await binaryMedia(context, itemIndex, type as MediaType, field, minutes, files);
}
