/** Blacklist: its operations, the first the default. */
import { resourceOf } from '../../runner/operation';
import { operation as add } from './add';
import { operation as check } from './check';

export const blacklist = resourceOf('Blacklist', 'blacklist', [add, check]);
