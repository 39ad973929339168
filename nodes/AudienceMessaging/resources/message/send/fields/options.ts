/** Message › Send's Options: callbacks, media, IDs, pace, quota, quiet hours, messages sent before. */
import type { INodeProperties } from 'n8n-workflow';

import {
	optionsCollection,
	parallelRequestsOption,
	previewOption,
	rateLimitWaitOption,
} from '../../../../runner/descriptions';
import { LINK_MINUTES } from './media';
import { quietHoursOption } from './quiet-hours';

export const DEFAULT_MESSAGES_PER_SECOND = 10;
export const DEFAULT_PARALLEL_REQUESTS = 10;
export const MAX_PARALLEL_REQUESTS = 50;
export const OVER_QUOTA = ['refuse', 'sendFirst', 'sendAll'] as const;

export const sendOptions = (): INodeProperties =>
	optionsCollection([
		{
			displayName: 'Callback URLs',
			name: 'callbacks',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/…/audience-messaging/…',
			description:
				"Webhook URLs to notify of this message's status changes, comma-separated. For an Audience Messaging Trigger, use Send Status Events to a Trigger.",
		},
		{
			displayName: 'Check Media Before Sending',
			name: 'checkMedia',
			type: 'boolean',
			default: false,
			description:
				'Whether to ask the media URL for its content type and size (HEAD request) and refuse the message when they do not fit the type',
			displayOptions: { hide: { '/mediaSource': ['binary'] } },
		},
		{
			displayName: 'External ID',
			name: 'externalId',
			type: 'string',
			default: '',
			description:
				'Your own ID for reporting; letters and digits only, at most 64. Left empty, one is made from the workflow, execution and item.',
		},
		{
			displayName: 'Forget Messages Sent Before (Label)',
			name: 'forgetLabel',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2026-11-27',
			description:
				'A label, such as the date. The first run given a new label forgets every message this node remembers, so all are sent again. A Retry or another run with the same label forgets nothing.',
			displayOptions: { show: { skipSentBefore: [true] } },
		},
		{
			displayName: 'Link Valid For (Minutes)',
			name: 'linkValidFor',
			type: 'number',
			typeOptions: { minValue: LINK_MINUTES.min, maxValue: LINK_MINUTES.max },
			default: 60, // LINK_MINUTES.default: n8n's lint reads a literal
			description:
				'How long the platform can fetch the binary file at its link, from when the node starts sending the message (at most a week). Then n8n refuses the link.',
			displayOptions: { show: { '/mediaSource': ['binary'] } },
		},
		rateLimitWaitOption(),
		{
			displayName: 'Message Key',
			name: 'messageKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. spring-sale {{ $json.email }}',
			description:
				"What makes two messages the same message: one with a key this node sent before is not sent again. Empty: the recipient and the message's content.",
			displayOptions: { show: { skipSentBefore: [true] } },
		},
		previewOption(),
		{
			displayName: 'Messages per Second',
			name: 'messagesPerSecond',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 2 },
			default: DEFAULT_MESSAGES_PER_SECOND,
			description:
				"Most messages the run starts per second, all items together (0: no limit). Set it to the sender's rate limit, or use Sender ID for Rate Limit.",
		},
		{
			displayName: 'Over the Daily Quota',
			name: 'overQuota',
			type: 'options',
			default: 'refuse',
			description:
				"Needs Sender ID for Rate Limit (the quota is that sender's; without it this does nothing). What to do when this run has more unique recipients than the quota.",
			options: [
				{ name: 'Refuse the Run', value: 'refuse', description: 'Send nothing and say so' },
				{
					name: 'Send All',
					value: 'sendAll',
					description: 'Send every message; the platform refuses the recipients beyond its quota',
				},
				{
					name: 'Send to the First Recipients',
					value: 'sendFirst',
					description:
						'Send to the first recipients the quota allows, in item order; the others are reported as not sent',
				},
			],
		},
		parallelRequestsOption(DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS, 'messages'),
		quietHoursOption,
		{
			displayName: 'Resend Unconfirmed',
			name: 'resendUnconfirmed',
			type: 'boolean',
			default: false,
			description:
				'Whether to send messages an earlier run may have sent (its answer was lost, or n8n stopped while sending). Off: they come out as unknown, not sent.',
			displayOptions: { show: { skipSentBefore: [true] } },
		},
		{
			displayName: 'Sender ID for Rate Limit',
			name: 'rateLimitSenderId',
			type: 'string',
			default: '',
			placeholder: 'e.g. snd_4f2a',
			description:
				'ID of the sender of Sender Phone Number (Sender › Create outputs it; not checked against the number). The run is paced at its rate limit instead of Messages per Second and knows its daily quota.',
		},
		{
			displayName: 'Share Pace Across Workers',
			name: 'sharePace',
			type: 'boolean',
			default: false,
			description:
				"Whether runs on several n8n workers (queue mode) share the sender's rate limit. Needs Sender ID for Rate Limit and Send Status Events to a Trigger (Yes, or No, Only Share Pace Through It).",
		},
		{
			displayName: 'Skip Messages Sent Before',
			name: 'skipSentBefore',
			type: 'boolean',
			default: true,
			description:
				'Whether a message this node sent in an earlier execution (a retry, a second run) is not sent again. Needs a saved workflow.',
		},
	]);
