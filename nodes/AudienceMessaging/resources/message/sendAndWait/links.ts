/** Send and Wait's links: signed by n8n, labelled under the message; and when the wait ends. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, WAIT_INDEFINITELY } from 'n8n-workflow';

import { InputError, record, text } from '../../../../../src/base';
import { WAIT_PARAMETER } from './wait';

interface AnswerLink {
	label: string;
	url: string;
}

/** Approval Options: the labels (`true` approve, `false` decline), and whether to offer both. */
export interface Approval {
	labels: Record<'true' | 'false', string>;
	double: boolean;
}

export function approvalOf(context: IExecuteFunctions): Approval {
	const approval = record(
		context.getNodeParameter('approvalOptions.values', 0, {}),
		'approvalOptions.values',
	);
	return {
		labels: {
			true: text(approval.approveLabel, 'approvalOptions.values.approveLabel') || '✓ Approve',
			false:
				text(approval.disapproveLabel, 'approvalOptions.values.disapproveLabel') || '✗ Decline',
		},
		double: approval.approvalType === 'double',
	};
}

/** n8n-signed links (a changed one is refused: approve can't become decline), naming the wait. */
export function answerLinks(
	context: IExecuteFunctions,
	wait: string,
	approval: Approval,
): AnswerLink[] {
	const sign = (context as Partial<IExecuteFunctions>).getSignedResumeUrl;
	if (typeof sign !== 'function')
		throw new NodeOperationError(
			context.getNode(),
			"Send and Wait for Response needs n8n's signed resume links, which this n8n does not offer (n8n 1.123 and 2.x do)",
		);
	// n8n 1.x checks the signature only of executions that ask for it (n8n's own nodes do, here);
	// n8n 2.x checks it always and no longer has the call.
	(context as { setSignatureValidationRequired?: () => void }).setSignatureValidationRequired?.call(
		context,
	);
	const link = (approved: boolean) => {
		try {
			return sign.call(context, { approved: String(approved), [WAIT_PARAMETER]: wait });
		} catch (error) {
			throw new NodeOperationError(
				context.getNode(),
				`n8n gave no link to answer this execution (${(error as Error).message}): run the workflow from a trigger, or with "Execute workflow" in the editor`,
			);
		}
	};
	const responseType = context.getNodeParameter('responseType', 0, 'approval');
	const options = record(context.getNodeParameter('options', 0, {}), 'options');
	if (responseType === 'freeText' || responseType === 'customForm')
		return [
			{
				label: text(options.messageButtonLabel, 'options.messageButtonLabel') || 'Respond',
				url: link(true),
			},
		];
	const { labels } = approval;
	const approve = { label: labels.true, url: link(true) };
	if (!approval.double) return [approve];
	// Decline first, as n8n's own chat nodes list it: a link checker that opens only the first link
	// declines rather than approves.
	return [{ label: labels.false, url: link(false) }, approve];
}

/** The user's text, each link under its label, then (unless off) n8n's chat nodes' attribution. */
export function messageWithLinks(
	message: string,
	links: AnswerLink[],
	attribution: boolean,
): string {
	const lines = links.map(({ label, url }) => `${label}:\n${url}`).join('\n\n');
	const signature = attribution ? '\n\nThis message was sent automatically with n8n' : '';
	return `${message.trim()}\n\n${lines}${signature}`;
}

const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

/** When to stop waiting: Options › Limit Wait Time, or never (n8n's WAIT_INDEFINITELY). */
export function waitTill(options: Record<string, unknown>, now = Date.now()): Date {
	const limit = record(
		record(options.limitWaitTime ?? {}, 'limitWaitTime').values ?? {},
		'limitWaitTime',
	);
	if (Object.keys(limit).length === 0) return WAIT_INDEFINITELY;
	if (limit.limitType === 'atSpecifiedTime') {
		const at = new Date(String(limit.maxDateAndTime ?? ''));
		if (Number.isNaN(at.getTime()))
			throw new InputError('limitWaitTime', 'Max Date and Time must be a date and time');
		return at;
	}
	const amount = Number(limit.resumeAmount ?? 1);
	const unit = String(limit.resumeUnit ?? 'hours');
	if (!Number.isFinite(amount) || amount < 0)
		throw new InputError('limitWaitTime', 'Amount must be a number of 0 or more');
	if (!Object.hasOwn(UNIT_MS, unit))
		throw new InputError('limitWaitTime', 'Unit must be minutes, hours or days');
	return new Date(now + amount * UNIT_MS[unit as keyof typeof UNIT_MS]);
}
