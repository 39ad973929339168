/** Message › Send's pace: per second or a sender's rate limit, read with the sender's daily quota. */
import type { IExecuteFunctions } from 'n8n-workflow';

import {
	apiRequest,
	baseUrlOf,
	configureRun,
	identifiedObjectResponse,
} from '../../../../../src/http';
import { InputError, number, oneOf, pathSegment, text } from '../../../../../src/base';
import type { FieldLabels } from '../../../../../src/base';
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
	/**
	 * What a run does when its unique recipients exceed the sender's daily quota (Over the Daily
	 * Quota; the quota is known with senderId only).
	 */
	overQuota: (typeof OVER_QUOTA)[number];
}

/** Over the Daily Quota set, Sender ID for Rate Limit not: said above the output. */
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
		// The quota is the sender's: without it the option has nothing to hold the run to.
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
