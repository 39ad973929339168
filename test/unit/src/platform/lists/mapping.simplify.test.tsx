import { simplifyList } from '../../../../../src/platform/lists/mapping';

describe('simplifyList', () => {
	it('keeps the listed fields the platform sent, and the column names', () => {
		const full = {
			id: 7,
			name: 'Seven',
			key: 'email',
			status: 'OK',
			size: 2,
			totalLines: 2,
			percentProcessed: 100,
			createdAt: '2026-01-02T03:04:05.678',
			lastUpdated: '2026-01-02T03:04:06.000',
			userName: 'owner',
			autoId: true,
			usesAutoColumns: true,
			caseSensitive: false,
			usesGeneratedData: false,
			columns: [
				{ name: 'email', type: 'STRING', unique: true },
				{ name: 'plan', type: 'STRING' },
			],
		};
		expect(simplifyList(full)).toEqual({
			id: 7,
			name: 'Seven',
			key: 'email',
			status: 'OK',
			size: 2,
			totalLines: 2,
			percentProcessed: 100,
			createdAt: '2026-01-02T03:04:05.678',
			lastUpdated: '2026-01-02T03:04:06.000',
			columns: ['email', 'plan'],
		});
	});

	it('leaves out what the platform did not send, keeps zeros and nulls it did, and tolerates other column shapes', () => {
		expect(simplifyList({ id: 'L1', size: 0, key: null })).toEqual({
			id: 'L1',
			size: 0,
			key: null,
		});
		expect(
			simplifyList({ id: 1, columns: ['email', { name: 'plan' }, { type: 'STRING' }, 3] }),
		).toEqual({ id: 1, columns: ['email', 'plan'] });
		expect(simplifyList({ id: 1, columns: 'email,plan' })).toEqual({ id: 1 });
	});
});
