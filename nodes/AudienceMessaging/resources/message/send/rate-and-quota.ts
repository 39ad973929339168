/** Message › Send's pace: per second or a sender's rate limit, and the sender's daily quota. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	apiRequest,
	baseUrlOf,
	configureRun,
	identifiedObjectResponse,
	overQuotaNotSent,
} from '../../../../../src/http';
import { InputError, number, oneOf, pathSegment, text } from '../../../../../src/base';
import type { FieldLabels } from '../../../../../src/base';
import type { Message } from '../../../../../src/platform';
import { senderPace } from '../../../../../src/pace';
import type { RateGate } from '../../../../../src/pace';
import { wholeOptionOf } from '../../../runner/descriptions';
import { validated } from '../../../runner/item-errors';
import {
	DEFAULT_MESSAGES_PER_SECOND,
	DEFAULT_PARALLEL_REQUESTS,
	MAX_PARALLEL_REQUESTS,
	OVER_QUOTA,
} from './fields/options';
import { sharedPaceTrigger, shareTurns } from './share-pace';

export interface Pace {
	messagesPerSecond: number;
	parallelRequests: number;
	senderId?: string;
	/** Share Pace Across Workers: the trigger's Production URL, whose board gives the turns. */
	sharePace?: URL;
	/** Over the Daily Quota (a quota is known with senderId only). */
	overQuota: (typeof OVER_QUOTA)[number];
}

const NO_QUOTA_WITHOUT_SENDER =
	"Over the Daily Quota did nothing: the run knows a sender's daily quota only from Sender ID for Rate Limit, which is empty. Set it to the sender's ID (Sender › Create outputs it).";

/** The run's pace, from the first item's Options: one pace for the whole run. */
export function readPace(
	context: IExecuteFunctions,
	labels: FieldLabels,
	options: Record<string, unknown>,
): Pace {
	return validated(context, 0, labels, () => {
		const messagesPerSecond =
			options.messagesPerSecond === undefined
				? DEFAULT_MESSAGES_PER_SECOND
				: number(options.messagesPerSecond, 'messagesPerSecond');
		if (messagesPerSecond < 0)
			throw new InputError(
				'messagesPerSecond',
				`it must be 0 (no pacing) or more (got ${messagesPerSecond})`,
			);
		const parallelRequests = wholeOptionOf(
			options,
			'parallelRequests',
			DEFAULT_PARALLEL_REQUESTS,
			MAX_PARALLEL_REQUESTS,
		);
		const senderId = text(options.rateLimitSenderId, 'rateLimitSenderId');
		const overQuota =
			options.overQuota === undefined
				? 'refuse'
				: oneOf(options.overQuota, 'overQuota', OVER_QUOTA);
		const sender = senderId ? pathSegment(senderId, 'rateLimitSenderId', 'a sender ID') : undefined;
		const sharePace = sharedPaceTrigger(context, options, sender);
		if (options.overQuota !== undefined && !sender)
			context.addExecutionHints?.({
				type: 'warning',
				location: 'outputPane',
				message: NO_QUOTA_WITHOUT_SENDER,
			});
		return {
			messagesPerSecond,
			parallelRequests,
			overQuota,
			...(sender ? { senderId: sender } : {}),
			...(sharePace ? { sharePace } : {}),
		};
	});
}

/**
 * The run's RateGate, where every request waits its slot (configureRun): at the sender's rateLimit
 * when a sender is given (read once, with its daily quota), else at Messages per Second.
 */
export async function openGate(
	context: IExecuteFunctions,
	pace: Pace,
	secret: () => Promise<string>,
	wanted: () => number,
): Promise<{ gate: RateGate; dailyQuota?: number }> {
	if (!pace.senderId) return { gate: configureRun(context, { pace: pace.messagesPerSecond }) };
	const { data } = await apiRequest(context, {
		base: 'messaging',
		method: 'GET',
		path: `/chatapp/senders/${encodeURIComponent(pace.senderId)}`,
		action: `read the rate limit of sender ${pace.senderId}`,
		expect: identifiedObjectResponse,
	});
	// The sender's limit is one for all its runs: runs of this process share one pacer.
	const { baseURL } = await baseUrlOf(context, 'messaging');
	const key = `${baseURL} ${pace.senderId}`;
	const senderRate = senderPace(data.rateLimit, pace.messagesPerSecond);
	const gate = configureRun(context, { pace: senderRate, shareKey: key });
	// Runs of other processes too (queue mode's workers) take turns, from the trigger's board.
	if (pace.sharePace && typeof senderRate === 'object') {
		shareTurns(context, gate, {
			trigger: pace.sharePace,
			secret: await secret(),
			key,
			perSecond: senderRate.perSecond,
			wanted,
		});
	}
	const quota = Number(data.dailyQuota);
	return { gate, ...(Number.isInteger(quota) && quota > 0 ? { dailyQuota: quota } : {}) };
}

/**
 * Before the first send: the items beyond the first `dailyQuota` unique recipients, in item order
 * (a counted recipient's later messages still go). At Refuse the Run, throws instead.
 */
export function overQuota(
	context: IExecuteFunctions,
	pace: Pace,
	dailyQuota: number,
	messages: Array<{ itemIndex: number; value: { message: Message } }>,
): Map<number, Error> {
	const counted = new Set<string>();
	const beyond = new Set<string>();
	const held = new Map<number, Error>();
	for (const { itemIndex, value } of messages) {
		const { to } = value.message;
		if (counted.has(to)) continue;
		if (counted.size < dailyQuota && !beyond.has(to)) {
			counted.add(to);
			continue;
		}
		beyond.add(to);
		held.set(
			itemIndex,
			overQuotaNotSent(context.getNode(), {
				itemIndex,
				to,
				senderId: pace.senderId!,
				dailyQuota,
			}),
		);
	}
	if (held.size && pace.overQuota === 'refuse') {
		throw new NodeOperationError(
			context.getNode(),
			`This run would message ${counted.size + beyond.size} unique recipients, more than sender ${pace.senderId}'s daily quota of ${dailyQuota}`,
			{
				description: `Nothing was sent. The platform counts unique recipients per day (UTC), earlier runs included, and refuses the ones beyond the quota. Send to fewer recipients, or set Options › Over the Daily Quota to Send to the First Recipients to send to the first ${dailyQuota} and report the others as not sent.`,
			},
		);
	}
	return held;
}
