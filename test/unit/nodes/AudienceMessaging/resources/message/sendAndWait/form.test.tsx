/**
 * Send and Wait for Response's custom form: its fields checked before the message goes, and the
 * answer read from the form's POST.
 */
import {
	formAnswer,
	formFields,
} from '../../../../../../../nodes/AudienceMessaging/resources/message/sendAndWait/form';
import { InputError } from '../../../../../../../src/values/input-errors';

const REASON = {
	fieldLabel: 'Reason',
	fieldType: 'dropdown',
	fieldOptions: { values: [{ option: 'Price' }, { option: 'Timing' }] },
};

describe('formFields', () => {
	it("reads the editor's fields and n8n's JSON the same way", () => {
		const fields = [{ fieldLabel: ' Name ', requiredField: true, placeholder: 'e.g. Ada' }, REASON];
		const expected = [
			{
				label: 'Name',
				type: 'text',
				placeholder: 'e.g. Ada',
				required: true,
				options: [],
				multiselect: false,
			},
			{
				label: 'Reason',
				type: 'dropdown',
				placeholder: '',
				required: false,
				options: ['Price', 'Timing'],
				multiselect: false,
			},
		];
		expect(formFields({ values: fields }, false)).toEqual(expected);
		expect(formFields(JSON.stringify(fields), true)).toEqual(expected);
		expect(formFields(fields, true)).toEqual(expected);
	});

	it.each<[string, unknown, boolean, string, RegExp]>([
		['no fields', { values: [] }, false, 'formFields', /at least one field/],
		['JSON that is not', '[{', true, 'jsonOutput', /not JSON/],
		['an object instead of a list', '{"fieldLabel":"A"}', true, 'jsonOutput', /a list/],
		['a field without a label', [{ fieldType: 'text' }], true, 'jsonOutput.0.fieldLabel', /label/],
		[
			'two fields with one label',
			[{ fieldLabel: 'A' }, { fieldLabel: 'A' }],
			true,
			'jsonOutput.1.fieldLabel',
			/twice/,
		],
		[
			'an unknown type',
			[{ fieldLabel: 'A', fieldType: 'file' }],
			true,
			'jsonOutput.0.fieldType',
			/one of/,
		],
		[
			'a dropdown without choices',
			[{ fieldLabel: 'A', fieldType: 'dropdown' }],
			true,
			'jsonOutput.0.fieldOptions',
			/choice/,
		],
	])('refuses %s, naming the field', (_name, raw, json, field, message) => {
		let error: unknown;
		try {
			formFields(raw, json);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(InputError);
		expect((error as InputError).field).toBe(field);
		expect((error as Error).message).toMatch(message);
	});
});

describe('formAnswer', () => {
	const fields = formFields(
		[
			{ fieldLabel: 'Name', requiredField: true },
			{ fieldLabel: 'Seats', fieldType: 'number' },
			{ ...REASON, multiselect: true },
		],
		true,
	);

	it('answers by label: text trimmed, a number as a number, several choices as a list', () => {
		expect(
			formAnswer(fields, { 'field-0': ' Ada ', 'field-1': '3', 'field-2': ['Price', 'Timing'] }),
		).toEqual({ answer: { Name: 'Ada', Seats: 3, Reason: ['Price', 'Timing'] } });
		expect(formAnswer(fields, { 'field-0': 'Ada', 'field-2': 'Price' })).toEqual({
			answer: { Name: 'Ada', Seats: null, Reason: ['Price'] },
		});
	});

	it.each<[string, Record<string, unknown>, RegExp]>([
		['a required field left empty', { 'field-0': '  ' }, /"Name" is required/],
		[
			'a number that is not one',
			{ 'field-0': 'Ada', 'field-1': 'three' },
			/"Seats" must be a number/,
		],
		[
			'a choice the form does not offer',
			{ 'field-0': 'Ada', 'field-2': 'Free' },
			/pick one of the choices/,
		],
	])('shows the form again for %s', (_name, posted, problem) => {
		const result = formAnswer(fields, posted);
		expect(result).toEqual({ problem: expect.stringMatching(problem) });
	});
});
