import { resourceOf } from '../../shared/operation';
import { operation as send } from './send';
import { operation as sendAndWait } from './sendAndWait';

/** Message: its operations, the first the default. */
export const message = resourceOf('Message', 'message', [send, sendAndWait]);
