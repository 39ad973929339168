import { resourceOf } from '../../shared/operation';
import { operation as create } from './create';
import { operation as get } from './get';

/** Sender: its operations, the first the default. */
export const sender = resourceOf('Sender', 'sender', [create, get]);
