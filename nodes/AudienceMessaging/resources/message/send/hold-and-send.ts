/**
 * Message › Send's last two stages, after every item was read and checked into its record
 * (Outgoing): hold (what was sent before, what is outside its window, what is over the daily
 * quota comes out as it is) and send one (when its turn comes: the last check, claim, post,
 * settle).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, optionalObjectResponse, overQuotaNotSent } from '../../../../../src/http';
import { callbackToken } from '../../../../../src/platform';
import type { Message } from '../../../../../src/platform';
import type { RateGate } from '../../../../../src/pace';
import { readCallbackSecret } from './outgoing';
import type { Outgoing } from './outgoing';
import { openGate } from './rate-and-quota';
import type { readPace } from './rate-and-quota';
import { RunQuietHours, isQuietHold } from './quiet-hours';
import type { RunHistory } from './run-history';

type Pace = ReturnType<typeof readPace>;

/**
 * One run of Message › Send while it sends: its pace (the gate, opened at the first message or to
 * read the sender's quota, so a run that sends nothing asks nothing), its history of messages sent
 * before, its quiet hours, the trigger's secret (read once, when a message calls the trigger back),
 * and how many messages it will send (Share Pace asks for no more turns than that).
 */
export class SendRun {
	private gate: Promise<{ gate: RateGate; dailyQuota?: number }> | undefined;
	private callbackSecret: Promise<string> | undefined;
	/** Messages to send, known once every item is checked: Share Pace asks no more turns. */
	private toSend = Infinity;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly pace: Pace,
		readonly history: RunHistory | undefined,
	) {}

	readonly secret = async () => await (this.callbackSecret ??= readCallbackSecret(this.context));

	private openGate() {
		return (this.gate ??= openGate(this.context, this.pace, this.secret, () => this.toSend));
	}

	/** What identifies a message in an item that did not plainly succeed, or in a preview. */
	readonly describe = ({ message, key }: Outgoing): IDataObject => ({
		from: message.from,
		to: message.to,
		type: message.type,
		externalId: message.externalId,
		...(this.history ? { messageKey: key } : {}),
	});

	readonly quiet = new RunQuietHours();

	/**
	 * Before the first message: holds back the messages sent before, then those outside their quiet
	 * hours (they count towards neither the quota nor the pace, and stay out of the history), then,
	 * with a sender, those beyond its daily quota (the sender is read once, for its rate too).
	 * Returns what each held item comes out as.
	 */
	async beforeSend(
		prepared: Array<{ itemIndex: number; value: Outgoing }>,
	): Promise<Map<number, Error | IDataObject>> {
		const skipped = this.history && (await this.history.skip(prepared, this.describe));
		const held = new Map<number, Error | IDataObject>(skipped?.held);
		const now = Date.now();
		const messages = (skipped ? skipped.messages : prepared).filter(({ itemIndex, value }) => {
			const outside = this.quiet.outside(value.quiet, now);
			if (outside) held.set(itemIndex, { ...this.describe(value), ...outside });
			return !outside;
		});
		this.toSend = messages.length;
		if (this.pace.senderId && this.pace.overQuota !== 'sendAll' && messages.length > 0) {
			const { dailyQuota } = await this.openGate();
			const overs = dailyQuota
				? overQuota(this.context, this.pace, dailyQuota, messages)
				: new Map<number, Error>();
			for (const [itemIndex, error] of overs) held.set(itemIndex, error);
			this.toSend = messages.length - overs.size;
		}
		this.history?.plan(messages.filter(({ itemIndex }) => !held.has(itemIndex)));
		return held;
	}

	/** One message, when the pace allows (and, with a history, claimed and confirmed). */
	async send(outgoing: Outgoing, itemIndex: number): Promise<IDataObject> {
		const { quiet, key } = outgoing;
		// Its turn came after its window closed.
		const late = this.quiet.outside(quiet);
		if (late) return { ...this.describe(outgoing), ...late };
		// With a history: claimed first (refused when another run claimed it since), then settled.
		const claimed = this.history && key !== undefined && (await this.history.claim(key, itemIndex));
		return await this.post(outgoing, itemIndex).then(
			(data) => {
				if (key !== undefined) this.history?.sent(key);
				return { ...this.describe(outgoing), ...data };
			},
			(error: unknown) => {
				if (key !== undefined) this.history?.failed(key, claimed === true, error);
				if (isQuietHold(error)) return { ...this.describe(outgoing), ...error.held };
				throw error;
			},
		);
	}

	/** POST /chatapp/messages at the run's pace: the platform's answer. */
	private async post({ message, quiet, file }: Outgoing, itemIndex: number): Promise<IDataObject> {
		await this.openGate();
		// A file is linked anew when sent: a late message gets all of Link Valid For.
		const link = file?.sign();
		const body = link ? { ...message, body: link.url } : message;
		const { data } = await apiRequest(this.context, {
			base: 'messaging',
			method: 'POST',
			path: '/chatapp/messages',
			body: body as unknown as IDataObject,
			itemIndex,
			action: `send a ${message.type} message from ${message.from} to ${message.to}`,
			reconcile: `look for External ID ${message.externalId} in the platform's message reports or in the message's status callbacks`,
			expect: optionalObjectResponse,
			// The trigger's token and a file link's token stay out of a preview and of errors that
			// echo the body.
			secrets: [
				...(this.callbackSecret ? [callbackToken(await this.callbackSecret)] : []),
				...(link ? [link.token] : []),
			],
			// Its window may close while it waits for the pace or a 429's pause.
			beforeEachTry: () => this.quiet.check(quiet),
		});
		return data;
	}

	/**
	 * What was sent is confirmed, what was not is released (even when the run stops on an error), and
	 * a pacer shared with other runs of the sender is given back (see sharedPacer): else it would be
	 * kept for the life of the process.
	 */
	async close(): Promise<void> {
		await this.history?.close();
		if (this.gate) (await this.gate.catch(() => undefined))?.gate.release();
	}
}

/**
 * The messages a run may not send because of the sender's daily quota of unique recipients, known
 * before the first is sent: the recipients beyond the first `dailyQuota` of the run (in item order;
 * more messages to a recipient already counted still go, as the platform counts each recipient once
 * a day). With Over the Daily Quota at Refuse the Run, the run stops here instead, nothing sent.
 */
function overQuota(
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
