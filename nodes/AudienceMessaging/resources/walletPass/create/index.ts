/** Wallet Pass › Create: its entry in the Operation list, its fields and its run. */
import type { Operation } from '../../../runner/operation';
import { createWalletPassFields } from './fields';
import { createWalletPasses } from './run';

export const operation: Operation = {
	option: {
		name: 'Create',
		value: 'create',
		action: 'Create wallet passes',
		description: 'Create one personalised pass per input item, in batches',
	},
	fields: createWalletPassFields,
	run: createWalletPasses,
};
