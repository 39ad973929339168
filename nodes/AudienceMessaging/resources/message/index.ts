/** The Message resource and its operations, the first listed the default. */
import { resourceOf } from '../../runner/operation';
import { operation as send } from './send';
import { operation as sendAndWait } from './sendAndWait';

export const message = resourceOf('Message', 'message', [send, sendAndWait]);
