/** Subscriber: its operations, the first the default. */
import { resourceOf } from '../../runner/operation';
import { operation as addMany } from './addMany';
import { operation as deleteSubscriber } from './delete';
import { operation as getMany } from './getMany';

export const subscriber = resourceOf('Subscriber', 'subscriber', [
	addMany,
	getMany,
	deleteSubscriber,
]);
