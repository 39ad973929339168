/** Subscriber › Add Many: its entry in the Operation list, its fields and its run. */
import type { Operation } from '../../../runner/operation';
import { addManySubscribersFields } from './fields';
import { addManySubscribers } from './run';

export const operation: Operation = {
	option: {
		name: 'Add Many',
		value: 'addMany',
		action: 'Add many subscribers',
		description: 'Add or update subscribers in bulk from input items, a JSON array or a CSV file',
	},
	fields: addManySubscribersFields,
	run: addManySubscribers,
};
