/** Send and Wait's webhook: the answer of the person a message went to, through its links. */
import { isbot } from 'isbot';
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { MAX_ANSWER, formAnswer, formFields } from './form';
import {
	ANSWER_RECORDED_PAGE,
	NO_ACTION_PAGE,
	PAGE_CSP,
	confirmPage,
	customForm as customFormPage,
	freeTextForm,
} from './pages';
import { currentWait, isLinkOf } from './wait';

/**
 * Previewers and HTTP libraries `isbot` misses: a link fetched to preview it must not answer.
 * `preview`, `skype` and `teams` are n8n's own check for Microsoft's link preview service.
 */
const PREVIEWER =
	/(?<!cu)bot\b|crawl|spider|slurp|preview|facebookexternalhit|facebookcatalog|^whatsapp\/|skype|teams|embedly|pinterest|vkshare|google-|headless|^curl\/|^wget\/|python-requests|go-http-client|okhttp|^dart\/|^ruby\b/i;

export function isPreviewer(userAgent: string | undefined): boolean {
	return !userAgent || isbot(userAgent) || PREVIEWER.test(userAgent);
}

/** A form's POST as n8n parsed it: urlencoded, or multipart (`{ data, files }`). */
function posted(body: IDataObject): IDataObject {
	return body.data && typeof body.data === 'object' ? (body.data as IDataObject) : body;
}

/** A page of ours, in n8n's sandbox, never cached; the request answers nothing. */
function showPage(context: IWebhookFunctions, html: string, status = 200): IWebhookResponseData {
	context.getResponseObject().writeHead(status, {
		'Content-Type': 'text/html; charset=utf-8',
		'Content-Security-Policy': PAGE_CSP,
		'Cache-Control': 'no-store',
	});
	context.getResponseObject().end(html);
	return { noWebhookResponse: true };
}

const answered = (data: IDataObject): IWebhookResponseData => ({
	webhookResponse: ANSWER_RECORDED_PAGE,
	workflowData: [[{ json: { data: { ...data, respondedAt: new Date().toISOString() } } }]],
});

/** Free text or a custom form: the link shows the form; its POST answers. */
function formWebhook(context: IWebhookFunctions, customForm: boolean): IWebhookResponseData {
	const options = (context.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const json = context.getNodeParameter('defineForm', 'fields') === 'json';
	const fields = customForm
		? formFields(context.getNodeParameter(json ? 'jsonOutput' : 'formFields', undefined), json)
		: undefined;
	const show = (error?: string) => {
		const form = {
			title: String(options.responseFormTitle ?? ''),
			description: String(
				options.responseFormDescription || context.getNodeParameter('message', ''),
			),
			buttonLabel: String(options.responseFormButtonLabel ?? ''),
			error,
		};
		const html = fields ? customFormPage(form, fields) : freeTextForm(form);
		return showPage(context, html, error ? 400 : 200);
	};
	if (context.getRequestObject().method !== 'POST') return show();
	const body = posted(context.getBodyData());
	if (fields) {
		const result = formAnswer(fields, body);
		return 'problem' in result ? show(result.problem) : answered(result.answer as IDataObject);
	}
	const text = body.text;
	if (typeof text !== 'string' || !text.trim()) return show('Please write a response.');
	if (text.length > MAX_ANSWER) return show(`At most ${MAX_ANSWER} characters, please.`);
	return answered({ text });
}

/**
 * n8n checked the signature first. A link of an earlier wait, or any when the wait cannot be read
 * (logged), answers nothing. Approval: a previewer answers nothing, a browser gets a confirm page
 * whose POST answers, unless Answer When the Link Is Opened (not in human review). Output as n8n's
 * chat nodes': `{ data: { approved | text | <field label>…, respondedAt } }`.
 */
export async function answerWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const query = this.getQueryData() as IDataObject;
	const wait = currentWait(this);
	if (typeof wait === 'string')
		this.logger.warn(
			`Audience Messaging: a link to answer "${this.getNode().name}" answered nothing: ${wait}`,
		);
	if (typeof wait === 'string' || !isLinkOf(wait, query)) return showPage(this, NO_ACTION_PAGE);
	const responseType = this.getNodeParameter('responseType', 'approval');
	if (responseType === 'freeText' || responseType === 'customForm')
		return formWebhook(this, responseType === 'customForm');
	if (isPreviewer(request.headers['user-agent'])) {
		const response = this.getResponseObject();
		response.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
		response.end('');
		return { noWebhookResponse: true };
	}
	const approved = query.approved === 'true';
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const oneTap = options.answerOnOpen === true && !this.getNode().type.endsWith('HitlTool');
	if (request.method !== 'POST' && !oneTap) {
		const choice = wait.labels[approved ? 'true' : 'false'] || (approved ? 'Approve' : 'Decline');
		return showPage(this, confirmPage(wait.message, choice));
	}
	return answered({ approved });
}
