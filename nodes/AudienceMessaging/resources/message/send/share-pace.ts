/** Share Pace Across Workers: the run's turns, asked of the trigger's board. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { boolean, httpUrl, InputError } from '../../../../../src/base';
import {
	PACE_TOKEN_HEADER,
	PACE_WEBHOOK_PATH,
	paceToken,
	SENDER_SHARERS,
	TurnsUnavailable,
} from '../../../../../src/pace';
import { outsideRequest } from '../../../../../src/http';
import { triggerUse } from './outgoing';
import type { RateGate, TurnRequest } from '../../../../../src/pace';

/** The last path segment of the trigger's Production URL (its callbacks' webhook). */
const CALLBACKS_SEGMENT = 'callbacks';

/**
 * Share Pace Across Workers, read from the first item with the run's other pace options: the
 * trigger's Production URL, checked (before any request of the run) to need only its last segment
 * changed to reach the trigger's pace webhook. Undefined when the option is off.
 */
export function sharedPaceTrigger(
	context: IExecuteFunctions,
	options: Record<string, unknown>,
	senderId: string | undefined,
): URL | undefined {
	if (options.sharePace === undefined || !boolean(options.sharePace, 'sharePace')) return undefined;
	if (!senderId)
		throw new InputError(
			'sharePace',
			"it needs Sender ID for Rate Limit: the runs take turns at that sender's rateLimit",
		);
	if (!triggerUse(context.getNodeParameter('sendToTrigger', 0, false))) {
		throw new InputError(
			'sharePace',
			'it needs Send Status Events to a Trigger (Yes, or No, Only Share Pace Through It): the turns come from that Audience Messaging Trigger',
		);
	}
	const url = new URL(httpUrl(context.getNodeParameter('triggerUrl', 0, ''), 'triggerUrl'));
	const segments = url.pathname.split('/');
	if (segments[segments.length - 1] !== CALLBACKS_SEGMENT) {
		throw new InputError(
			'triggerUrl',
			`to share the pace, it must be the trigger's Production URL as the trigger shows it, ending in /${CALLBACKS_SEGMENT}`,
		);
	}
	return url;
}

/** The hint's words for what the run alone divides the sender's rate by (SharedTurns.fail). */
function shareOf(runs: number | undefined): string {
	if (!runs)
		return `, the sender's rate limit over ${SENDER_SHARERS}, as the trigger has not said lately how many runs share it`;
	return runs > 1 ? `, the sender's rate limit over the ${runs} runs the trigger last saw` : '';
}

/** Answers of a busy or restarting trigger, or of a proxy before it: asked again. */
const TRANSIENT = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * Gives the run's gate turns from the trigger's board (SharedTurns), asked for with the pace token
 * in a header (never in the URL, which proxies and access logs keep), no redirect followed, a
 * timeout of its own (askGrant's, shorter when the run's wait budget is nearly spent). When the
 * board cannot be asked, or its turns do not hold the sender's limit, the run paces itself alone
 * and the node's output says why (an execution hint): the token never appears in it.
 */
export function shareTurns(
	context: IExecuteFunctions,
	gate: RateGate,
	settings: {
		trigger: URL;
		secret: string;
		key: string;
		perSecond: number;
		wanted: () => number;
	},
): void {
	const url = new URL(settings.trigger.toString());
	url.pathname = url.pathname.replace(/[^/]*$/, PACE_WEBHOOK_PATH);
	url.search = '';
	const token = paceToken(settings.secret);
	const ask = async (request: TurnRequest, timeoutMs: number): Promise<unknown> => {
		// outsideRequest, not apiRequest: this ask runs inside the run's RateGate, which apiRequest
		// waits on. No API credential, no redirect followed, the token kept out of failures.
		const response = await outsideRequest(context, {
			method: 'POST',
			url: url.toString(),
			// A new connection per ask: a balancer spreading connections (not requests) over
			// webhook processes would otherwise keep every ask of this worker on one board.
			headers: { [PACE_TOKEN_HEADER]: token, Connection: 'close' },
			body: request as unknown as IDataObject,
			timeoutMs,
			secrets: [token, settings.secret],
		}).catch((error: Error) => error);
		if (response instanceof Error)
			throw new TurnsUnavailable(`the trigger could not be reached (${response.message})`, true);
		if (response.statusCode === 404)
			throw new TurnsUnavailable(
				'the trigger answered HTTP 404: is its workflow published, and does that n8n run the same version of this package?',
			);
		if (response.statusCode === 401)
			throw new TurnsUnavailable(
				"the trigger answered HTTP 401: does it use this node's Callbacks credential, and does that n8n run the same version of this package?",
			);
		if (response.statusCode !== 200)
			throw new TurnsUnavailable(
				`the trigger answered HTTP ${response.statusCode}`,
				TRANSIENT(response.statusCode),
			);
		return response.body;
	};
	gate.shareTurns(
		ask,
		settings.key,
		settings.perSecond,
		(reason, share) => {
			const perSecond = Number(share.perSecond.toFixed(2));
			const rate = `${perSecond} message${perSecond === 1 ? '' : 's'} per second`;
			context.addExecutionHints?.({
				type: 'warning',
				location: 'outputPane',
				message: `Share Pace Across Workers: ${reason}${/[.?!]$/.test(reason) ? '' : '.'} This run paced itself alone from then on, at most ${rate}${shareOf(share.runs)}, backing off when refused (the package's docs, Rate limits and queue mode, say why).`,
			});
		},
		settings.wanted,
	);
}
