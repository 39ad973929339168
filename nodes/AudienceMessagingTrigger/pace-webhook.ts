/** The trigger's pace webhook: Share Pace Across Workers' turns, from this process's board. */
import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { secretMatches } from '../../src/platform/callbacks';
import { RequestRejection } from '../../src/base/rejection';
import {
	PACE_MAX_BYTES,
	PACE_TOKEN_HEADER,
	paceToken,
	parseTurnRequest,
	turnBoard,
} from '../../src/pace/board';

/** The webhook Message › Send asks for its turns (path: PACE_WEBHOOK_PATH). */
export const PACE_WEBHOOK = 'setup';

/** What the trigger's webhook() read of a request to the pace webhook, and how it refuses one. */
export interface PaceCall {
	secret: string | undefined;
	/** The request's Content-Length (NaN when it has none). */
	declaredLength: number;
	rawBody: () => Promise<Buffer | undefined>;
	refuse: (status: number, message: string) => IWebhookResponseData;
	response: ReturnType<IWebhookFunctions['getResponseObject']>;
}

/** No execution started (src/pace/board.ts); checks the pace token (not the callbacks') header. */
export async function answerPace(
	context: IWebhookFunctions,
	{ secret, declaredLength, rawBody, refuse, response }: PaceCall,
): Promise<IWebhookResponseData> {
	// A header given twice comes as a list, which is no token.
	const given = context.getRequestObject().headers[PACE_TOKEN_HEADER];
	if (!secret || typeof given !== 'string' || !secretMatches(given, paceToken(secret)))
		return refuse(401, 'Unknown pace token');
	if (Number.isFinite(declaredLength) && declaredLength > PACE_MAX_BYTES)
		return refuse(413, `Pace request body over ${PACE_MAX_BYTES} bytes`);
	try {
		const grant = turnBoard.take(parseTurnRequest(await rawBody()));
		response.writeHead(200, {
			'Content-Type': 'application/json',
			'Cache-Control': 'no-store',
		});
		response.end(JSON.stringify(grant));
		return { noWebhookResponse: true };
	} catch (error) {
		if (error instanceof RequestRejection) return refuse(error.httpStatus, error.message);
		throw error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error);
	}
}
