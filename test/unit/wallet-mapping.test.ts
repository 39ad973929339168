import { passFromParameters, passOutcomes, templateSelect, templateSort } from '../../src/mapping/wallet';
import { passSchema } from '../../src/schemas/wallet';

describe('templateSort / templateSelect', () => {
	it('writes the + / - syntax in rule order and skips empty rules', () => {
		expect(templateSort([{ field: 'creationDate', direction: 'descending' }, { field: ' name ', direction: 'ascending' }, { field: '' }])).toBe('-creationDate,+name');
		expect(templateSort([])).toBeUndefined();
		expect(templateSelect(['serial', 'name'])).toBe('serial,name');
		expect(templateSelect([])).toBeUndefined();
	});
});

describe('passFromParameters', () => {
	it('keeps an HTML value exactly and marks fields per pass', () => {
		const value = '<a href="https://x.io/?a=1&amp;b=2">  Link </a>';
		const pass = passSchema.parse(passFromParameters(42, [{ place: 'BACK', label: 'Link', value }, { place: 'custom', customPlace: 'AUXILIARY', value: 7 }]));
		expect(pass).toEqual({
			recipientId: '42',
			uniqueValues: {
				fields: [
					{ place: 'BACK', label: 'Link', fixed: false, value },
					{ place: 'AUXILIARY', fixed: false, value: '7' },
				],
			},
		});
	});
});

describe('passOutcomes', () => {
	const passes = ['a', 'b', 'c', 'd'].map((recipientId) => ({ recipientId, uniqueValues: { fields: [] } }));

	it('matches by recipientId whatever the order, and explains the missing ones', () => {
		const outcomes = passOutcomes(passes, {
			items: [{ recipientId: 'c', url: 'u-c' }, { recipientId: 'a', url: 'u-a' }, { recipientId: 'd', error: { message: 'bad place' } }],
			errors: [{ recipientId: 'b', code: 'RECIPIENT_ALREADY_HAS_PASS', message: 'b already has a pass' }],
		});
		expect(outcomes.get('a')).toEqual({ url: 'u-a' });
		expect(outcomes.get('c')).toEqual({ url: 'u-c' });
		expect(outcomes.get('b')?.error).toBe('b already has a pass');
		expect(outcomes.get('d')?.error).toBe('bad place');
	});

	it('says so when the platform returns nothing for a recipient', () => {
		expect(passOutcomes(passes.slice(0, 1), { items: [], errors: [] }).get('a')).toEqual({ error: 'the platform returned no pass for this recipient' });
	});
});
