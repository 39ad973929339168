/** Send and Wait's custom form: its fields checked before sending, and its answers checked. */
import { InputError, isCalendarDay, isRecord, quoted, tryParseJson } from '../../../../../src/base';

const FORM_FIELD_TYPES = [
	'date',
	'dropdown',
	'email',
	'number',
	'password',
	'text',
	'textarea',
] as const;
type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** One field of a custom form, checked. Its label is its key in the answer, as in n8n's forms. */
export interface FormField {
	label: string;
	type: FormFieldType;
	placeholder: string;
	required: boolean;
	/** A dropdown's choices, and whether several may be picked. */
	options: string[];
	multiselect: boolean;
}

const MAX_FIELDS = 50;

/** Most characters of one answer (each field's, and the free text's). */
export const MAX_ANSWER = 10_000;

/** Labels that cannot key an answer: JavaScript's object machinery, and the node's respondedAt. */
const RESERVED_LABELS = ['__proto__', 'constructor', 'prototype', 'respondedAt'];

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** The form's fields, from the editor or as n8n's JSON, checked before the message is sent. */
export function formFields(raw: unknown, fromJson: boolean): FormField[] {
	const field = fromJson ? 'jsonOutput' : 'formFields';
	let list: unknown = raw;
	if (fromJson && typeof raw === 'string') {
		const parsed = tryParseJson(raw);
		if ('problem' in parsed) throw new InputError(field, `not JSON: ${parsed.problem}`);
		list = parsed.value;
	}
	if (!fromJson) list = (raw as { values?: unknown } | undefined)?.values ?? [];
	if (!Array.isArray(list)) throw new InputError(field, 'a list of form fields was expected');
	if (list.length === 0) throw new InputError(field, 'the form needs at least one field');
	if (list.length > MAX_FIELDS) throw new InputError(field, `at most ${MAX_FIELDS} fields`);
	const labels = new Set<string>();
	return list.map((value: unknown, index) => {
		const at = `${field}.${index}`;
		if (!isRecord(value)) throw new InputError(at, 'each field is an object with a fieldLabel');
		const label = typeof value.fieldLabel === 'string' ? value.fieldLabel.trim() : '';
		if (!label) throw new InputError(`${at}.fieldLabel`, 'each field needs a label');
		if (labels.has(label))
			throw new InputError(
				`${at}.fieldLabel`,
				`${quoted(label)} is used twice: labels name the answers`,
			);
		if (RESERVED_LABELS.includes(label))
			throw new InputError(
				`${at}.fieldLabel`,
				`${quoted(label)} cannot name an answer (${RESERVED_LABELS.join(', ')} are taken): choose another label`,
			);
		labels.add(label);
		const type = (value.fieldType ?? 'text') as FormFieldType;
		if (!FORM_FIELD_TYPES.includes(type))
			throw new InputError(`${at}.fieldType`, `must be one of ${FORM_FIELD_TYPES.join(', ')}`);
		const choices = (value.fieldOptions as { values?: unknown } | undefined)?.values;
		const options = Array.isArray(choices)
			? choices.map((choice) => String((choice as { option?: unknown })?.option ?? '').trim())
			: [];
		if (type === 'dropdown' && options.filter(Boolean).length === 0)
			throw new InputError(`${at}.fieldOptions`, 'a dropdown needs at least one choice');
		return {
			label,
			type,
			placeholder: typeof value.placeholder === 'string' ? value.placeholder : '',
			required: value.requiredField === true,
			options: options.filter(Boolean),
			multiselect: value.multiselect === true,
		};
	});
}

/** A form's POST (`field-<i>`) as an answer by label, or the problem to show with the form. */
export function formAnswer(
	fields: FormField[],
	posted: Record<string, unknown>,
): { answer: Record<string, unknown> } | { problem: string } {
	const answer: Record<string, unknown> = {};
	for (const [index, field] of fields.entries()) {
		const raw = posted[`field-${index}`];
		const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((v) =>
			String(v).trim(),
		);
		const given = values.filter(Boolean);
		if (field.required && given.length === 0) return { problem: `"${field.label}" is required.` };
		if (given.some((value) => value.length > MAX_ANSWER))
			return { problem: `"${field.label}": at most ${MAX_ANSWER} characters, please.` };
		if (given.length > 1 && !(field.type === 'dropdown' && field.multiselect))
			return { problem: `"${field.label}": one answer, please.` };
		if (field.type === 'dropdown') {
			if (given.some((choice) => !field.options.includes(choice)))
				return { problem: `"${field.label}": please pick one of the choices.` };
			if (new Set(given).size < given.length)
				return { problem: `"${field.label}": pick each choice once.` };
			answer[field.label] = field.multiselect ? given : (given[0] ?? '');
		} else if (field.type === 'number') {
			const number = given.length ? Number(given[0]) : null;
			if (number !== null && !(NUMBER.test(given[0]) && Number.isFinite(number)))
				return { problem: `"${field.label}" must be a number.` };
			answer[field.label] = number;
		} else if (field.type === 'email' && given.length && !EMAIL.test(given[0])) {
			return { problem: `"${field.label}" must be an email address.` };
		} else if (field.type === 'date' && given.length && !isCalendarDay(given[0])) {
			return { problem: `"${field.label}" must be a date (YYYY-MM-DD).` };
		} else answer[field.label] = given[0] ?? '';
	}
	return { answer };
}
