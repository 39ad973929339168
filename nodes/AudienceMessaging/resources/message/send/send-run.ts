import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, optionalObjectResponse } from '../../../../../src/http';
import { callbackToken } from '../../../../../src/platform';
import type { Message } from '../../../../../src/platform';
import type { RateGate } from '../../../../../src/pace';
import type { PublishedMedia } from './binary-media';
import { readCallbackSecret } from './message';
import { openGate, overQuota } from './pace';
import type { readPace } from './pace';
import type { RunHistory } from './sent-before';

// One run of Message › Send as it sends (run.ts reads and checks its items first).

type Pace = ReturnType<typeof readPace>;

/**
 * One run of Message › Send while it sends: its pace (the gate, opened at the first message or
 * to read the sender's quota), its history of messages sent before, the trigger's secret (read
 * once, when a message calls the trigger back), and how many messages it will send.
 */
export class SendRun {
	private gate: Promise<{ gate: RateGate; dailyQuota?: number }> | undefined;
	private callbackSecret: Promise<string> | undefined;
	/** The messages the run will send, once every item is checked: Share Pace asks no more turns. */
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
	readonly describe = (message: Message): IDataObject => ({
		from: message.from,
		to: message.to,
		type: message.type,
		externalId: message.externalId,
		...(this.history ? { messageKey: this.history.keyOf(message) } : {}),
	});

	/**
	 * Before the first message: the messages sent before are held back (they count towards neither
	 * the quota nor the pace), then, with a sender, those beyond its daily quota (the sender is read
	 * once, for its rate too). Returns what each held item comes out as.
	 */
	async beforeSend(
		prepared: Array<{ itemIndex: number; value: Message }>,
	): Promise<Map<number, Error | IDataObject>> {
		const skipped = this.history && (await this.history.skip(prepared, this.describe));
		const messages = skipped ? skipped.messages : prepared;
		const held = new Map<number, Error | IDataObject>(skipped?.held);
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

	/**
	 * The messages whose file n8n publishes (Source: Binary File): each is given a new link when
	 * sent, so that a long run's last messages have the whole Link Valid For.
	 */
	readonly files = new WeakMap<Message, PublishedMedia>();

	/** One message, when the pace allows (and, with a history, claimed and confirmed). */
	async send(message: Message, itemIndex: number): Promise<IDataObject> {
		const sendOne = async (): Promise<IDataObject> => {
			await this.openGate();
			const link = this.files.get(message)?.sign();
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
			});
			return { ...this.describe(message), ...data };
		};
		return this.history ? await this.history.send(message, itemIndex, sendOne) : await sendOne();
	}

	/**
	 * What was sent is confirmed, what was not is released (even when the run stops on an error);
	 * a pacer shared with other runs of the sender is given back (see sharedPacer).
	 */
	async close(): Promise<void> {
		await this.history?.close();
		if (this.gate) (await this.gate.catch(() => undefined))?.gate.release();
	}
}
