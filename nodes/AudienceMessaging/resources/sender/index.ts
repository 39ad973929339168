/** Sender: its operations, the first the default. */
import { resourceOf } from '../../runner/operation';
import { operation as create } from './create';
import { operation as get } from './get';

export const sender = resourceOf('Sender', 'sender', [create, get]);
