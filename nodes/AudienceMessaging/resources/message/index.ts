import { resourceOf } from '../../shared/operation';
import { operation as send } from './send';

/** Message: its operations, the first the default. */
export const message = resourceOf('message', [send]);
