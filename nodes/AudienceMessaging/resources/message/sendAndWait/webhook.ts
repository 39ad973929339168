import { isbot } from 'isbot';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { MAX_ANSWER, formAnswer, formFields } from './form';
import { ANSWER_RECORDED_PAGE, SANDBOX_CSP, customForm, freeTextForm } from './pages';

/**
 * Link previewers, crawlers and HTTP libraries: chat apps and mail services fetch a link to draw
 * its preview or check it, and that must not count as an answer. As n8n's own chat nodes do: the
 * `isbot` package (bundled) and n8n's check for Microsoft's preview service (Teams, Skype, a
 * "preview", or no User-Agent at all); and this package's own list, which `isbot` misses some of.
 */
const PREVIEWER =
	/(?<!cu)bot\b|crawl|spider|slurp|preview|facebookexternalhit|facebookcatalog|^whatsapp\/|skype|teams|embedly|pinterest|vkshare|google-|headless|^curl\/|^wget\/|python-requests|go-http-client|okhttp|^dart\/|^ruby\b/i;

/** n8n's check for Microsoft's link preview service (n8n-nodes-base's sendAndWait utils). */
function isMicrosoftPreviewService(userAgent: string): boolean {
	const lower = userAgent.toLowerCase();
	return ['teams', 'skype', 'preview'].some((word) => lower.includes(word));
}

export function isPreviewer(userAgent: string | undefined): boolean {
	return (
		!userAgent ||
		isbot(userAgent) ||
		isMicrosoftPreviewService(userAgent) ||
		PREVIEWER.test(userAgent)
	);
}

/** A form's POST as n8n parsed it: urlencoded, or multipart (`{ data, files }`). */
function posted(body: IDataObject): IDataObject {
	return body.data && typeof body.data === 'object' ? (body.data as IDataObject) : body;
}

/**
 * A request to the node's waiting webhook (n8n has checked the link's signature before: a changed
 * link never reaches here): the answer of the person the message went to. Approval: the link's
 * `approved` answers, unless a link previewer asks (the execution keeps waiting). Free text: the
 * link shows a form; its POST answers. Custom form: the same, with the fields set in the node. The
 * execution goes on with one item, `{ data: { approved | text | <field label>…, respondedAt } }`,
 * the output n8n's chat nodes give.
 */
export async function answerWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const responseType = this.getNodeParameter('responseType', 'approval');
	const respondedAt = new Date().toISOString();
	if (responseType === 'freeText' || responseType === 'customForm') {
		const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
		const fields =
			responseType === 'customForm'
				? formFields(
						this.getNodeParameter(
							this.getNodeParameter('defineForm', 'fields') === 'json'
								? 'jsonOutput'
								: 'formFields',
							undefined,
						),
						this.getNodeParameter('defineForm', 'fields') === 'json',
					)
				: undefined;
		const form = (error?: string) => ({
			title: String(options.responseFormTitle ?? ''),
			description: String(options.responseFormDescription || this.getNodeParameter('message', '')),
			buttonLabel: String(options.responseFormButtonLabel ?? ''),
			error,
		});
		const show = (error?: string) => {
			response.writeHead(error ? 400 : 200, {
				'Content-Type': 'text/html; charset=utf-8',
				'Content-Security-Policy': SANDBOX_CSP,
				'Cache-Control': 'no-store',
			});
			response.end(fields ? customForm(form(error), fields) : freeTextForm(form(error)));
			return { noWebhookResponse: true };
		};
		if (request.method !== 'POST') return show();
		const body = this.getBodyData();
		if (fields) {
			const result = formAnswer(fields, posted(body));
			if ('problem' in result) return show(result.problem);
			return {
				webhookResponse: ANSWER_RECORDED_PAGE,
				workflowData: [[{ json: { data: { ...result.answer, respondedAt } } }]],
			};
		}
		const text = posted(body).text;
		if (typeof text !== 'string' || !text.trim()) return show('Please write a response.');
		if (text.length > MAX_ANSWER) return show(`At most ${MAX_ANSWER} characters, please.`);
		return {
			webhookResponse: ANSWER_RECORDED_PAGE,
			workflowData: [[{ json: { data: { text, respondedAt } } }]],
		};
	}
	if (isPreviewer(request.headers['user-agent'])) {
		response.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
		response.end('');
		return { noWebhookResponse: true };
	}
	const approved = (this.getQueryData() as IDataObject).approved === 'true';
	return {
		webhookResponse: ANSWER_RECORDED_PAGE,
		workflowData: [[{ json: { data: { approved, respondedAt } } }]],
	};
}
