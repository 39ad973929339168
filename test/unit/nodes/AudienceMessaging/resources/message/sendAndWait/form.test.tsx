/**
 * Send and Wait for Response's custom form: its fields checked before the message goes, and the
 * answer read from the form's POST.
 */
import {
	formAnswer,
	formFields,
} from '../../../../../../../nodes/AudienceMessaging/resources/message/sendAndWait/form';
import { InputError } from '../../../../../../../src/base/input-errors';

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
		// Issue 48: an answer under __proto__ was silently dropped.
		[
			'the label __proto__',
			[{ fieldLabel: '__proto__' }],
			true,
			'jsonOutput.0.fieldLabel',
			/cannot name/,
		],
		[
			'the label constructor',
			{ values: [{ fieldLabel: 'A' }, { fieldLabel: 'constructor' }] },
			false,
			'formFields.1.fieldLabel',
			/cannot name/,
		],
		[
			'the label respondedAt',
			[{ fieldLabel: 'respondedAt' }],
			true,
			'jsonOutput.0.fieldLabel',
			/taken/,
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
			{ fieldLabel: 'Email', fieldType: 'email' },
			{ fieldLabel: 'Day', fieldType: 'date' },
		],
		true,
	);

	it('answers by label: text trimmed, a number as a number, several choices as a list', () => {
		expect(
			formAnswer(fields, { 'field-0': ' Ada ', 'field-1': '3', 'field-2': ['Price', 'Timing'] }),
		).toEqual({
			answer: { Name: 'Ada', Seats: 3, Reason: ['Price', 'Timing'], Email: '', Day: '' },
		});
		expect(
			formAnswer(fields, {
				'field-0': 'Ada',
				'field-2': 'Price',
				'field-3': 'ada@example.com',
				'field-4': '2026-02-28',
			}),
		).toEqual({
			answer: {
				Name: 'Ada',
				Seats: null,
				Reason: ['Price'],
				Email: 'ada@example.com',
				Day: '2026-02-28',
			},
		});
		expect(formAnswer(fields, { 'field-0': 'x'.repeat(10_000), 'field-1': '-1.5e3' })).toEqual({
			answer: expect.objectContaining({ Name: 'x'.repeat(10_000), Seats: -1500 }),
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
		// Issue 48: unbounded and unchecked answers were taken.
		['an answer of 10,001 characters', { 'field-0': 'x'.repeat(10_001) }, /at most 10000/],
		[
			'a choice picked twice',
			{ 'field-0': 'Ada', 'field-2': ['Price', 'Price'] },
			/each choice once/,
		],
		[
			'100,000 choices',
			{ 'field-0': 'Ada', 'field-2': Array(100_000).fill('Timing') },
			/each choice once/,
		],
		['two answers to a text field', { 'field-0': ['Ada', 'Bob'] }, /one answer/],
		['a number written in hex', { 'field-0': 'Ada', 'field-1': '0x10' }, /must be a number/],
		['an email that is not one', { 'field-0': 'Ada', 'field-3': 'ada@' }, /email address/],
		['a date that is not one', { 'field-0': 'Ada', 'field-4': '2026-02-30' }, /must be a date/],
	])('shows the form again for %s', (_name, posted, problem) => {
		const result = formAnswer(fields, posted);
		expect(result).toEqual({ problem: expect.stringMatching(problem) });
	});

	it('checks a long number that is not one in linear time (a pattern that backtracks took seconds)', () => {
		// 9,999 digits then a letter: a pattern that tries each split of the digits does 50 million
		// steps an answer (0.2 s here), so 100 answers would outlast the test's 5 s; this takes ms.
		const answer = { 'field-0': 'Ada', 'field-1': `${'1'.repeat(9_999)}x` };
		for (let n = 0; n < 100; n++)
			expect(formAnswer(fields, answer)).toEqual({ problem: '"Seats" must be a number.' });
	});
});
