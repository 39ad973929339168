/** Send and Wait's pages: self-made HTML (n8n's templates are n8n-nodes-base's), text escaped. */
import { MAX_ANSWER } from './form';
import type { FormField } from './form';

/** n8n's form sandbox (getHtmlSandboxCSP), no framing: a framed Approve could be clicked unseen. */
export const PAGE_CSP =
	"sandbox allow-downloads allow-forms allow-modals allow-orientation-lock allow-pointer-lock allow-popups allow-popups-to-escape-sandbox allow-presentation allow-scripts allow-top-navigation-by-user-activation allow-top-navigation-to-custom-protocols; frame-ancestors 'none'";

const escape = (value: string) =>
	value.replace(
		/[&<>"']/g,
		(character) =>
			({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
	);

const STYLE =
	'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}' +
	'h1{font-size:1.4rem}textarea{width:100%;min-height:8rem;font:inherit;box-sizing:border-box}' +
	'button{margin-top:1rem;padding:.6rem 1.2rem;font:inherit;cursor:pointer}' +
	'.error{color:#b00020}label{display:block;font-weight:600;margin-bottom:.3rem}' +
	'input,select{width:100%;font:inherit;padding:.4rem;box-sizing:border-box}';

function page(title: string, body: string): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** After an answer was recorded (n8n's chat nodes say the same). */
export const ANSWER_RECORDED_PAGE = page(
	'Answer recorded',
	'<h1>Got it, thanks</h1><p>This page can be closed now.</p>',
);

/** A link of an earlier wait, or of a wait already answered (n8n's page says the same). */
export const NO_ACTION_PAGE = page(
	'No action required',
	'<h1>No action required</h1><p>This link belongs to an earlier request, which is no longer ' +
		'waiting for an answer. This page can be closed now.</p>',
);

/** Approve/decline page: only its button (a POST to the same link) answers, not link checkers. */
export function confirmPage(message: string, choice: string): string {
	const text = escape(message).replace(/\n/g, '<br>');
	return page(
		choice,
		`<h1>${escape(choice)}?</h1>` +
			(text ? `<p>${text}</p>` : '') +
			'<form method="post" enctype="application/x-www-form-urlencoded">' +
			'<input type="hidden" name="confirm" value="yes">' +
			`<button type="submit">${escape(choice)}</button></form>`,
	);
}

/** One field of a custom form, named `field-<i>` (n8n's forms name them so). */
function input(field: FormField, index: number): string {
	const name = `field-${index}`;
	const required = field.required ? ' required' : '';
	const placeholder = field.placeholder ? ` placeholder="${escape(field.placeholder)}"` : '';
	const label = `<label for="${name}">${escape(field.label)}${field.required ? ' *' : ''}</label>`;
	if (field.type === 'textarea')
		return `${label}<textarea id="${name}" name="${name}"${placeholder}${required} maxlength="${MAX_ANSWER}"></textarea>`;
	if (field.type === 'dropdown') {
		const choices = field.options
			.map((option) => `<option value="${escape(option)}">${escape(option)}</option>`)
			.join('');
		const empty = field.multiselect ? '' : '<option value=""></option>';
		const multiple = field.multiselect ? ' multiple' : '';
		return `${label}<select id="${name}" name="${name}"${multiple}${required}>${empty}${choices}</select>`;
	}
	return `${label}<input id="${name}" name="${name}" type="${field.type}"${placeholder}${required} maxlength="${MAX_ANSWER}">`;
}

/** What a form page shows around its fields; `error` says why the answer was not taken. */
interface FormPage {
	title: string;
	description: string;
	buttonLabel: string;
	error?: string;
}

/** Posts to its own URL (no `action`): the link's signed query comes along, for n8n to check. */
function formPage(form: FormPage, inputs: string): string {
	const title = form.title || 'Your answer';
	const description = escape(form.description).replace(/\n/g, '<br>');
	return page(
		title,
		`<h1>${escape(title)}</h1>` +
			(description ? `<p>${description}</p>` : '') +
			(form.error ? `<p class="error">${escape(form.error)}</p>` : '') +
			'<form method="post" enctype="application/x-www-form-urlencoded">' +
			inputs +
			`<button type="submit">${escape(form.buttonLabel || 'Submit')}</button></form>`,
	);
}

export const customForm = (form: FormPage, fields: FormField[]): string =>
	formPage(form, fields.map((field, index) => `<p>${input(field, index)}</p>`).join(''));

export const freeTextForm = (form: FormPage): string =>
	formPage(
		form,
		'<label for="text">Response</label>' +
			`<textarea id="text" name="text" required maxlength="${MAX_ANSWER}"></textarea>`,
	);
