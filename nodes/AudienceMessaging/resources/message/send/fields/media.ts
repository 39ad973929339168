/** Media message fields: a public URL, or an item's binary file n8n links to (binary-media.ts). */
import type { INodeProperties } from 'n8n-workflow';

import { MEDIA } from '../../../../../../src/platform';
import type { MediaType } from '../../../../../../src/platform';

/** Link Valid For (Options), in minutes: its default and bounds (a week at most). */
export const LINK_MINUTES = { default: 60, min: 1, max: 7 * 24 * 60 };

const mediaNotice = (type: MediaType): INodeProperties => ({
	displayName: `The ${type} must be ${
		// The spec writes document/pdf, which no server sends: a PDF is application/pdf.
		type === 'document'
			? 'a PDF (application/pdf)'
			: `one of ${MEDIA[type].contentTypes.join(', ')}`
	}, at most 5 MB, and reachable by the platform`,
	name: `${type}Notice`,
	type: 'notice',
	default: '',
	displayOptions: { show: { messageType: [type] } },
});

export const mediaFields = (types: MediaType[]): INodeProperties[] => [
	...types.map(mediaNotice),
	{
		displayName: 'Source',
		name: 'mediaSource',
		type: 'options',
		noDataExpression: true,
		default: 'url',
		options: [
			{
				name: 'Binary File',
				value: 'binary',
				description: "A file of the input item, at a link under n8n's own URL",
			},
			{ name: 'URL', value: 'url', description: 'A public URL of the file' },
		],
		displayOptions: { show: { messageType: types, '@tool': [false] } },
	},
	{
		displayName: 'Media URL',
		name: 'mediaUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/files/welcome.jpg',
		description:
			'Public http(s) URL of the file; its content type and size can be checked before sending (Options › Check Media Before Sending)',
		displayOptions: { show: { messageType: types }, hide: { mediaSource: ['binary'] } },
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field containing the file to be sent',
		displayOptions: { show: { messageType: types, mediaSource: ['binary'] } },
	},
	{
		displayName:
			"n8n gives the file a signed link under its own URL (WEBHOOK_URL), valid for Options › Link Valid For (Minutes): the platform must reach that URL, as for Send and Wait's links. n8n must keep binary data outside memory (N8N_DEFAULT_BINARY_DATA_MODE filesystem, database or s3).",
		name: 'binaryNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { messageType: types, mediaSource: ['binary'] } },
	},
	{
		displayName:
			"As an AI agent's tool this node sends media from a URL only: an agent has no binary files",
		name: 'toolMediaNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { messageType: types, '@tool': [true] } },
	},
];
